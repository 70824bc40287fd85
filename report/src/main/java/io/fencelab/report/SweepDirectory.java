package io.fencelab.report;

import io.fencelab.engine.event.EventJson;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.tune.BackendCheck;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.ResultsFile;
import io.fencelab.engine.tune.RunDone;
import io.fencelab.engine.tune.SweepListener;
import io.fencelab.engine.tune.SweepPlan;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.scenarios.Scenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep's output directory, kept up to date as results arrive:
 * <ul>
 *   <li>{@code plan.json}: what the results are results of (scenario and its digest, axes, seeds); a
 *       sweep with other arguments is refused here instead of mixing its results in;</li>
 *   <li>{@code sweep.csv}: the append-only results, one row per run ({@link ResultsFile});</li>
 *   <li>{@code sweep.json}: the summaries ({@link SweepJson}), rewritten as each point finishes;</li>
 *   <li>{@code sweep.html}: the report ({@link SweepReport}), written when the sweep ends or stops;</li>
 *   <li>{@code points/<point>/}: the report bundle of each point's worst seed ({@link ReportBundle}).</li>
 * </ul>
 * As a {@link SweepListener} it is told by the runner; it is not thread-safe on its own (the runner
 * calls one method at a time).
 */
public final class SweepDirectory implements SweepListener, AutoCloseable {

    public static final String PLAN = "plan.json";
    public static final String CSV = "sweep.csv";
    public static final String JSON = "sweep.json";
    public static final String HTML = "sweep.html";
    public static final String POINTS = "points";
    private static final String WORK = ".runs";

    private final Path dir;
    private final SweepPlan plan;
    private final Scenario scenario;
    private final List<Requirement> requirements;
    private final ResultsFile results;
    private final Map<Integer, PointSummary> done = new HashMap<>();
    private final Map<Integer, String> skipped = new LinkedHashMap<>();
    /** Where the runs kept their state, and the PostgreSQL re-run of an in-memory sweep; null until known. */
    private volatile BackendNote backendNote;

    /** The backend a sweep's runs used and, for the in-memory one, its check against PostgreSQL (null if none ran). */
    public record BackendNote(Backend backend, BackendCheck check) {}

    private SweepDirectory(Path dir, SweepPlan plan, Scenario scenario, List<Requirement> requirements,
                           ResultsFile results) {
        this.dir = dir;
        this.plan = plan;
        this.scenario = scenario;
        this.requirements = List.copyOf(requirements);
        this.results = results;
    }

    /**
     * Opens {@code dir} for {@code plan}: a new directory, or one holding an earlier run of the same
     * plan (whose results are kept and resumed). The constraints may differ from the earlier run's:
     * they judge results, they do not change them.
     *
     * @param scenario the scenario as written, whose teaching notes head each point's report
     * @throws IllegalArgumentException if {@code dir} holds results of a sweep with other arguments
     */
    public static SweepDirectory open(Path dir, SweepPlan plan, Scenario scenario, List<Requirement> requirements)
            throws IOException {
        Files.createDirectories(dir);
        Path planFile = dir.resolve(PLAN);
        String wanted = EventJson.documentWriter().writeValueAsString(plan.identity());
        if (Files.exists(planFile)) {
            String found = readPlan(planFile);
            if (!found.strip().equals(wanted.strip())) {
                throw new IllegalArgumentException(dir + " holds a sweep with other arguments ("
                        + describe(found) + "); give another --out directory, or delete it to start over");
            }
        } else if (Files.exists(dir.resolve(CSV))) {
            throw new IllegalArgumentException(dir + " holds a sweep.csv without its plan.json; give another --out "
                    + "directory, or delete it to start over");
        } else {
            StagedDirectory.writeFile(planFile, wanted + "\n");
        }
        return new SweepDirectory(dir, plan, scenario, requirements, ResultsFile.open(dir.resolve(CSV), plan));
    }

    private static String readPlan(Path planFile) throws IOException {
        try {
            return Files.readString(planFile);
        } catch (IOException e) {
            // Reading a directory says only "Is a directory", without which.
            throw new IOException(FileProblem.of(planFile, e), e);
        }
    }

    /** The earlier plan in one line, from its plan.json. */
    private static String describe(String planJson) {
        try {
            var node = EventJson.mapper().readTree(planJson);
            StringBuilder s = new StringBuilder(node.path("scenario").asText("?"));
            for (var axis : node.path("axes")) {
                s.append(", ").append(axis.path("path").asText()).append('=');
                List<String> values = new java.util.ArrayList<>();
                axis.path("values").forEach(v -> values.add(v.asText()));
                s.append(String.join(",", values));
            }
            s.append(", ").append(node.path("seeds").size()).append(" seeds");
            return s.toString();
        } catch (IOException e) {
            return "an unreadable plan.json";
        }
    }

    public Path dir() {
        return dir;
    }

    public ResultsFile results() {
        return results;
    }

    /** Where the runner keeps run logs while they go. */
    public Path workDir() {
        return dir.resolve(WORK);
    }

    public Path html() {
        return dir.resolve(HTML);
    }

    /** What the sweep has found so far. */
    public SweepResults snapshot() {
        return new SweepResults(plan, done, skipped, requirements);
    }

    public boolean hasReport(Point p) {
        return Files.isRegularFile(dir.resolve(SweepReport.reportLink(p)));
    }

    // ---- SweepListener --------------------------------------------------------------------------------

    @Override
    public void pointSkipped(Point point, String reason) {
        skipped.put(point.index(), reason);
    }

    @Override
    public boolean wantsWorstRun(Point point) {
        return !hasReport(point);
    }

    @Override
    public void pointFinished(PointSummary summary, RunDone worst) {
        done.put(summary.point().index(), summary);
        try {
            if (worst != null) {
                Map<String, String> extra = new LinkedHashMap<>();
                extra.put("sweep point", summary.point().id() + ": " + summary.point().label(plan.axes()));
                extra.put("seed shown", worst.seed() + ", the worst of " + summary.runs().size() + " seeds");
                ReportBundle.write(dir.resolve(POINTS).resolve(summary.point().id()),
                        ReportInput.of(scenario, worst.spec(), worst.result(), worst.events(), extra));
            }
            SweepJson.write(dir.resolve(JSON), snapshot(), this::hasReport, backendNote);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sweep's files: " + FileProblem.of(e), e);
        }
    }

    @Override
    public void finished(boolean stopped) {
        try {
            writeReports();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sweep's files: " + FileProblem.of(e), e);
        }
    }

    /** Writes sweep.json and sweep.html from what is known now. */
    public void writeReports() throws IOException {
        SweepResults snapshot = snapshot();
        SweepJson.write(dir.resolve(JSON), snapshot, this::hasReport, backendNote);
        SweepReport.write(dir.resolve(HTML), snapshot, scenario.notes().title(), this::hasReport, backendNote,
                scenario.spec().pauseProfile());
    }

    /** Records which backend the runs used (and its PostgreSQL check) and writes the reports again. */
    public void recordBackend(BackendNote note) throws IOException {
        backendNote = note;
        writeReports();
    }

    @Override
    public void close() throws IOException {
        results.close();
    }
}

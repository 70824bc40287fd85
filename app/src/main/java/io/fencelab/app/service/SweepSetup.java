package io.fencelab.app.service;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.BackendCheck;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.SweepPlan;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.engine.tune.SweepRunner;
import io.fencelab.report.SweepDirectory;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.ScenarioVariation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A sweep made from its arguments, the way {@code fencelab tune} takes them: the scenario, the
 * {@code --vary} ranges, the number of seeds and the {@code --require} constraints. It gives the plan,
 * opens the output directory and makes the runner; the command line and the console's Tune view
 * both set a sweep up here, so the two run the same sweep for the same arguments.
 *
 * @param variation    the scenario file and the paths that can vary in it
 * @param plan         the axes and seeds (the scenario's own seed and the next ones)
 * @param requirements the constraints that judge each setting
 */
public record SweepSetup(ScenarioVariation variation, SweepPlan plan, List<Requirement> requirements) {

    public SweepSetup {
        requirements = List.copyOf(requirements);
    }

    /**
     * @param vary    one {@code PATH=FROM..TO[:STEPS][log]} (or {@code PATH=V1,V2}) per axis
     * @param require {@code METRIC<=VALUE} (or {@code >=}) constraints
     * @throws IllegalArgumentException with one line saying what is wrong (an unknown path lists those that can vary)
     * @throws io.fencelab.scenarios.ScenarioException if the scenario itself is not valid
     */
    public static SweepSetup of(ScenarioSource source, List<String> vary, int seeds, List<String> require) {
        ScenarioVariation variation = ScenarioVariation.of(source);
        List<Axis> axes = new ArrayList<>();
        for (String v : vary) {
            axes.add(variation.axis(v));
        }
        List<Requirement> requirements = require.stream().map(Requirement::parse).toList();
        SweepPlan plan = new SweepPlan(source.name(), source.digest(), axes,
                SweepPlan.seeds(variation.base().spec().seed(), seeds));
        return new SweepSetup(variation, plan, requirements);
    }

    /** Opens (or resumes) the sweep's output directory; see {@link SweepDirectory#open}. */
    public SweepDirectory open(Path out) throws IOException {
        return SweepDirectory.open(out, plan, variation.base(), requirements);
    }

    /** The runner of this sweep into {@code dir}, {@code jobs} runs at a time. */
    public SweepRunner runner(Database db, SweepDirectory dir, int jobs) {
        return runner(db, dir, jobs, null);
    }

    /** As {@link #runner(Database, SweepDirectory, int)} on {@code backend} (null: the fastest each run allows). */
    public SweepRunner runner(Database db, SweepDirectory dir, int jobs, Backend backend) {
        return new SweepRunner(db, plan, p -> variation.spec(plan.axes(), p), dir.results(), jobs, dir.workDir(),
                backend);
    }

    /**
     * The backend the sweep's runs use: {@code requested}, or (null) the fastest the scenario allows.
     *
     * @throws IllegalArgumentException if {@code requested} cannot run the scenario (memory for a live one)
     */
    public Backend backend(Backend requested) {
        RunSpec base = variation.base().spec();
        Backend used = requested != null ? requested : Backend.fastestFor(base);
        used.refusal(base).ifPresent(why -> {
            throw new IllegalArgumentException("--backend " + used.name().toLowerCase(java.util.Locale.ROOT) + ": " + why);
        });
        return used;
    }

    /**
     * After the runs: records in the reports which backend they used and, for a completed in-memory
     * sweep, runs the recommended setting again on PostgreSQL and records whether the logs agree.
     */
    public Optional<BackendCheck> finish(Database db, SweepDirectory dir, Backend used, boolean completed)
            throws IOException, InterruptedException {
        BackendCheck check = completed && used == Backend.MEMORY ? checkOnPostgres(db, dir).orElse(null) : null;
        dir.recordBackend(new SweepDirectory.BackendNote(used, check));
        return Optional.ofNullable(check);
    }

    /**
     * The recommended setting (else the first one done) run again on PostgreSQL with its first seed,
     * its log compared with the in-memory one; empty when nothing ran.
     */
    private Optional<BackendCheck> checkOnPostgres(Database db, SweepDirectory dir) throws IOException,
            InterruptedException {
        SweepResults results = dir.snapshot();
        Optional<Point> point = results.recommended().map(a -> a.point().point())
                .or(() -> results.done().values().stream().findFirst().map(PointSummary::point));
        if (point.isEmpty()) {
            return Optional.empty();
        }
        RunSpec spec = scenarioAt(point.get()).spec();
        return Optional.of(BackendCheck.run(db, point.get(), spec, plan.seeds().getFirst(), dir.workDir()));
    }

    /** The scenario with {@code point}'s values written in (what each of its seeds ran). */
    public Scenario scenarioAt(Point point) {
        return variation.scenario(point.assignments(plan.axes()));
    }
}

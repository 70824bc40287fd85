package io.fencelab.app.console.tune;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.TuneModel;
import io.fencelab.app.console.model.TuneModel.AxisForm;
import io.fencelab.app.console.model.TuneModel.Phase;
import io.fencelab.app.console.run.RunSessions;
import io.fencelab.app.console.run.ScenarioController;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.app.service.SweepSetup;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.lease.LeaseProfileRegistry;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Recommendation;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.ResultRow;
import io.fencelab.engine.tune.RunDone;
import io.fencelab.engine.tune.SweepListener;
import io.fencelab.engine.tune.SweepPlan;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.engine.tune.SweepRunner;
import io.fencelab.report.SweepDirectory;
import io.fencelab.scenarios.AxisRange;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.ScenarioVariation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javafx.application.Platform;

/**
 * The Tune view's controller: fills the form for a scenario (a preset's own suggested sweep, or its
 * lease ttl around the scenario's), runs the sweep off the FX thread with the same pieces as
 * {@code fencelab tune} ({@link SweepSetup}, {@link SweepDirectory}, {@link io.fencelab.engine.tune.SweepRunner}),
 * stops and resumes it, writes its report, and opens a point's worst seed on the timeline.
 *
 * <p>The runner tells a {@link Collector} on its own threads; the collector only records what it
 * heard and marks itself changed. The console's frame loop turns that into the model at most once
 * a frame, so a sweep never posts work to the FX thread per result.
 */
public final class TuneController {


    private final TuneModel model;
    private final RunSessions sessions;
    private final ScenarioController scenarios;
    private final Path sweepsDir;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("fencelab-sweep").factory());
    /** Guards the sweep directory: the runner's calls into it and an export's. */
    private final Object directoryLock = new Object();

    /** The sweep whose results are on show (FX thread). */
    private Collector collector;
    /** The scenario the form is for (FX thread); null before one is chosen. */
    private ScenarioVariation variation;

    public TuneController(ConsoleModel console, RunSessions sessions, ScenarioController scenarios, FrameLoop loop,
                          Path runsDir) {
        this.model = console.tune();
        this.sessions = sessions;
        this.scenarios = scenarios;
        this.sweepsDir = runsDir.resolve("sweeps");
        loop.addUpdate(this::frame);
        for (AxisForm axis : List.of(model.across(), model.upwards())) {
            axis.pathProperty().addListener((o, was, now) -> parameterChosen(axis, now));
        }
    }

    // ---- the form --------------------------------------------------------------------------------

    /**
     * Chooses the scenario to sweep (a catalog name or a scenario file's path) and fills the form for
     * it: a scenario that suggests a sweep in its file (the tuning presets do,
     * {@code # fencelab tune NAME --vary … --seeds N}) gets that sweep; any other its lease profile's
     * main lifetime ({@code lease.ttl}, {@code lease.leaseDuration}, …) from half to twice the
     * scenario's, in three steps. The parameters offered are the ones this scenario can vary, its own
     * profile's settings only.
     */
    public void chooseScenario(String name) {
        if (name == null || name.isBlank() || model.phase().busy()) {
            return;
        }
        ScenarioVariation chosen;
        try {
            chosen = ScenarioVariation.of(Catalog.shipped().source(name));
        } catch (RuntimeException e) {
            model.statusProperty().set(Problems.describe("The scenario cannot be swept", e));
            return;
        }
        variation = chosen;
        model.scenarioProperty().set(name);
        model.variablePaths().setAll(chosen.variablePaths().keySet());
        model.outProperty().set(sweepsDir.resolve(chosen.source().name().replaceAll("[^A-Za-z0-9._-]", "_"))
                .toString());
        ScenarioSource.SuggestedSweep suggested = chosen.source().suggestedSweep().orElse(null);
        List<String> vary = new ArrayList<>(suggested == null ? List.of() : suggested.vary());
        List<String> require = suggested == null ? List.of() : suggested.require();
        int seeds = suggested == null || suggested.seeds() == 0 ? 2 : Math.min(3, suggested.seeds());
        if (vary.isEmpty()) {
            String path = chosen.mainLeasePath();
            LeaseProfile lease = chosen.base().spec().lease();
            // The profile's main lifetime is its first setting in the registry (ttl, leaseDuration, ...).
            String mainSetting = LeaseProfileRegistry.of(lease.getClass()).settingNames().getFirst();
            Duration main = (Duration) lease.values().get(mainSetting);
            vary.add(path + "=" + main.toMillis() / 2 + "ms.." + main.toMillis() * 2 + "ms:3");
        }
        try {
            fill(model.across(), vary.getFirst());
            fill(model.upwards(), vary.size() > 1 ? vary.get(1) : null);
        } catch (IllegalArgumentException e) {
            // A file of the user's own may suggest a --vary the syntax refuses: say which, as the CLI would.
            model.statusProperty().set(Problems.describe("The file's suggested sweep cannot be read", e));
            return;
        }
        model.seedsProperty().set(seeds);
        model.requireProperty().set(String.join(" ", require));
        model.statusProperty().set("Ready to sweep " + name + ": press Run sweep.");
    }

    /**
     * Another parameter picked for an axis: its range starts at the scenario's value of it (the old
     * parameter's range would mean nothing, or another unit), to be widened from there; empty where
     * the scenario has no single value for it (a distribution written as a mapping).
     */
    private void parameterChosen(AxisForm axis, String path) {
        if (variation == null || path == null || model.phase().busy()) {
            return;
        }
        String value = variation.currentValue(path).orElse("");
        axis.fromProperty().set(value);
        axis.toProperty().set(value);
    }

    /**
     * Puts {@code PATH=FROM..TO[:STEPS][log]} (or {@code PATH=V1,V2,…}), as {@link AxisRange#parse}
     * reads it, into an axis of the form; null clears it.
     *
     * @throws IllegalArgumentException if {@code vary} is not in that syntax
     */
    static void fill(AxisForm axis, String vary) {
        if (vary == null) {
            axis.pathProperty().set("");
            axis.fromProperty().set("");
            axis.toProperty().set("");
            return;
        }
        AxisRange range = AxisRange.parse(vary);
        axis.pathProperty().set(range.path());
        switch (range.values()) {
            case AxisRange.Span span -> {
                axis.fromProperty().set(span.from());
                axis.toProperty().set(span.to());
                // A console sweep is for looking: at most 5 values an axis unless the user asks for more.
                axis.stepsProperty().set(span.steps().isEmpty() ? AxisRange.DEFAULT_STEPS
                        : Math.min(5, span.steps().getAsInt()));
                axis.logProperty().set(span.log());
            }
            case AxisRange.Listed list -> {
                axis.fromProperty().set(String.join(",", list.items()));
                axis.toProperty().set("");
            }
        }
    }

    public void setMetric(String metric) {
        model.metricProperty().set(metric);
    }

    /** Shows the Tune view, or the timeline. */
    public void show(boolean tune) {
        model.shownProperty().set(tune);
    }

    // ---- running ---------------------------------------------------------------------------------

    /** Runs the sweep of the form into a fresh folder (the form's, or a numbered one beside it if that holds a sweep). */
    public void run() {
        start(false);
    }

    /** Runs the sweep of the form again on the same folder: finished runs are kept, the rest run. */
    public void resume() {
        start(true);
    }

    /** Stops the sweep soon: runs under way end and are dropped, finished ones stay for Resume. */
    public void stop() {
        Collector c = collector;
        if (c == null || !model.phase().busy()) {
            return;
        }
        c.stop();
        model.phaseProperty().set(Phase.STOPPING);
        model.statusProperty().set("Stopping: runs under way are ending…");
    }

    private void start(boolean resume) {
        if (model.phase().busy()) {
            return;
        }
        Database db = sessions.database();
        if (db == null) {
            model.statusProperty().set("The database is not open yet; a sweep needs it.");
            return;
        }
        SweepSetup setup;
        List<Requirement> requirements;
        int jobs = Math.max(1, model.jobsProperty().get());
        Backend backend = model.backendProperty().get();
        try {
            List<String> vary = new ArrayList<>();
            for (AxisForm axis : List.of(model.across(), model.upwards())) {
                String v = axis.vary();
                if (v != null) {
                    vary.add(v);
                }
            }
            String require = model.requireProperty().get().strip();
            setup = SweepSetup.of(Catalog.shipped().source(model.scenarioProperty().get()), vary,
                    model.seedsProperty().get(), require.isEmpty() ? List.of()
                            : Arrays.asList(require.split("[,;\\s]+")));
            requirements = setup.requirements();
        } catch (ScenarioException | IllegalArgumentException e) {
            fail(e.getMessage());
            return;
        }
        Path out = Path.of(model.outProperty().get().isBlank() ? sweepsDir.resolve(setup.plan().scenario()).toString()
                : model.outProperty().get());
        if (!resume) {
            out = fresh(out);
            model.outProperty().set(out.toString());
        }
        Collector c = new Collector(setup, requirements, out);
        collector = c;
        model.resultsProperty().set(c.snapshot());
        model.runsDoneProperty().set(0);
        model.runsAlreadyDoneProperty().set(0);
        model.runsTotalProperty().set(setup.plan().runCount());
        model.recommendationProperty().set("");
        model.reportProperty().set("");
        model.phaseProperty().set(Phase.RUNNING);
        model.statusProperty().set((resume ? "Resuming " : "Sweeping ") + setup.plan().describe() + ": "
                + setup.plan().pointCount() + " settings × " + setup.plan().seeds().size() + " seeds, " + jobs
                + " at a time…");
        Path dir = out;
        worker.execute(() -> c.sweep(db, dir, jobs, backend));
    }

    /** {@code out}, or if it already holds a sweep, {@code out-2}, {@code out-3}, … (the first that does not). */
    static Path fresh(Path out) {
        Path candidate = out;
        for (int n = 2; Files.exists(candidate.resolve(SweepDirectory.PLAN)); n++) {
            candidate = out.resolveSibling(out.getFileName() + "-" + n);
        }
        return candidate;
    }

    private void fail(String why) {
        model.phaseProperty().set(Phase.FAILED);
        model.statusProperty().set(why);
    }

    /** Once a frame: what the sweep heard since the last frame, into the model. */
    private void frame(long now) {
        Collector c = collector;
        if (c == null) {
            return;
        }
        Ended ended = c.ended;
        if (c.changed.getAndSet(false)) {
            SweepResults results = c.snapshot();
            model.resultsProperty().set(results);
            model.runsTotalProperty().set(c.runsTotal);
            model.runsAlreadyDoneProperty().set(c.alreadyDone);
            model.runsDoneProperty().set(c.alreadyDone + c.runsHere.get());
            model.recommendationProperty().set(recommendation(results));
            if (ended == null && model.phase() == Phase.RUNNING) {
                model.statusProperty().set(String.format(Locale.ROOT, "%d of %d runs, %d of %d settings done%s%s",
                        model.runsDoneProperty().get(), c.runsTotal, results.done().size() + results.skipped().size(),
                        results.plan().pointCount(), c.alreadyDone > 0 ? " (" + c.alreadyDone
                                + " runs kept from before)" : "", skipped(results, "; ")));
            }
        }
        if (ended != null && !c.endShown) {
            c.endShown = true;
            model.phaseProperty().set(ended.phase());
            model.statusProperty().set(ended.message());
            if (ended.phase() != Phase.FAILED) {
                model.reportProperty().set(c.dir.resolve(SweepDirectory.HTML).toString());
            }
        }
    }

    /** What a finished sweep did: the runs and settings that ran, and the settings skipped and why. */
    static String done(SweepResults r, int runs) {
        if (r.done().isEmpty() && !r.skipped().isEmpty()) {
            return "Nothing ran: " + skipped(r, "") + ". Change the range or the parameter and run the sweep again.";
        }
        return "Done: " + count(runs, "run") + " of " + count(r.done().size(), "setting") + skipped(r, "; ")
                + ". Hover a cell for its numbers; click it to open its worst seed on the timeline.";
    }

    /**
     * The settings skipped so far, after {@code lead}: how many of all, and why (each distinct reason
     * once, the first two), since a sweep that skips settings has not tried what the form asked;
     * empty when none was skipped.
     */
    static String skipped(SweepResults r, String lead) {
        if (r.skipped().isEmpty()) {
            return "";
        }
        Map<String, Long> reasons = r.skipped().values().stream().collect(Collectors.groupingBy(
                reason -> reason, java.util.LinkedHashMap::new, Collectors.counting()));
        List<String> shown = reasons.entrySet().stream().limit(2)
                .map(e -> e.getKey() + (e.getValue() > 1 ? " (" + e.getValue() + " settings)" : "")).toList();
        return String.format(Locale.ROOT, "%s%d of %s skipped, not valid scenarios: %s%s", lead,
                r.skipped().size(), count(r.plan().pointCount(), "setting"), String.join("; ", shown), reasons.size() > 2
                        ? "; and " + (reasons.size() - 2) + " more reasons (click a skipped cell for its own)" : "");
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** The recommended setting in words, or why there is none. */
    static String recommendation(SweepResults r) {
        var axes = r.plan().axes();
        if (r.done().isEmpty()) {
            return "";
        }
        if (r.requirements().isEmpty()) {
            List<String> frontier = r.frontier().stream().map(p -> p.point().label(axes)).toList();
            return "No constraints given, so no single recommendation: add one (failoverP99Seconds<=30, "
                    + "leaseLossesPerHour<=60, …). Best trade-offs so far (Pareto frontier): "
                    + String.join("; ", frontier) + ".";
        }
        String constraints = String.join(" and ", r.requirements().stream().map(Requirement::toString).toList());
        Optional<Recommendation.Assessment> best = r.recommended();
        if (best.isEmpty()) {
            return "No setting meets " + constraints + " on every seed"
                    + (r.done().size() + r.skipped().size() < r.plan().pointCount() ? " so far." : ".");
        }
        return String.format(Locale.ROOT, "Recommended: %s. It meets %s on every seed with a margin of %d %% "
                + "(worst seed %d).", best.get().point().point().label(axes), constraints,
                Math.round(best.get().margin() * 100), best.get().point().worst().seed());
    }

    // ---- after a sweep ---------------------------------------------------------------------------

    /** (Re)writes the sweep's report, sweep.html, and says where it is. */
    public void exportReport() {
        Collector c = collector;
        if (c == null || c.directory == null) {
            model.reportProperty().set("Run a sweep first: its report is written into its folder.");
            return;
        }
        sessions.io().execute(() -> {
            String message;
            synchronized (directoryLock) {
                try {
                    c.directory.writeReports();
                    message = "Report written: " + c.directory.html();
                } catch (IOException | RuntimeException e) {
                    message = Problems.describe("The sweep report could not be written", e);
                }
            }
            String m = message;
            Platform.runLater(() -> model.reportProperty().set(m));
        });
    }

    /**
     * Opens the worst seed of point {@code index} on the timeline: the scenario with the point's values,
     * that seed, run through the console's normal path (a simulated run is the sweep's, event for event)
     * and shown whole.
     */
    public void openWorst(int index) {
        Collector c = collector;
        SweepResults r = model.results();
        if (c == null || r == null) {
            return;
        }
        PointSummary summary = r.done().get(index);
        Point point = r.points().get(index);
        if (summary == null) {
            String skipped = r.skipped().get(index);
            model.statusProperty().set(point.label(r.plan().axes()) + (skipped != null ? " was skipped: " + skipped
                    : " has not finished yet."));
            return;
        }
        long seed = summary.worst().seed();
        try {
            scenarios.showSweepPoint(c.setup.scenarioAt(point), seed, c.dir + " " + point.id() + " ("
                    + point.label(r.plan().axes()) + "), worst seed " + seed);
        } catch (ScenarioException e) {
            model.statusProperty().set(Problems.describe("That setting cannot be shown", e));
            return;
        }
        model.shownProperty().set(false);
    }

    /** Stops a sweep under way and waits briefly for it (the console is closing). */
    public void shutdown() {
        Collector c = collector;
        if (c != null) {
            c.stop();
        }
        worker.shutdown();
        try {
            worker.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How a sweep ended. */
    private record Ended(Phase phase, String message) {
    }

    /**
     * One sweep: runs it on the sweep thread, and hears the runner. The runner calls one listener
     * method at a time; what they record is read on the FX thread, so it is kept in concurrent maps
     * and volatile fields.
     */
    private final class Collector implements SweepListener {
        final SweepSetup setup;
        final List<Requirement> requirements;
        final Path dir;
        final Map<Integer, PointSummary> done = new ConcurrentHashMap<>();
        final Map<Integer, String> skipped = new ConcurrentHashMap<>();
        final AtomicInteger runsHere = new AtomicInteger();
        final AtomicBoolean changed = new AtomicBoolean();
        volatile int runsTotal;
        volatile int alreadyDone;
        volatile boolean stopAsked;
        volatile SweepRunner runner;
        volatile SweepDirectory directory;
        volatile Ended ended;
        boolean endShown;

        Collector(SweepSetup setup, List<Requirement> requirements, Path dir) {
            this.setup = setup;
            this.requirements = requirements;
            this.dir = dir;
            this.runsTotal = setup.plan().runCount();
        }

        SweepResults snapshot() {
            return new SweepResults(setup.plan(), Map.copyOf(done), Map.copyOf(skipped), requirements);
        }

        void stop() {
            stopAsked = true;
            SweepRunner r = runner;
            if (r != null) {
                r.stop();
            }
        }

        /** On the sweep thread. */
        void sweep(Database db, Path out, int jobs, Backend backend) {
            try (SweepDirectory d = setup.open(out)) {
                directory = d;
                Backend used = setup.backend(backend);
                SweepRunner r = setup.runner(db, d, jobs, used);
                runner = r;
                if (stopAsked) {
                    r.stop();
                }
                boolean completed = r.run(SweepListener.all(guarded(d), this));
                synchronized (directoryLock) {
                    setup.finish(db, d, used, completed);
                }
                ended = completed ? new Ended(Phase.DONE, done(snapshot(), alreadyDone + runsHere.get()))
                        : new Ended(Phase.STOPPED, "Stopped with " + (alreadyDone + runsHere.get()) + " of "
                                + runsTotal + " runs kept in " + out + skipped(snapshot(), "; ")
                                + ". Resume goes on from there.");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ended = new Ended(Phase.STOPPED, "Stopped. Resume goes on from the runs kept in " + out + ".");
            } catch (IOException | RuntimeException e) {
                ended = new Ended(Phase.FAILED, Problems.describe("The sweep could not go on", e));
            }
            changed.set(true);
        }

        /** The sweep directory as a listener, locked against an export writing the report at the same time. */
        private SweepListener guarded(SweepDirectory d) {
            return new SweepListener() {
                @Override
                public void pointSkipped(Point point, String reason) {
                    synchronized (directoryLock) {
                        d.pointSkipped(point, reason);
                    }
                }

                @Override
                public boolean wantsWorstRun(Point point) {
                    return d.wantsWorstRun(point);
                }

                @Override
                public void pointFinished(PointSummary summary, RunDone worst) {
                    synchronized (directoryLock) {
                        d.pointFinished(summary, worst);
                    }
                }

                @Override
                public void finished(boolean stopped) {
                    synchronized (directoryLock) {
                        d.finished(stopped);
                    }
                }
            };
        }

        @Override
        public void started(SweepPlan plan, int runs, int already) {
            runsTotal = runs;
            alreadyDone = already;
            changed.set(true);
        }

        @Override
        public void pointSkipped(Point point, String reason) {
            skipped.put(point.index(), reason);
            changed.set(true);
        }

        @Override
        public void runFinished(ResultRow row) {
            runsHere.incrementAndGet();
            changed.set(true);
        }

        @Override
        public void pointFinished(PointSummary summary, RunDone worst) {
            done.put(summary.point().index(), summary);
            changed.set(true);
        }
    }
}

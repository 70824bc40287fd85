package io.fencelab.bench;

import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.Workloads;
import io.fencelab.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The engine's storm workload ({@link Workloads#storm}) as a live scenario file, so the console can
 * open it the way a user opens any scenario ({@code Open scenario file…}) and run it on its own path:
 * controller, {@code LiveDriver}, event feed, frame loop. The file is checked to compile to exactly
 * {@code Workloads.storm(workers, scopes, FENCED, seed, length).withExecutor(LIVE)}.
 */
public final class LiveStorm {

    private LiveStorm() {
    }

    /** The spec the file compiles to. */
    public static RunSpec spec(int workers, int scopes, long seed, Duration length) {
        return Workloads.storm(workers, scopes, FencingMode.FENCED, seed, length).withExecutor(ExecutorKind.LIVE);
    }

    /**
     * Writes {@code storm.yaml} into {@code dir} and returns it.
     *
     * @throws IllegalStateException if the file does not compile to {@link #spec} (the workload and
     *     this writer drifted apart)
     */
    public static Path write(Path dir, int workers, int scopes, long seed, Duration length) throws IOException {
        Path file = dir.resolve("storm.yaml");
        Files.writeString(file, yaml(workers, scopes, seed, length));
        RunSpec expected = spec(workers, scopes, seed, length);
        RunSpec loaded = ScenarioLoader.load(file).spec();
        if (!loaded.equals(expected)) {
            throw new IllegalStateException("the live storm scenario no longer matches Workloads.storm: " + file);
        }
        return file;
    }

    /** The scenario text: one worker per line, as {@link Workloads#storm} builds them. */
    static String yaml(int workers, int scopes, long seed, Duration length) {
        StringBuilder y = new StringBuilder();
        y.append("title: A live storm of ").append(workers).append(" workers\n");
        y.append("summary: >-\n  ").append(workers).append(" live workers on ").append(scopes)
                .append(" scopes with one-second leases and heavy-tailed pauses on every holder.\n");
        y.append("story:\n  - Every worker takes its scope's lease, writes a row, an object and a pointer, and lets go.\n");
        y.append("executor: live\n");
        y.append("seed: ").append(seed).append('\n');
        y.append("duration: ").append(length.toMillis()).append("ms\n");
        y.append("lease: {ttl: 1s, renewEvery: 300ms}\n");
        y.append("workers:\n");
        for (int i = 0; i < workers; i++) {
            y.append(String.format(Locale.ROOT, "  - {name: w%d, scope: scope-%d, startAt: %dms, workTime: 300ms, "
                    + "idleTime: 200ms, writes: [{target: ROW, key: record}, {target: OBJECT, key: blob}, "
                    + "{target: POINTER, key: current}]}%n", i, i % scopes, 37L * i % 500));
        }
        y.append("faults:\n");
        y.append("  - {kind: PAUSE, target: all, every: {exponential: 2s}, "
                + "duration: {pareto: {scale: 200ms, shape: 1.2, cap: 5s}}}\n");
        y.append("expect:\n  verdict: SAFE\n");
        return y.toString();
    }
}

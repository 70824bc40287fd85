package io.fencelab.engine.probe;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a probe runs.
 *
 * @param outDir             where the races' runs leave their {@code events.jsonl} (and the CLI its
 *                           {@code probe.json} and {@code probe.html})
 * @param seed               the first seed of the simulated races; each schedule takes the next
 * @param simulatedSchedules how many simulated race runs (0: none)
 * @param liveRun            how long the one live race runs (zero: no live run)
 * @param keep               keep each item's scratch schema after the probe, to look at what it left
 */
public record ProbeOptions(Path outDir, long seed, int simulatedSchedules, Duration liveRun, boolean keep) {

    public ProbeOptions {
        if (simulatedSchedules < 0) {
            throw new IllegalArgumentException("simulated schedules must be 0 or more, was " + simulatedSchedules);
        }
        if (liveRun == null || liveRun.isNegative()) {
            throw new IllegalArgumentException("the live run must last zero or more, was " + liveRun);
        }
    }

    /** Simulated race runs of {@code fencelab probe} unless told otherwise. */
    public static final int DEFAULT_SCHEDULES = 10;
    /** The live race run's length in seconds unless told otherwise. */
    public static final int DEFAULT_LIVE_SECONDS = 5;

    /** The defaults of {@code fencelab probe}: {@value #DEFAULT_SCHEDULES} simulated schedules, a 5 s live run, seed 1. */
    public static ProbeOptions defaults(Path outDir) {
        return new ProbeOptions(outDir, 1, DEFAULT_SCHEDULES, Duration.ofSeconds(DEFAULT_LIVE_SECONDS), false);
    }
}

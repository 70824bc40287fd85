package io.fencelab.engine.chaos.pauses;

/** The kinds of file {@link PauseLog} reads, one source of pauses each. */
public enum PauseFormat {
    /** A JDK unified log's GC pause lines ({@code -Xlog:gc}, or {@code -Xlog:gc+phases} for ZGC). */
    GC_LOG("JDK GC log"),
    /** A JDK unified log's safepoint lines ({@code -Xlog:safepoint}): every stop of the world, GC or not. */
    SAFEPOINT_LOG("JDK safepoint log"),
    /** A JFR recording's {@code jdk.GCPhasePause} events (or {@code jdk.GarbageCollection} when it has none). */
    JFR("JFR recording"),
    /** Durations with units, one a line. */
    DURATIONS("list of durations"),
    /** A CSV file with a {@code duration} column and, optionally, a {@code time} column. */
    CSV("CSV of durations");

    /** The formats every "not a pause file" message lists, so a user learns what would be read. */
    public static final String ACCEPTED = "a JDK unified log of GC pauses (-Xlog:gc: '[12.345s][info][gc] GC(7) "
            + "Pause Young (Normal) (G1 Evacuation Pause) 24M->8M(64M) 12.637ms'; for ZGC -Xlog:gc+phases: "
            + "'GC(3) Pause Mark Start 0.012ms') or of safepoints (-Xlog:safepoint: 'Safepoint \"G1CollectForAllocation\", "
            + "…, Total: 14117537 ns', or before JDK 13 'Total time for which application threads were stopped: "
            + "0.0141175 seconds'), a JFR recording (.jfr), one duration with a unit a line (12.5ms), or a CSV file "
            + "with a duration column and an optional time column (time,duration / 12.345s,12.5ms)";

    private final String label;

    PauseFormat(String label) {
        this.label = label;
    }

    /** {@code JDK GC log}, for messages and descriptions. */
    public String label() {
        return label;
    }
}

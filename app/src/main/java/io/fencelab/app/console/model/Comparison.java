package io.fencelab.app.console.model;

import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * What a comparison varies: the scenario on show runs twice with the same seed, one setting apart,
 * the first run above the second. Both are simulated, so the only difference between them is the
 * setting.
 *
 * @param setting          fencing on against off, or one lease ttl against another
 * @param firstTtlSeconds  the first run's lease ttl (lease ttl comparisons only)
 * @param secondTtlSeconds the second run's lease ttl (lease ttl comparisons only)
 */
public record Comparison(Setting setting, double firstTtlSeconds, double secondTtlSeconds) {

    public enum Setting { FENCING, LEASE_TTL }

    /** Fencing on (first) against fencing off (second): the story's lesson. */
    public static final Comparison FENCING = new Comparison(Setting.FENCING, 0, 0);

    /** The comparisons the console offers. */
    public static final java.util.List<Comparison> PRESETS = java.util.List.of(FENCING, leaseTtl(10, 30),
            leaseTtl(5, 60));

    public Comparison {
        if (setting == Setting.LEASE_TTL && !(firstTtlSeconds > 0 && secondTtlSeconds > 0)) {
            throw new IllegalArgumentException("both lease ttls must be more than 0 s");
        }
    }

    public static Comparison leaseTtl(double firstSeconds, double secondSeconds) {
        return new Comparison(Setting.LEASE_TTL, firstSeconds, secondSeconds);
    }

    /** The first run's spec. */
    public RunSpec first(RunSpec spec) {
        RunSpec s = switch (setting) {
            case FENCING -> spec.withFencing(FencingMode.FENCED);
            case LEASE_TTL -> spec.withLeaseTtl(seconds(firstTtlSeconds));
        };
        return s.withExecutor(ExecutorKind.SIMULATED);
    }

    /** The second run's spec (fencing off: the scenario's own broken mode if it has one, else unfenced). */
    public RunSpec second(RunSpec spec) {
        RunSpec s = switch (setting) {
            case FENCING -> spec.withFencing(spec.fencing() == FencingMode.FENCED ? FencingMode.UNFENCED : spec.fencing());
            case LEASE_TTL -> spec.withLeaseTtl(seconds(secondTtlSeconds));
        };
        return s.withExecutor(ExecutorKind.SIMULATED);
    }

    /** {@code fencing on}, {@code lease ttl 10 s}. */
    public String firstLabel() {
        return setting == Setting.FENCING ? "fencing on" : "lease ttl " + text(firstTtlSeconds) + " s";
    }

    public String secondLabel() {
        return setting == Setting.FENCING ? "fencing off" : "lease ttl " + text(secondTtlSeconds) + " s";
    }

    /** The folder each run's report goes to on export: {@code fencing-on}, {@code ttl-10s}. */
    public String folder(boolean first) {
        if (setting == Setting.FENCING) {
            return first ? "fencing-on" : "fencing-off";
        }
        return "ttl-" + text(first ? firstTtlSeconds : secondTtlSeconds) + "s";
    }

    /** For a menu: {@code fencing on / off}, {@code lease ttl 10 s / 30 s}. */
    @Override
    public String toString() {
        return setting == Setting.FENCING ? "fencing on / off"
                : "lease ttl " + text(firstTtlSeconds) + " s / " + text(secondTtlSeconds) + " s";
    }

    private static String text(double seconds) {
        return BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString();
    }

    private static Duration seconds(double s) {
        return Duration.ofNanos(Math.round(s * 1e9));
    }
}

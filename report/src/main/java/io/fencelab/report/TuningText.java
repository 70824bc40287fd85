package io.fencelab.report;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.metrics.TuningMetrics;
import java.util.List;
import java.util.Locale;

/**
 * The tuning figures of a run as people read them, in one wording for the report's Tuning table and
 * the console's: a label, the value and what it counts ({@code docs/TUNING.md} defines each).
 */
public final class TuningText {

    /**
     * One figure.
     *
     * @param id      a stable short name (for element ids): {@code failover-p50}, {@code unavailability}, …
     * @param label   what it is
     * @param value   the figure, formatted
     * @param meaning what it counts, in a sentence
     */
    public record Row(String id, String label, String value, String meaning) {}

    private static final String NO_FAILOVER = "no failover";

    private TuningText() {
    }

    public static List<Row> rows(TuningMetrics m) {
        return List.of(
                new Row("failover-p50", "failover time p50", failover(m.failoverP50Micros()),
                        "from a lease holder's crash to the next grant on its scope: the median"),
                new Row("failover-p99", "failover time p99", failover(m.failoverP99Micros()),
                        "the 99th percentile of the same (nearest rank)"),
                new Row("failover-max", "failover time max", failover(m.failoverMaxMicros()), "the longest"),
                new Row("failovers", "failovers", Long.toString(m.failovers()),
                        "crashes of a lease holder followed by a new grant on its scope"),
                new Row("unavailability", "unavailability", number(m.unavailability() * 100) + "%",
                        "of run time, a scope's lease was wanted and held by nobody (mean over scopes)"),
                new Row("spurious-losses", "spurious lease losses", number(m.spuriousLossesPerHour()) + " / h",
                        "leases a running holder lost while it still believed it held them"),
                new Row("transitions", "leader transitions", number(m.transitionsPerHour()) + " / h",
                        "grants to a holder other than the scope's previous one"),
                new Row("stale-writes", "stale writes", number(m.staleWritesPerHour()) + " / h",
                        "writes refused by the fence, plus stale writes accepted without it"),
                new Row("wasted-jobs", "wasted jobs", Long.toString(m.wastedJobs()),
                        "jobs abandoned after a stale answer"),
                new Row("lease-load", "lease-service load", number(m.leaseLoadPerSecond()) + " / s",
                        "acquire and renew requests per second"));
    }

    /** Over how much run time the rates are taken: {@code over 60.0s of run time}. */
    public static String span(TuningMetrics m) {
        return "over " + RunTimes.rounded(m.runMicros()) + " of run time";
    }

    private static String failover(Long micros) {
        return micros == null ? NO_FAILOVER : RunTimes.seconds(micros);
    }

    /** Three significant figures or so, never in exponent form: {@code 0}, {@code 0.0417}, {@code 7.2}, {@code 1250}. */
    static String number(double v) {
        if (v == 0 || Double.isNaN(v)) {
            return "0";
        }
        double abs = Math.abs(v);
        String s = abs >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : abs >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : abs >= 1 ? String.format(Locale.ROOT, "%.2f", v)
                : new java.math.BigDecimal(v).round(new java.math.MathContext(3)).toPlainString();
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}

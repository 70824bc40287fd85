package io.fencelab.report;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.metrics.TuningMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
        TuningMetrics.Unavailable by = m.unavailableBy();
        return List.of(
                new Row("failover-p50", "failover time p50", failover(m.failoverP50Micros()),
                        "from a holder ceasing to serve its scope (a crash, a step-down, a lease lost) to the scope's next grant: the median"),
                new Row("failover-p99", p99Label(m), failover(m.failoverP99Micros()),
                        "the 99th percentile of the same (nearest rank): the largest while there are fewer than "
                                + TuningMetrics.P99_NEEDS + " failovers"),
                new Row("failover-max", "failover time max", failover(m.failoverMaxMicros()), "the longest"),
                new Row("failovers", "failovers", Long.toString(m.failovers()),
                        "holders that crashed, stepped down or lost their lease, followed by a new grant on the scope: the n of the times above"),
                new Row("unavailability", "unavailability", percent(m.unavailability()),
                        "of run time, a scope was wanted and not served: no living holder acting on its lease (mean over scopes)"),
                new Row("unavailable-frozen", "… holder frozen", percent(by.frozen()),
                        "its holder held the lease but was paused"),
                new Row("unavailable-awaiting-expiry", "… awaiting expiry", percent(by.awaitingExpiry()),
                        "the lease of a crashed or stepped-down holder had still to expire"),
                new Row("unavailable-acquiring", "… acquiring", percent(by.acquiring()),
                        "nobody held the lease; a candidate was acquiring it"),
                new Row("unavailable-unreachable", "… service unreachable", percent(by.unreachable()),
                        "nobody held the lease and the lease service could not be reached"),
                new Row("lease-losses", "lease losses", number(m.leaseLossesPerHour()) + " / h",
                        "leases a living holder lost while it still believed it held them (pause and renewal losses)"),
                new Row("pause-losses", "… to a pause", number(m.pauseLossesPerHour()) + " / h",
                        "of those, the holder was paused since its last successful renewal"),
                new Row("renewal-losses", "… to renewals", number(m.renewalLossesPerHour()) + " / h",
                        "of those, the rest: renewals late, dropped or refused"),
                new Row("transitions", "leader transitions", number(m.transitionsPerHour()) + " / h",
                        "grants to a holder other than the scope's previous one"),
                new Row("stale-writes", "stale writes", number(m.staleWritesPerHour()) + " / h",
                        "writes refused by the fence, plus stale writes accepted without it"),
                new Row("wasted-jobs", "wasted jobs", Long.toString(m.wastedJobs()),
                        "jobs abandoned after a stale answer"),
                new Row("lease-load", "lease-service load", number(m.leaseLoadPerSecond()) + " / s",
                        "acquire and renew requests per second"));
    }

    /**
     * The headline figures in a few rows, for a terminal ({@code fencelab run}): failovers with their
     * percentiles, unavailability with its causes, lease losses with their split, leader transitions
     * and stale writes; each in the words of {@link #rows}, its parts beside it.
     */
    public static List<Row> summary(TuningMetrics m) {
        Map<String, Row> by = new LinkedHashMap<>();
        rows(m).forEach(r -> by.put(r.id(), r));
        Row failovers = by.get("failovers");
        String p99 = m.p99IsMax() ? ", p99 = max " + by.get("failover-max").value()
                : ", p99 " + by.get("failover-p99").value() + ", max " + by.get("failover-max").value();
        String times = m.failovers() == 0 ? "" : ": p50 " + by.get("failover-p50").value() + p99;
        return List.of(
                withValue(failovers, failovers.value() + times),
                withParts(by, "unavailability", "unavailable-frozen", "unavailable-awaiting-expiry",
                        "unavailable-acquiring", "unavailable-unreachable"),
                withParts(by, "lease-losses", "pause-losses", "renewal-losses"),
                by.get("transitions"),
                by.get("stale-writes"));
    }

    /** The row {@code head} with its parts' labels (less their leading {@code … }) and values in brackets. */
    private static Row withParts(Map<String, Row> by, String head, String... parts) {
        List<String> each = new java.util.ArrayList<>();
        for (String id : parts) {
            Row part = by.get(id);
            each.add(part.label().replaceFirst("^… ", "") + " " + part.value());
        }
        return withValue(by.get(head), by.get(head).value() + " (" + String.join(", ", each) + ")");
    }

    private static Row withValue(Row row, String value) {
        return new Row(row.id(), row.label(), value, row.meaning());
    }

    /**
     * The p99's label, saying it is the maximum when there are too few failovers for it to be anything
     * else. The label, not the value, says so: a value column stays a number and fits a narrow panel.
     */
    private static String p99Label(TuningMetrics m) {
        return m.failoverP99Micros() != null && m.p99IsMax()
                ? "failover time p99 = max of " + m.failovers() : "failover time p99";
    }

    private static String percent(double fraction) {
        return number(fraction * 100) + "%";
    }

    /** Over how much run time the rates are taken: {@code over 60.0s of run time}. */
    public static String span(TuningMetrics m) {
        return "over " + RunTimes.rounded(m.runMicros()) + " of run time";
    }

    /** To the millisecond at most: a failover of 14.374441 s reads {@code 14.374s}, one of 5 s {@code 5.0s}. */
    private static String failover(Long micros) {
        if (micros == null) {
            return NO_FAILOVER;
        }
        long millisRounded = Math.round(micros / 1_000.0) * 1_000;
        return RunTimes.seconds(millisRounded);
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

package io.fencelab.report;

import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.SecondCounts;
import io.fencelab.engine.metrics.TuningCollector;
import io.fencelab.engine.metrics.TuningSecond;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * metrics.csv: one row per second of run time (quiet seconds included), as RFC 4180 has it: a header
 * row, comma-separated fields, CRLF line ends. Every field is a column name, an integer or a plain
 * decimal, so none needs quoting. The first columns count events ({@code MetricsCollector}); the
 * last four are the per-second tuning figures ({@link TuningCollector}, {@code docs/TUNING.md}).
 */
public final class MetricsCsv {

    public static final String HEADER = "second,acquisitions,renewals,renewal_failures,stale_rejections,accepted_writes,"
            + "leader_transitions,lease_losses,lease_requests,unavailable_fraction";
    private static final String CRLF = "\r\n";
    private static final TuningSecond QUIET = new TuningSecond(0, 0, 0, 0, 0);

    private MetricsCsv() {
    }

    /** The metrics.csv of a report's run: its per-second counts beside the tuning figures its result carries. */
    public static void write(Path file, ReportInput input) throws IOException {
        Files.writeString(file, render(input.result().metrics().perSecond(), input.result().tuning().perSecond()),
                StandardCharsets.UTF_8);
    }

    /**
     * One row per entry of {@code perSecond}; {@code tuning} (indexed by second from 0, as
     * {@link TuningCollector#series()} gives it) fills the tuning columns, zero for a second it lacks.
     */
    public static String render(List<SecondCounts> perSecond, List<TuningSecond> tuning) {
        StringBuilder out = new StringBuilder(HEADER.length() + 2 + perSecond.size() * 40);
        out.append(HEADER).append(CRLF);
        for (SecondCounts s : perSecond) {
            EventCounts c = s.counts();
            TuningSecond t = s.second() >= 0 && s.second() < tuning.size() ? tuning.get((int) s.second()) : QUIET;
            out.append(s.second()).append(',').append(c.acquisitions()).append(',').append(c.renewals()).append(',')
                    .append(c.renewalFailures()).append(',').append(c.staleRejections()).append(',')
                    .append(c.acceptedWrites()).append(',').append(t.leaderTransitions()).append(',')
                    .append(t.leaseLosses()).append(',').append(t.leaseRequests()).append(',')
                    .append(fraction(t.unavailableFraction())).append(CRLF);
        }
        return out.toString();
    }

    /** Six decimals at most, no trailing zeros: {@code 0}, {@code 0.5}, {@code 0.333333}, {@code 1}. */
    static String fraction(double v) {
        return BigDecimal.valueOf(v).setScale(6, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}

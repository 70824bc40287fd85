package io.fencelab.engine.tune;

import io.fencelab.engine.metrics.TuningMetrics;
import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A constraint on a tuning metric, {@code failoverP99Seconds<=20} or {@code unavailability<=0.01}
 * ({@code >=} works too). A point meets it when every seed does: for {@code <=} its greatest value
 * over the seeds, for {@code >=} its least. A figure that does not exist in a run (no failover
 * happened) counts as 0.
 *
 * <p>The <b>margin</b> says how far inside the constraint a point is, as a fraction of the
 * constraint's value: {@code (limit - worst) / |limit|} for {@code <=} and
 * {@code (worst - limit) / |limit|} for {@code >=} (divided by 1 instead when the limit is 0). It is
 * negative when the constraint is broken.
 */
public record Requirement(String metric, boolean atMost, double limit) {

    private static final Pattern FORM = Pattern.compile("\\s*([A-Za-z0-9]+)\\s*(<=|>=)\\s*(\\S+)\\s*");

    /**
     * Reads {@code METRIC<=VALUE} or {@code METRIC>=VALUE}.
     *
     * @throws IllegalArgumentException with one line saying what is wrong and what is allowed
     */
    public static Requirement parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("--require '" + text + "': write METRIC<=VALUE or METRIC>=VALUE, "
                    + "for example failoverP99Seconds<=20 (metrics: " + String.join(", ", TuningMetrics.NAMES) + ")");
        }
        // An old name still works, as the figure that counts what it counted (docs/TUNING.md).
        String metric = TuningMetrics.OLD_NAMES.getOrDefault(m.group(1), m.group(1));
        if (!TuningMetrics.NAMES.contains(metric)) {
            throw new IllegalArgumentException("--require '" + text + "': no metric called " + metric
                    + " (metrics: " + String.join(", ", TuningMetrics.NAMES) + ")");
        }
        double limit;
        try {
            limit = Double.parseDouble(m.group(3));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--require '" + text + "': '" + m.group(3)
                    + "' is not a number (seconds for the *Seconds metrics, a fraction 0..1 for unavailability)");
        }
        if (!Double.isFinite(limit)) {
            throw new IllegalArgumentException("--require '" + text + "': the limit must be a finite number");
        }
        return new Requirement(metric, m.group(2).equals("<="), limit);
    }

    /** The point's value this constraint is judged on: its worst seed's for this metric. */
    public double judged(PointSummary p) {
        double v = atMost ? p.max(metric) : p.min(metric);
        return Double.isNaN(v) ? 0 : v;
    }

    public double margin(PointSummary p) {
        double v = judged(p);
        double scale = limit == 0 ? 1 : Math.abs(limit);
        return (atMost ? limit - v : v - limit) / scale;
    }

    public boolean met(PointSummary p) {
        return margin(p) >= 0;
    }

    @Override
    public String toString() {
        // BigDecimal.valueOf goes through the double's shortest decimal form: 0.2, not 0.2000000000000000111…
        return metric + (atMost ? "<=" : ">=") + BigDecimal.valueOf(limit).stripTrailingZeros().toPlainString();
    }
}

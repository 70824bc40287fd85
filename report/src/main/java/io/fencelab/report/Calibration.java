package io.fencelab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A lease model set beside the real service it models: the same scenario run many times on
 * Fencelab's lease table with the service's profile (the model, simulated) and a few times on the
 * real service (each worker its own JVM), with each figure's values from both, and the lease losses
 * at each pause length of the grid. Rendered by {@link CalibrationPage} and {@link CalibrationJson};
 * {@code docs/TUNING.md} (## Calibration) says what each figure means and the rule for "differs".
 *
 * @param scenario      the scenario's name
 * @param service       the real service's key ({@code etcd}, {@code zookeeper}, {@code redis})
 * @param serviceVersion the service and its client, as the real runs named them ({@code Redis 7.0.15 (Redisson 4.0.0)})
 * @param serverSource  where the server came from, in words, never an address with a password
 * @param profile       the model's lease client and its settings, in words
 * @param modelSeeds    the seeds of the model's runs (each at every pause length)
 * @param realSeeds     the seeds of the real runs (each at every pause length)
 * @param pauseAt       where the varied pause is, in words ({@code PAUSE on A at 2s})
 * @param figures       each figure's values from both sides
 * @param pauses        lease losses at each pause length, shortest first
 */
public record Calibration(String scenario, String service, String serviceVersion, String serverSource, String profile,
                          List<Long> modelSeeds, List<Long> realSeeds, String pauseAt, List<Figure> figures,
                          List<PauseRow> pauses) {

    public Calibration {
        modelSeeds = List.copyOf(modelSeeds);
        realSeeds = List.copyOf(realSeeds);
        figures = List.copyOf(figures);
        pauses = List.copyOf(pauses);
    }

    /** The share of its own median by which each side's spread is widened before the sides are compared. */
    public static final double RELATIVE_SLACK = 0.10;

    /**
     * One figure's values on both sides: one value per run (lease losses, load) or per episode (each
     * failover, each noticed loss), over all runs at every pause length.
     *
     * @param name      the stable name ({@code failoverSeconds}), a key of calibration.json
     * @param title     for people ({@code failover time})
     * @param unit      the values' unit ({@code s}, {@code per run}, {@code per s})
     * @param per       what one value is ({@code failover}, {@code run}, {@code lease loss})
     * @param tolerance the least slack in the figure's unit: what the real service's own timing
     *                  granularity makes indistinguishable (0.5 s for times: etcd looks for expired
     *                  leases every 500 ms, ZooKeeper on its 2 s tick's half, plus a JVM's start)
     * @param model     the model's values
     * @param real      the real service's values
     */
    public record Figure(String name, String title, String unit, String per, double tolerance, List<Double> model,
                         List<Double> real) {

        public Figure {
            model = List.copyOf(model);
            real = List.copyOf(real);
        }

        public Spread modelSpread() {
            return Spread.of(model);
        }

        public Spread realSpread() {
            return Spread.of(real);
        }

        /**
         * Why the sides differ, or empty when they agree. The rule: each side's spread is its least to
         * greatest value widened by its slack, the larger of the figure's {@link #tolerance} and
         * {@link #RELATIVE_SLACK} of its median; the sides differ when the real median falls outside the
         * model's spread, or the model's median outside the real spread, or only one side has values.
         */
        public Optional<String> differs() {
            Spread m = modelSpread();
            Spread r = realSpread();
            if (m.empty() && r.empty()) {
                return Optional.empty();
            }
            if (m.empty() || r.empty()) {
                return Optional.of("only the " + (m.empty() ? "real service" : "model") + " has any");
            }
            double ms = slack(m);
            double rs = slack(r);
            if (r.median() < m.min() - ms || r.median() > m.max() + ms) {
                return Optional.of("the real median " + SweepReport.fmt(r.median()) + " is outside the model's "
                        + SweepReport.fmt(m.min() - ms) + " to " + SweepReport.fmt(m.max() + ms));
            }
            if (m.median() < r.min() - rs || m.median() > r.max() + rs) {
                return Optional.of("the model's median " + SweepReport.fmt(m.median()) + " is outside the real "
                        + SweepReport.fmt(r.min() - rs) + " to " + SweepReport.fmt(r.max() + rs));
            }
            return Optional.empty();
        }

        private double slack(Spread s) {
            return Math.max(tolerance, RELATIVE_SLACK * Math.abs(s.median()));
        }
    }

    /**
     * A side's values in brief: how many, least, median, 90th percentile (nearest rank, as every
     * percentile in Fencelab: the smallest value with at least that share at or below it) and greatest.
     */
    public record Spread(int count, double min, double median, double p90, double max) {

        public static Spread of(List<Double> values) {
            List<Double> sorted = new ArrayList<>(values.stream().filter(v -> !Double.isNaN(v)).toList());
            sorted.sort(null);
            if (sorted.isEmpty()) {
                return new Spread(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            return new Spread(sorted.size(), sorted.getFirst(), rank(sorted, 0.5), rank(sorted, 0.9), sorted.getLast());
        }

        private static double rank(List<Double> sorted, double q) {
            int index = (int) Math.ceil(q * sorted.size()) - 1;
            return sorted.get(Math.clamp(index, 0, sorted.size() - 1));
        }

        public boolean empty() {
            return count == 0;
        }

        /** {@code median / p90 (n)}, as the table and the page print it. */
        public String brief() {
            return empty() ? "– (0)" : SweepReport.fmt(median) + " / " + SweepReport.fmt(p90) + " (" + count + ")";
        }
    }

    /**
     * Lease losses at one pause length.
     *
     * @param pauseSeconds the pause's length
     * @param modelRuns    model runs at this length
     * @param modelLost    of those, runs in which a holder lost a lease
     * @param realRuns     real runs at this length
     * @param realLost     of those, runs in which a holder lost a lease
     */
    public record PauseRow(double pauseSeconds, int modelRuns, int modelLost, int realRuns, int realLost) {

        /** Whether the model and the real service agree that this pause never, or at least once, cost a lease. */
        public boolean agrees() {
            return (modelLost > 0) == (realLost > 0);
        }
    }

    /**
     * The survivable-pause edge of one side: the longest pause of the grid that never lost a lease with
     * every shorter one never losing either, and the shortest that did lose one (either absent when the
     * grid has no such pause).
     */
    public record Edge(Optional<Double> survived, Optional<Double> lost) {

        public boolean found() {
            return survived.isPresent() && lost.isPresent();
        }

        public String words() {
            if (lost.isEmpty()) {
                return "every pause survived" + survived.map(s -> " (up to " + SweepReport.fmt(s) + " s)").orElse("");
            }
            return survived.map(s -> "survives " + SweepReport.fmt(s) + " s, ").orElse("loses even the shortest, ")
                    + "loses at " + SweepReport.fmt(lost.get()) + " s";
        }
    }

    /** The model's edge. */
    public Edge modelEdge() {
        return edge(false);
    }

    /** The real service's edge. */
    public Edge realEdge() {
        return edge(true);
    }

    private Edge edge(boolean real) {
        Double survived = null;
        for (PauseRow row : pauses) {
            int lost = real ? row.realLost() : row.modelLost();
            int runs = real ? row.realRuns() : row.modelRuns();
            if (runs == 0) {
                continue;
            }
            if (lost > 0) {
                return new Edge(Optional.ofNullable(survived), Optional.of(row.pauseSeconds()));
            }
            survived = row.pauseSeconds();
        }
        return new Edge(Optional.ofNullable(survived), Optional.empty());
    }

    /** Whether both sides lost a lease at exactly the same pause lengths of the grid. */
    public boolean edgesAgree() {
        return pauses.stream().allMatch(PauseRow::agrees);
    }
}

package io.fencelab.engine.chaos;

import io.fencelab.engine.clock.RunTimes;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The pauses a run's holders are given, as an operator judges a lease setting against them: where
 * each pause length comes from (a GC log's file name, or a distribution in words), how many samples
 * a file had, the median, p99 and longest pause, and how often each holder pauses. Worked out from
 * the run's {@code PAUSE} faults alone, so {@code fencelab validate}, {@code fencelab run}, the
 * report and the sweep page say the same. Holders given the same pauses share one {@link Group}.
 *
 * @param groups one per distinct set of pauses, in the order of the holders' names in the run; empty
 *               when no holder pauses
 */
public record PauseProfile(List<Group> groups) {

    public PauseProfile {
        groups = List.copyOf(groups);
    }

    /**
     * Holders given the same pauses.
     *
     * @param holders  the holders' names, in the run's order
     * @param everyone whether these are all the run's holders (more than a few are then not named one by one)
     * @param pauses   one per {@code PAUSE} fault that hits them, in the spec's order; empty: they never pause
     */
    public record Group(List<String> holders, boolean everyone, List<Pauses> pauses) {
        public Group {
            holders = List.copyOf(holders);
            pauses = List.copyOf(pauses);
        }

        /** {@code replica-1, replica-2: g1.log: 65 samples, median 1.824 ms, …; 64 a minute per holder}. */
        public String describe() {
            String who = holders.size() <= NAMED ? String.join(", ", holders)
                    : everyone ? "all " + holders.size() + " workers"
                    : String.join(", ", holders.subList(0, NAMED)) + " and " + (holders.size() - NAMED) + " more";
            return who + ": " + (pauses.isEmpty() ? NO_PAUSES
                    : String.join("; and ", pauses.stream().map(Pauses::describe).toList()));
        }
    }

    /**
     * One {@code PAUSE} fault as each holder it hits sees it.
     *
     * @param lengths the distribution pause lengths are drawn from
     * @param start   when: once at a time, or again and again
     */
    public record Pauses(Distribution lengths, FaultStart start) {

        /** Where the lengths come from: the file as the scenario named it, or the distribution in words. */
        public String source() {
            return lengths instanceof Distribution.Empirical e ? e.source() : lengths.describe();
        }

        /** How many pauses the file had; 0 for a distribution that is not read from a file. */
        public int samples() {
            return lengths instanceof Distribution.Empirical e ? e.samples().size() : 0;
        }

        public Duration median() {
            return quantile(lengths, 0.5);
        }

        public Duration p99() {
            return quantile(lengths, 0.99);
        }

        /** The longest pause drawn; null when there is no longest (exponential lengths). */
        public Duration max() {
            return switch (lengths) {
                case Distribution.Fixed f -> f.value();
                case Distribution.Uniform u -> u.max();
                case Distribution.Exponential e -> null;
                case Distribution.Pareto p -> p.cap();
                case Distribution.Empirical e -> e.max();
            };
        }

        /**
         * Pauses a holder has per hour on average: a next pause starts a gap after the last one ended
         * ({@link FaultPlan}), so one comes every mean length plus mean gap. NaN for a pause at one time.
         */
        public double perHour() {
            if (!(start instanceof FaultStart.Every every)) {
                return Double.NaN;
            }
            Duration gap = every.gap().mean().isZero() ? FaultPlan.SMALLEST_GAP : every.gap().mean();
            return 3_600e6 / micros(lengths.mean().plus(gap));
        }

        /**
         * {@code g1.log: 65 samples, median 1.824 ms, p99 29.973 ms, max 29.973 ms; 64 a minute per
         * holder}, {@code 1s pauses; 6 a minute per holder}, or {@code a 35s pause at 10s}.
         */
        public String describe() {
            if (lengths instanceof Distribution.Fixed f) {
                String length = Distribution.text(f.value());
                return switch (start) {
                    case FaultStart.At at -> "a " + length + " pause at " + Distribution.text(at.at());
                    case FaultStart.Every every -> length + " pauses; " + rate(perHour()) + " per holder";
                    case FaultStart.OnGrant onGrant -> "a " + length + " pause at its next grant";
                };
            }
            String count = samples() == 0 ? "" : samples() + (samples() == 1 ? " sample, " : " samples, ");
            String figures = source() + ": " + count + "median " + RunTimes.brief(micros(median()))
                    + ", p99 " + RunTimes.brief(micros(p99()))
                    + ", max " + (max() == null ? "unbounded" : RunTimes.brief(micros(max())));
            return switch (start) {
                case FaultStart.At at -> "one pause at " + Distribution.text(at.at()) + ", " + figures;
                case FaultStart.Every every -> figures + "; " + rate(perHour()) + " per holder";
                case FaultStart.OnGrant onGrant -> "one pause at its next grant, " + figures;
            };
        }
    }

    /** What a run without pauses says. */
    public static final String NO_PAUSES = "no pauses";

    /** Names listed in a group's line before the rest are counted. */
    private static final int NAMED = 6;

    /**
     * The pauses {@code faults} give each of {@code holders} in a run of {@code runLength}: a fault
     * aimed at {@code all} hits every holder, one aimed at a name that holder alone (as
     * {@link FaultPlan} does); a pause due at or after the end never happens and is left out.
     */
    public static PauseProfile of(List<FaultSpec> faults, List<String> holders, Duration runLength) {
        Map<List<Pauses>, List<String>> byPauses = new LinkedHashMap<>();
        for (String holder : holders) {
            List<Pauses> mine = new ArrayList<>();
            for (FaultSpec f : faults) {
                boolean hits = FaultSpec.ALL.equals(f.target()) || holder.equals(f.target());
                boolean happens = !(f.start() instanceof FaultStart.At at) || at.at().compareTo(runLength) < 0;
                if (f.kind() == FaultKind.PAUSE && hits && happens) {
                    mine.add(new Pauses(f.duration(), f.start()));
                }
            }
            byPauses.computeIfAbsent(List.copyOf(mine), k -> new ArrayList<>()).add(holder);
        }
        if (byPauses.keySet().stream().allMatch(List::isEmpty)) {
            return new PauseProfile(List.of());
        }
        List<Group> groups = new ArrayList<>();
        byPauses.forEach((pauses, names) -> groups.add(new Group(names, names.size() == holders.size(), pauses)));
        return new PauseProfile(groups);
    }

    /** Whether no holder ever pauses. */
    public boolean none() {
        return groups.isEmpty();
    }

    /** One line per group ({@link Group#describe()}), or {@link #NO_PAUSES}. */
    public List<String> lines() {
        return none() ? List.of(NO_PAUSES) : groups.stream().map(Group::describe).toList();
    }

    /**
     * The duration at quantile {@code q} of what {@code d} draws: by nearest rank for a file's samples
     * (as every percentile in Fencelab), from the distribution's own inverse otherwise.
     */
    static Duration quantile(Distribution d, double q) {
        double micros = switch (d) {
            case Distribution.Fixed f -> micros(f.value());
            case Distribution.Uniform u -> micros(u.min()) + q * (micros(u.max()) - micros(u.min()));
            case Distribution.Exponential e -> -Math.log(1 - q) * micros(e.mean());
            case Distribution.Pareto p -> Math.min(micros(p.cap()), micros(p.scale()) / Math.pow(1 - q, 1 / p.shape()));
            case Distribution.Empirical e -> micros(e.quantile(q));
        };
        return Duration.ofNanos(Math.round(micros) * 1_000);
    }

    /** {@code 64 a minute}, {@code 1.5 an hour}: a minute when at least one a minute, else an hour. */
    static String rate(double perHour) {
        return perHour >= 60 ? figure(perHour / 60) + " a minute" : figure(perHour) + " an hour";
    }

    /** Two significant digits, a whole number from ten up: {@code 64}, {@code 1.5}, {@code 0.25}. */
    private static String figure(double v) {
        if (v >= 10) {
            return String.format(Locale.ROOT, "%d", Math.round(v));
        }
        return new BigDecimal(v).round(new MathContext(2)).stripTrailingZeros().toPlainString();
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }
}

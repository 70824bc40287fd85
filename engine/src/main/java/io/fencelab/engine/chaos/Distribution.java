package io.fencelab.engine.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** A duration drawn from a seeded generator: how long a fault lasts, or the gap between faults. */
public sealed interface Distribution {

    Duration sample(RandomGenerator random);

    /**
     * The mean of the durations drawn, to the microsecond: how often a repeating fault comes, for the
     * scenario compiler's estimate of a run's events and its floor on gaps.
     */
    Duration mean();

    /** Short text for logs and reports: {@code 2s}, {@code 0s..4s}, {@code ~10s exponential}, … */
    default String describe() {
        return switch (this) {
            case Fixed f -> text(f.value());
            case Uniform u -> text(u.min()) + ".." + text(u.max());
            case Exponential e -> "~" + text(e.mean()) + " exponential";
            case Pareto p -> "pareto from " + text(p.scale()) + " (shape " + p.shape() + ", cap " + text(p.cap()) + ")";
            case Empirical e -> "empirical " + e.source() + " (" + e.samples().size() + " samples, median "
                    + text(e.quantile(0.5)) + ", max " + text(e.max()) + ")";
        };
    }

    /** {@code 1.5s}, {@code 200ms}: the shortest exact form. */
    static String text(Duration d) {
        long micros = micros(d);
        if (micros % 1_000 != 0) {
            return micros + "us";
        }
        long millis = micros / 1_000;
        return millis % 1_000 != 0 && millis < 1_000 ? millis + "ms"
                : java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + "s";
    }

    /** Always {@code value}. */
    record Fixed(Duration value) implements Distribution {
        @Override
        public Duration sample(RandomGenerator random) {
            return value;
        }

        @Override
        public Duration mean() {
            return value;
        }
    }

    /** Uniform between {@code min} and {@code max}. */
    record Uniform(Duration min, Duration max) implements Distribution {
        public Uniform {
            if (max.compareTo(min) < 0) {
                throw new IllegalArgumentException("uniform max " + max + " is below min " + min);
            }
        }

        @Override
        public Duration sample(RandomGenerator random) {
            long span = micros(max) - micros(min);
            return ofMicros(micros(min) + (span == 0 ? 0 : random.nextLong(span + 1)));
        }

        @Override
        public Duration mean() {
            return ofMicros((micros(min) + micros(max)) / 2);
        }
    }

    /** Exponential with the given mean: memoryless gaps, a Poisson process of faults. */
    record Exponential(Duration mean) implements Distribution {
        @Override
        public Duration sample(RandomGenerator random) {
            return ofMicros(Math.round(-Math.log(1 - random.nextDouble()) * micros(mean)));
        }
    }

    /**
     * Heavy-tailed Pareto: mostly near {@code scale}, occasionally far longer (GC storms look like
     * this). {@code shape} above 1 has a finite mean; {@code cap} bounds the tail.
     */
    record Pareto(Duration scale, double shape, Duration cap) implements Distribution {
        public Pareto {
            if (shape <= 0) {
                throw new IllegalArgumentException("pareto shape must be positive, was " + shape);
            }
        }

        @Override
        public Duration sample(RandomGenerator random) {
            double u = 1 - random.nextDouble();
            long value = Math.round(micros(scale) / Math.pow(u, 1 / shape));
            return ofMicros(Math.min(value, micros(cap)));
        }

        /** E[min(X, cap)] = scale + ∫ from scale to cap of (scale/x)^shape dx, in closed form. */
        @Override
        public Duration mean() {
            double s = micros(scale);
            double ratio = micros(cap) / s;
            double tail = shape == 1 ? s * Math.log(ratio) : s * (Math.pow(ratio, 1 - shape) - 1) / (1 - shape);
            return ofMicros(Math.round(s + tail));
        }
    }

    /**
     * The durations a real process showed (its GC pauses, read from its log), drawn at random with
     * replacement: every sampled value is one of {@code samples}, each as often as the log had it.
     *
     * @param source  where the samples came from, for descriptions ({@code g1.log}: a name, not a path,
     *                so a run's description does not depend on the machine)
     * @param samples the durations, sorted here, at least one, none negative
     * @param span    the time the source covered (its first time stamp to its last), or null when it
     *                had no times; with it, {@link #meanGap()} gives the source's own pause rate
     */
    record Empirical(String source, List<Duration> samples, Duration span) implements Distribution {
        public Empirical {
            java.util.Objects.requireNonNull(source);
            if (samples.isEmpty()) {
                throw new IllegalArgumentException("an empirical distribution needs at least one sample");
            }
            if (samples.stream().anyMatch(Duration::isNegative)) {
                throw new IllegalArgumentException("an empirical distribution's samples must not be negative");
            }
            samples = samples.stream().sorted().toList();
        }

        @Override
        public Duration sample(RandomGenerator random) {
            return samples.size() == 1 ? samples.getFirst() : samples.get(random.nextInt(samples.size()));
        }

        /** The mean of the samples, to the microsecond. */
        @Override
        public Duration mean() {
            return ofMicros(Math.round((double) totalMicros() / samples.size()));
        }

        private long totalMicros() {
            long sum = 0;
            for (Duration d : samples) {
                sum += micros(d);
            }
            return sum;
        }

        /** The sample at quantile {@code q} (0 to 1; nearest rank): {@code quantile(0.99)} is the p99 pause. */
        public Duration quantile(double q) {
            if (!(q >= 0 && q <= 1)) {
                throw new IllegalArgumentException("a quantile is between 0 and 1, not " + q);
            }
            int rank = (int) Math.ceil(q * samples.size());
            return samples.get(Math.max(0, rank - 1));
        }

        public Duration max() {
            return samples.getLast();
        }

        /**
         * The source's mean time from the end of one pause to the start of the next: its span less the
         * time spent in the samples, shared among them; empty without a span or when the samples fill it.
         * Exponential gaps with this mean repeat the source's pause rate.
         */
        public Optional<Duration> meanGap() {
            if (span == null) {
                return Optional.empty();
            }
            long running = micros(span) - totalMicros();
            long gap = Math.round((double) running / samples.size());
            return gap > 0 ? Optional.of(ofMicros(gap)) : Optional.empty();
        }
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }

    private static Duration ofMicros(long micros) {
        return Duration.ofNanos(micros * 1_000);
    }
}

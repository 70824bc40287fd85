package io.fencelab.engine.chaos;

import java.time.Duration;
import java.util.random.RandomGenerator;

/** A duration drawn from a seeded generator: how long a fault lasts, or the gap between faults. */
public sealed interface Distribution {

    Duration sample(RandomGenerator random);

    /** Short text for logs and reports: {@code 2s}, {@code 0s..4s}, {@code ~10s exponential}, … */
    default String describe() {
        return switch (this) {
            case Fixed f -> text(f.value());
            case Uniform u -> text(u.min()) + ".." + text(u.max());
            case Exponential e -> "~" + text(e.mean()) + " exponential";
            case Pareto p -> "pareto from " + text(p.scale()) + " (shape " + p.shape() + ", cap " + text(p.cap()) + ")";
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
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }

    private static Duration ofMicros(long micros) {
        return Duration.ofNanos(micros * 1_000);
    }
}

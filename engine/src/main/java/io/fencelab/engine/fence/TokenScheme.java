package io.fencelab.engine.fence;

import io.fencelab.engine.lease.Lease;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * Where the number a holder presents to a resource comes from. The lease service always keeps its
 * monotonic counter; a scheme decides what the holder carries. Only {@link #MONOTONIC} orders holders.
 */
public enum TokenScheme {
    /** The lease's counter: strictly increasing per scope. Correct. */
    MONOTONIC {
        @Override
        public long tokenFor(Lease lease, Instant holderClock, RandomGenerator random) {
            return lease.token();
        }
    },
    /**
     * Broken: a random UUID identifies the acquisition but says nothing of its order. Compared as a
     * number (its top 63 bits) it puts an older holder after a newer one about half the time.
     */
    RANDOM_UUID {
        @Override
        public long tokenFor(Lease lease, Instant holderClock, RandomGenerator random) {
            UUID uuid = new UUID(random.nextLong(), random.nextLong());
            return uuid.getMostSignificantBits() >>> 1;
        }
    },
    /**
     * Broken: the holder's own wall clock in microseconds. A holder whose clock runs ahead mints tokens
     * that outrank later holders, so the resource refuses the newer holder and takes the stale one.
     */
    WALL_CLOCK {
        @Override
        public long tokenFor(Lease lease, Instant holderClock, RandomGenerator random) {
            return ChronoUnit.MICROS.between(Instant.EPOCH, holderClock);
        }
    },
    /**
     * Broken: the right counter, carried through a transport that stores numbers as IEEE doubles
     * (JSON in JavaScript, many JSON libraries by default). Above 2^53 neighbouring tokens collapse
     * onto one double, so a newer holder can present the same number as an older one.
     */
    DOUBLE_PRECISION_TRANSPORT {
        @Override
        public long tokenFor(Lease lease, Instant holderClock, RandomGenerator random) {
            return (long) (double) lease.token();
        }
    },
    /**
     * Broken: each holder's session draws tokens from a block of a sequence it cached when it
     * connected (a per-session sequence cache, or a counter that lost its state). Tokens rise within
     * one holder but not across holders, so a later grant can carry a smaller number.
     */
    CACHED_PER_HOLDER {
        @Override
        public long tokenFor(Lease lease, Instant holderClock, RandomGenerator random) {
            // Blocks were handed out when sessions connected, in no relation to later acquisitions:
            // here a holder whose name hashes higher got the lower block.
            long block = 1_000 - Math.floorMod(lease.holder().hashCode(), 1_000);
            return block * 1_000_000_000L + lease.token();
        }
    };

    /**
     * The token a holder presents for {@code lease}.
     *
     * @param holderClock the holder's local clock reading, skew included (used by {@link #WALL_CLOCK})
     * @param random      the run's seeded generator (used by {@link #RANDOM_UUID}), for replayable runs
     */
    public abstract long tokenFor(Lease lease, Instant holderClock, RandomGenerator random);
}

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
    };

    /**
     * The token a holder presents for {@code lease}.
     *
     * @param holderClock the holder's local clock reading, skew included (used by {@link #WALL_CLOCK})
     * @param random      the run's seeded generator (used by {@link #RANDOM_UUID}), for replayable runs
     */
    public abstract long tokenFor(Lease lease, Instant holderClock, RandomGenerator random);
}

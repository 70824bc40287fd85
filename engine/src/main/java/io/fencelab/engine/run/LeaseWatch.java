package io.fencelab.engine.run;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.lease.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lease service's side of a run's leases, kept by the executor rather than the fence: the
 * current lease per scope, so its expiry is reported ({@code LeaseExpired}) when it passes without
 * renewal or release, and Consul's lock-delay after an invalidation.
 */
final class LeaseWatch {

    /**
     * Whether to decide about a lease whose expiry has passed without a renewal heard of, or to look
     * again later: where holders report through a channel with a delay (agents, through the database),
     * a running holder's renewal made before the expiry may still be on its way.
     */
    @FunctionalInterface
    interface ExpiryWait {
        /** When to look again at {@code lease}, due at {@code dueMicros}; negative: decide now. */
        long lookAgainAt(Lease lease, long dueMicros, long nowMicros);

        ExpiryWait NONE = (lease, due, now) -> -1;
    }

    private final RunCore run;
    private volatile ExpiryWait wait = ExpiryWait.NONE;
    /** The service-side view: the current lease per scope, to report its expiry when it passes. */
    private final Map<String, Lease> current = new ConcurrentHashMap<>();
    /** Per scope, the last lease that expired without release (an invalidation): the start of a lock-delay. */
    private final Map<String, Lease> invalidated = new ConcurrentHashMap<>();

    LeaseWatch(RunCore run) {
        this.run = run;
    }

    /** The service granted, renewed ({@code ended} false) or released ({@code ended} true) {@code lease}. */
    void changed(Lease lease, boolean ended) {
        if (ended) {
            current.remove(lease.scope());
        } else {
            Lease previous = current.put(lease.scope(), lease);
            if (previous != null && previous.token() != lease.token()) {
                // A new grant proves the previous lease had expired; in a live run the expiry timer
                // can fire late, after the grant, so report the expiry now rather than never.
                run.sink().publish(seq -> new Event.LeaseExpired(seq, run.nowMicros(), previous.holder(),
                        previous.scope(), previous.token()));
            }
            long expiresAt = run.toRunMicros(lease.expiresAt());
            run.scheduler().at(expiresAt, () -> expiryDue(lease));
        }
    }

    void waitBeforeExpiries(ExpiryWait value) {
        this.wait = value;
    }

    /** The lease's expiry time has passed: reports it if nobody renewed or released it. */
    void expiryDue(Lease lease) {
        if (!lease.equals(current.get(lease.scope()))) {
            return;
        }
        long again = wait.lookAgainAt(lease, run.toRunMicros(lease.expiresAt()), run.nowMicros());
        if (again >= 0) {
            run.scheduler().at(again, () -> expiryDue(lease));
            return;
        }
        if (current.remove(lease.scope(), lease)) {
            invalidated.put(lease.scope(), lease);
            run.sink().publish(seq -> new Event.LeaseExpired(seq, run.nowMicros(), lease.holder(), lease.scope(),
                    lease.token()));
        }
    }

    /**
     * Consul's lock-delay: after a lease expired without release (its holder's session was
     * invalidated), the scope grants nothing until the expiry plus the profile's {@code delay}. A
     * release starts no lock-delay.
     */
    Optional<Lease> lockDelayed(String scope, Duration delay) {
        if (delay.isZero()) {
            return Optional.empty();
        }
        Instant now = run.clockNow();
        Lease held = current.get(scope);
        // An expiry the watch has not reported yet counts the same as one it has.
        Lease gone = held != null && !now.isBefore(held.expiresAt()) ? held : invalidated.get(scope);
        if (gone == null) {
            return Optional.empty();
        }
        Instant until = gone.expiresAt().plus(run.onLeaseClock(delay));
        return now.isBefore(until) ? Optional.of(gone.withExpiry(until)) : Optional.empty();
    }
}

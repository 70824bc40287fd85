package io.fencelab.engine.lease;

import java.time.Instant;

/** What {@link LeaseService#acquire} answered. A closed set: switch over it. */
public sealed interface AcquireResult {

    /**
     * The granted lease, for callers that cannot go on without one.
     *
     * @throws LeaseBusyException      if someone else holds the scope
     * @throws TokenExhaustedException if the scope's counter is at {@link Long#MAX_VALUE}
     */
    default Lease orThrow() {
        return switch (this) {
            case Acquired a -> a.lease();
            case Busy b -> throw new LeaseBusyException(b);
            case Exhausted e -> throw new TokenExhaustedException(e.scope());
        };
    }

    /** The lease was granted with a token one greater than any issued before in the scope. */
    record Acquired(Lease lease) implements AcquireResult {}

    /** Someone else holds an unexpired lease. */
    record Busy(String scope, String holder, long token, Instant expiresAt) implements AcquireResult {}

    /**
     * The scope's counter reached {@link Long#MAX_VALUE}: no further token can be issued, and the
     * counter never wraps. The scope is unusable until an operator retires it.
     */
    record Exhausted(String scope, long lastToken) implements AcquireResult {}
}

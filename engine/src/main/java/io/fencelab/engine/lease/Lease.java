package io.fencelab.engine.lease;

import java.time.Instant;

/**
 * A granted lease: {@code holder} may act on {@code scope} until {@code expiresAt}, presenting
 * {@code token} with every protected mutation.
 */
public record Lease(String scope, String holder, long token, Instant acquiredAt, Instant expiresAt) {

    public Lease withExpiry(Instant newExpiry) {
        return new Lease(scope, holder, token, acquiredAt, newExpiry);
    }
}

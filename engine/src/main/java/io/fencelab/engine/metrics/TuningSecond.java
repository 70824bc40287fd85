package io.fencelab.engine.metrics;

/**
 * The tuning figures of one second of run time ({@code atMicros / 1_000_000 == second}), as
 * {@link TuningCollector} defines them.
 *
 * @param leaderTransitions   grants to a holder other than the scope's previous grantee
 * @param leaseLosses         leases lost by a living holder that still believed it held them (pause
 *                            and renewal losses together)
 * @param leaseRequests       acquire and renew requests (granted, refused, failed)
 * @param unavailableFraction the part of this second (of the run's part of it) during which a
 *                            scope was wanted and not served, averaged over scopes (0..1)
 */
public record TuningSecond(long second, long leaderTransitions, long leaseLosses, long leaseRequests,
                           double unavailableFraction) {}

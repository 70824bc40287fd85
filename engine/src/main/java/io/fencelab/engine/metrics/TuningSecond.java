package io.fencelab.engine.metrics;

/**
 * The tuning figures of one second of run time ({@code atMicros / 1_000_000 == second}), as
 * {@link TuningCollector} defines them.
 *
 * @param leaderTransitions   grants to a holder other than the scope's previous grantee
 * @param spuriousLosses      leases lost by a running holder that still believed it held them
 * @param leaseRequests       acquire and renew requests (granted, refused, failed)
 * @param unavailableFraction the part of this second (of the run's part of it) during which a
 *                            scope's lease was wanted and held by nobody, averaged over scopes (0..1)
 */
public record TuningSecond(long second, long leaderTransitions, long spuriousLosses, long leaseRequests,
                           double unavailableFraction) {}

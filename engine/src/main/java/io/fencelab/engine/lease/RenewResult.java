package io.fencelab.engine.lease;

/** What {@link LeaseService#renew} answered. */
public sealed interface RenewResult {

    /** The lease is still the current one; its expiry moved. */
    record Renewed(Lease lease) implements RenewResult {}

    /** The lease had expired or been superseded: the holder must stop acting on it. */
    record NotHeld(Lease lease) implements RenewResult {}
}

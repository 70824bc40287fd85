/**
 * Leases and their fencing tokens: {@link io.fencelab.engine.lease.LeaseService}, the SQL of
 * acquire, renew and release on a {@code db.Session}, its results, and the lease profiles (what a
 * real client does on top of it). Imports {@code db} and {@code clock}, never a store.
 */
package io.fencelab.engine.lease;

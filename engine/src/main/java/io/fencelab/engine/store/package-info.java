/**
 * The storage ports: what an executor needs of one run's storage ({@link
 * io.fencelab.engine.store.RunStore}, its leases, its targets and its sessions). Interfaces only; the
 * adapters ({@code postgres}, {@code memory}) implement them and {@code run.Backend} chooses one.
 * Imports the types the ports speak in ({@code lease}, {@code fence}, {@code resource},
 * {@code failpoint}) and {@code db.RunContext}, never an adapter.
 */
package io.fencelab.engine.store;

/**
 * The in-memory adapter of the storage ports: {@link io.fencelab.engine.memory.MemoryRunStore}, a model
 * of the lease and fenced-write statements for simulated sweeps, licensed by the backend-equivalence
 * test. Imports the ports and everything below them, never the PostgreSQL adapter.
 */
package io.fencelab.engine.memory;

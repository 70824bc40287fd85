/**
 * PostgreSQL connection infrastructure: the embedded or external server, the pool, the schema check,
 * a run's slice of the database and a worker's {@link io.fencelab.engine.db.Session}. Knows
 * the schema's table names through {@code resource.TargetKind}, and nothing of leases, fences,
 * stores or the checker: it imports only {@code resource}, {@code clock} and {@code files}.
 */
package io.fencelab.engine.db;

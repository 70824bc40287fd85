/**
 * The PostgreSQL adapter of the storage ports: {@link io.fencelab.engine.postgres.PostgresRunStore}
 * (the lease service and fenced targets on a worker's session, with the failpoints around each
 * statement), the final-state loader, and the schema's Flyway migrations ({@code migration}).
 * Imports the ports and everything below them.
 */
package io.fencelab.engine.postgres;

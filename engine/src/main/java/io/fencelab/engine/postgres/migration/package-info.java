/**
 * The Flyway migrations of the schema that are written in Java (the SQL one, {@code V1}, lies beside
 * them as a resource); {@code db.Database} runs them from this location. Imports only {@code resource}.
 */
package io.fencelab.engine.postgres.migration;

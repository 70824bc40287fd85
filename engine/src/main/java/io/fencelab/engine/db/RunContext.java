package io.fencelab.engine.db;

import org.jdbi.v3.core.Jdbi;

/**
 * One run's slice of the database. Every lease, token counter and fenced resource is keyed by
 * {@code runId}, so two runs never see each other's state even on one server.
 */
public record RunContext(Database database, long runId, String label) {
    public Jdbi jdbi() {
        return database.jdbi();
    }
}

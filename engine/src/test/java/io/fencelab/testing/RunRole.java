package io.fencelab.testing;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.db.RestartCommand;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A login role of its own on an embedded server, holding just the rights a run uses on Fencelab's
 * schema, and a {@link Database} connected as it: for tests in which the database breaks under a run
 * (its rights revoked) while the superuser the server belongs to repairs it afterwards. Close it to
 * close that database and drop the role.
 */
public final class RunRole implements AutoCloseable {

    private final Database owner;
    private final String name;
    private final Database database;

    private RunRole(Database owner, String name, Database database) {
        this.owner = owner;
        this.name = name;
        this.database = database;
    }

    /**
     * Creates role {@code name} (lower-case letters and underscores) on {@code owner}'s embedded server,
     * grants it a run's rights and connects as it with a pool of {@code poolSize}.
     */
    public static RunRole create(Database owner, String name, int poolSize) {
        return create(owner, name, poolSize, null);
    }

    /** As {@link #create(Database, String, int)}; a {@code DATABASE_RESTART} fault runs {@code restart} (null: none). */
    public static RunRole create(Database owner, String name, int poolSize, RestartCommand restart) {
        if (!name.matches("[a-z_]+")) {
            throw new IllegalArgumentException("a role name of lower-case letters and underscores, was " + name);
        }
        String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        owner.jdbi().useHandle(h -> {
            // A role left by an earlier test run on the same server goes first.
            h.execute("DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + name + "') THEN "
                    + "EXECUTE 'DROP OWNED BY " + name + "'; EXECUTE 'DROP ROLE " + name + "'; END IF; END $$");
            h.execute("CREATE ROLE " + name + " LOGIN PASSWORD '" + password + "'");
        });
        RunRole role = new RunRole(owner, name, null);
        role.grant();
        String url = "jdbc:postgresql://127.0.0.1:" + owner.embeddedPort() + "/postgres";
        return new RunRole(owner, name, Database.open(DatabaseConfig.external(url, name, password), poolSize,
                restart));
    }

    /** The database as this role sees it. */
    public Database database() {
        return database;
    }

    /** Gives the role what a run uses: read, insert and update on every table, delete on
     * {@code agent_event}, execute on every function. */
    public void grant() {
        owner.jdbi().useHandle(h -> {
            h.execute("GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO " + name);
            h.execute("GRANT DELETE ON agent_event TO " + name); // a process run drains its agents' events
            h.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO " + name);
            h.execute("GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO " + name);
        });
    }

    /** Takes every right on Fencelab's tables away from the role: what an operator's {@code REVOKE} does mid-run. */
    public void revoke() {
        owner.jdbi().useHandle(h -> h.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM " + name));
    }

    @Override
    public void close() {
        if (database != null) {
            database.close();
        }
        owner.jdbi().useHandle(h -> {
            h.execute("DROP OWNED BY " + name);
            h.execute("DROP ROLE " + name);
        });
    }
}

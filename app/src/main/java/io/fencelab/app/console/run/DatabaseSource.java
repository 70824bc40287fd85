package io.fencelab.app.console.run;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;

/** Where the console's database comes from: opened by the console (and closed by it), or lent by a caller. */
public interface DatabaseSource {

    /** Opens (or hands over) the database; called off the FX thread. */
    Database open();

    /** Whether the console closes the database when it closes. */
    boolean owned();

    /** Opens the configured database (embedded by default); the console owns it. */
    static DatabaseSource of(DatabaseConfig config) {
        return new DatabaseSource() {
            @Override
            public Database open() {
                return Database.open(config, 64);
            }

            @Override
            public boolean owned() {
                return true;
            }

            @Override
            public String toString() {
                return config.toString();
            }
        };
    }

    /** A database someone else opened and will close (tests, benchmarks). */
    static DatabaseSource lent(Database db) {
        return new DatabaseSource() {
            @Override
            public Database open() {
                return db;
            }

            @Override
            public boolean owned() {
                return false;
            }
        };
    }
}

package io.fencelab.app.cli;

import io.fencelab.engine.db.DatabaseConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the database is: shared by every subcommand that touches one. */
public final class DatabaseOptions {

    @Option(names = "--jdbc-url", paramLabel = "URL",
            description = "Use this external PostgreSQL instead of the embedded one "
                    + "(default: $${FENCELAB_JDBC_URL}, else embedded).")
    String jdbcUrl;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Data directory of the embedded PostgreSQL "
                    + "(default: $${FENCELAB_DATA_DIR}, else ~/.fencelab/pgdata).")
    Path dataDir;

    /** True when neither the command line nor the environment chose an embedded data directory. */
    public boolean dataDirUnset() {
        String env = System.getenv(DatabaseConfig.ENV_DATA_DIR);
        return dataDir == null && (env == null || env.isBlank());
    }

    /** The environment's configuration, overridden by whatever was given on the command line. */
    public DatabaseConfig resolve() {
        DatabaseConfig env = DatabaseConfig.fromEnvironment(System.getenv());
        DatabaseConfig withUrl = jdbcUrl == null ? env : env.withJdbcUrl(jdbcUrl);
        return dataDir == null ? withUrl
                : new DatabaseConfig(withUrl.jdbcUrl(), withUrl.user(), withUrl.password(), dataDir, withUrl.port());
    }
}

package io.fencelab.engine.db;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the engine's PostgreSQL lives.
 *
 * <p>With no JDBC URL the engine starts an embedded PostgreSQL whose data survives in
 * {@code dataDirectory}; with a URL it connects to that server instead and starts nothing.
 *
 * @param jdbcUrl       external server, for example {@code jdbc:postgresql://db:5432/fencelab};
 *                      empty for embedded. Environment: {@code FENCELAB_JDBC_URL}.
 * @param user          user for the external server (may also be in the URL). Environment:
 *                      {@code FENCELAB_JDBC_USER}.
 * @param password      password for the external server. Environment: {@code FENCELAB_JDBC_PASSWORD}.
 *                      Never logged or shown.
 * @param dataDirectory embedded data directory; default {@code ~/.fencelab/pgdata}. Environment:
 *                      {@code FENCELAB_DATA_DIR}.
 * @param port          embedded port; 0 picks a free one.
 */
public record DatabaseConfig(
        Optional<String> jdbcUrl,
        Optional<String> user,
        Optional<String> password,
        Path dataDirectory,
        int port) {

    public static final String ENV_JDBC_URL = "FENCELAB_JDBC_URL";
    public static final String ENV_JDBC_USER = "FENCELAB_JDBC_USER";
    public static final String ENV_JDBC_PASSWORD = "FENCELAB_JDBC_PASSWORD";
    public static final String ENV_DATA_DIR = "FENCELAB_DATA_DIR";

    public DatabaseConfig {
        jdbcUrl = jdbcUrl.filter(url -> !url.isBlank());
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
    }

    /** Embedded PostgreSQL in the given data directory on a free port. */
    public static DatabaseConfig embedded(Path dataDirectory) {
        return new DatabaseConfig(Optional.empty(), Optional.empty(), Optional.empty(), dataDirectory, 0);
    }

    /** An external server; nothing is started. */
    public static DatabaseConfig external(String jdbcUrl, String user, String password) {
        return new DatabaseConfig(Optional.of(jdbcUrl), Optional.ofNullable(user), Optional.ofNullable(password),
                defaultDataDirectory(), 0);
    }

    /** Reads the {@code FENCELAB_*} variables; anything unset takes its default. */
    public static DatabaseConfig fromEnvironment(Map<String, String> env) {
        Path dataDir = Optional.ofNullable(env.get(ENV_DATA_DIR)).filter(s -> !s.isBlank())
                .map(Path::of).orElseGet(DatabaseConfig::defaultDataDirectory);
        return new DatabaseConfig(
                Optional.ofNullable(env.get(ENV_JDBC_URL)),
                Optional.ofNullable(env.get(ENV_JDBC_USER)),
                Optional.ofNullable(env.get(ENV_JDBC_PASSWORD)),
                dataDir, 0);
    }

    public static Path defaultDataDirectory() {
        return Path.of(System.getProperty("user.home"), ".fencelab", "pgdata");
    }

    public boolean isEmbedded() {
        return jdbcUrl.isEmpty();
    }

    public DatabaseConfig withJdbcUrl(String url) {
        return new DatabaseConfig(Optional.ofNullable(url), user, password, dataDirectory, port);
    }

    public DatabaseConfig withPort(int newPort) {
        return new DatabaseConfig(jdbcUrl, user, password, dataDirectory, newPort);
    }

    /** The URL with its password masked ({@code password=***}, {@code //user:***@}): safe to log. */
    public static String redact(String jdbcUrl) {
        return redactAll(jdbcUrl);
    }

    /**
     * The URL as a person is shown it, in messages and status lines: a {@code password=} parameter
     * left out altogether (a masked one still draws the eye to it), the rest as {@link #redact}.
     */
    public static String shown(String jdbcUrl) {
        return Scrub.urlForPerson(jdbcUrl);
    }

    /**
     * Any text (an error message, a reason) with the passwords of every URL in it masked, in both
     * forms; the one masking rule for URLs ({@link Scrub}), used wherever one may be printed.
     */
    public static String redactAll(String text) {
        return Scrub.forPerson(text);
    }

    /** The password a JDBC URL carries, in either form, if any (to scrub it from messages that quote it differently). */
    public static Optional<String> passwordIn(String jdbcUrl) {
        return Scrub.passwordIn(jdbcUrl);
    }

    @Override
    public String toString() {
        return isEmbedded() ? "embedded PostgreSQL in " + dataDirectory : shown(jdbcUrl.orElseThrow());
    }
}

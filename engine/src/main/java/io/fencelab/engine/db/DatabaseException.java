package io.fencelab.engine.db;

import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * The database could not be reached, started or migrated, or a statement failed. The message is fit
 * for a user and may name where the database is (never its password). What a run records goes
 * through {@link #reason()} and {@link #endCause()} instead, which never name it: they are made here,
 * and only here, and hold no connection string, host and port, user name or password
 * ({@link Scrub#forRecord}).
 */
public class DatabaseException extends RuntimeException {

    private final DatabaseFailure failure;
    private final String reason;
    private final String endCause;

    public DatabaseException(String message, Throwable cause) {
        this(DatabaseFailure.of(cause), message, message, cause);
    }

    public DatabaseException(String message) {
        this(DatabaseFailure.CONNECTION_LOST, message, message, null);
    }

    /**
     * @param failure how a run takes it
     * @param reason  what went wrong, for a run's events (scrubbed here all the same)
     * @param message what went wrong, for a user
     */
    public DatabaseException(DatabaseFailure failure, String reason, String message, Throwable cause) {
        this(failure, reason, reason, message, cause);
    }

    private DatabaseException(DatabaseFailure failure, String reason, String endCause, String message, Throwable cause) {
        super(message, cause);
        this.failure = failure;
        this.reason = Scrub.forRecord(reason);
        this.endCause = Scrub.forRecord(endCause);
    }

    /** Wraps a failed statement; the message names the SQL state, never the statement's values. */
    public static DatabaseException from(java.sql.SQLException e) {
        String state = e.getSQLState();
        ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        // The server's own words without its detail, hint and context, which can quote a row's values.
        String said = server == null || server.getMessage() == null ? Scrub.firstLine(e.getMessage())
                : server.getSeverity() + ": " + server.getMessage();
        String primary = server == null || server.getMessage() == null ? Scrub.firstLine(e.getMessage()) : server.getMessage();
        DatabaseFailure failure = DatabaseFailure.of(state);
        return new DatabaseException(failure, "database error (SQL state " + state + "): " + said,
                failure == DatabaseFailure.PERMISSION_DENIED && state.startsWith("28") ? "the database refused the login"
                        : primary,
                "database error (SQL state " + state + "): " + e.getMessage(), e);
    }

    /** {@code e}, which happened while a {@code DATABASE_RESTART} fault restarted the server, as a failed restart. */
    public static DatabaseException restartFailed(RuntimeException e) {
        if (e instanceof DatabaseException d && d.failure == DatabaseFailure.RESTART_FAILED) {
            return d;
        }
        String what = e instanceof DatabaseException d ? d.reason : Scrub.firstLine(e.getMessage());
        return new DatabaseException(DatabaseFailure.RESTART_FAILED, "the database could not be restarted: " + what,
                "the database could not be restarted: " + e.getMessage(), e);
    }

    /** How a run takes this failure. */
    public DatabaseFailure failure() {
        return failure;
    }

    /** What went wrong, for a run's {@code OperationFailed}: no connection string, host, user or password. */
    public String reason() {
        return reason;
    }

    /**
     * What broke, in a few words, for {@code RunEnded}'s {@code failed: <cause>} (for example
     * {@code permission denied for table lease}): as scrubbed as {@link #reason()}.
     */
    public String endCause() {
        return endCause;
    }
}

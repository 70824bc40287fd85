package io.fencelab.engine.db;

/** The database could not be reached, started or migrated. The message is fit for a user. */
public class DatabaseException extends RuntimeException {
    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }

    public DatabaseException(String message) {
        super(message);
    }

    /** Wraps a failed statement; the message names the SQL state, never the statement's values. */
    public static DatabaseException from(java.sql.SQLException e) {
        return new DatabaseException("database error (SQL state " + e.getSQLState() + "): " + e.getMessage(), e);
    }
}

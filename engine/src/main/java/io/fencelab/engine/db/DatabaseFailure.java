package io.fencelab.engine.db;

import java.sql.SQLException;

/**
 * Why a statement failed, as a run must take it: the one classifier of database errors
 * ({@code docs/RELIABILITY.md}, "When the database breaks"). Two kinds are what a scenario's faults
 * explain, and a run records them as {@code OperationFailed} and goes on (whether the database is
 * gone for longer than the scenario allows is asked separately, by a reachability check). Every other
 * kind makes the experiment meaningless: the run ends at once, {@code failed: <cause>}.
 */
public enum DatabaseFailure {

    /**
     * The connection went away: SQL state class 08, {@code 57P01} (terminated by an administrator: a
     * connection-kill fault), {@code 57P02}, {@code 57P03} (shutting down or starting: a restart in
     * progress), {@code 57P05}, or no SQL state at all (a pool with no connection to give).
     */
    CONNECTION_LOST(false),
    /** The statement lost a race or was cancelled: class 40, {@code 55P03}, {@code 57014}. */
    CONFLICT(false),
    /** {@code 42501} insufficient privilege, or class 28 (the role can no longer log in). */
    PERMISSION_DENIED(true),
    /**
     * Fencelab's schema is not there: {@code 42P01} undefined table, {@code 42883} undefined function,
     * {@code 42703} undefined column, {@code 42704} undefined object, {@code 3F000} no such schema,
     * {@code 3D000} and {@code 57P04} no such database.
     */
    SCHEMA_MISSING(true),
    /** {@code 53100}: no space left where the server keeps its data. */
    DISK_FULL(true),
    /** The rest of class 53: out of memory, too many connections, a configured limit. */
    OUT_OF_RESOURCES(true),
    /** Class 58 (an I/O or system error) and class XX (an internal error, corruption). */
    SERVER_ERROR(true),
    /** A {@code DATABASE_RESTART} fault could not restart the server (its command failed, or it did not come back). */
    RESTART_FAILED(true),
    /** Any other SQL state: the server refuses the statement itself, and will refuse it again. */
    REFUSED(true);

    private final boolean breaksRun;

    DatabaseFailure(boolean breaksRun) {
        this.breaksRun = breaksRun;
    }

    /** Whether the run must end at once as {@code failed}: no fault of the scenario explains this failure. */
    public boolean breaksRun() {
        return breaksRun;
    }

    /** The kind of {@code sqlState} (null: no state, which drivers and pools give for a lost connection). */
    public static DatabaseFailure of(String sqlState) {
        if (sqlState == null || sqlState.length() != 5) {
            return CONNECTION_LOST;
        }
        return switch (sqlState) {
            case "57P01", "57P02", "57P03", "57P05" -> CONNECTION_LOST;
            case "55P03", "57014" -> CONFLICT;
            case "42501" -> PERMISSION_DENIED;
            case "42P01", "42883", "42703", "42704", "3F000", "3D000", "57P04" -> SCHEMA_MISSING;
            case "53100" -> DISK_FULL;
            default -> switch (sqlState.substring(0, 2)) {
                case "08" -> CONNECTION_LOST;
                case "40" -> CONFLICT;
                case "28" -> PERMISSION_DENIED;
                case "53" -> OUT_OF_RESOURCES;
                case "58", "XX" -> SERVER_ERROR;
                default -> REFUSED;
            };
        };
    }

    /**
     * The kind of the first SQL state in {@code failure}'s chain of causes (a pool wraps the driver's
     * exception and keeps its state); {@link #CONNECTION_LOST} when there is none.
     */
    public static DatabaseFailure of(Throwable failure) {
        return of(sqlState(failure));
    }

    /** The first SQL state in the chain of causes, or null. */
    static String sqlState(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null) {
                return s.getSQLState();
            }
        }
        return null;
    }
}

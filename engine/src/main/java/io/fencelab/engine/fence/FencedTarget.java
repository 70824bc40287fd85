package io.fencelab.engine.fence;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.resource.TargetKind;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * One fenced destination (row, object or pointer) of one run, written in one {@link FencingMode}.
 *
 * <p>In {@link FencingMode#FENCED} every write is one call of the target's database function
 * ({@code fenced_write_row} and friends): the conditional update of the design note, and, when it
 * changes nothing, a locked read that says exactly why. Stale and missing are told apart without a
 * check-then-write. Thread-safe (a session itself is not).
 *
 * @param <V> the value type: {@code String} for rows and pointers, {@code byte[]} for objects
 */
public final class FencedTarget<V> {

    private static final Runnable NOTHING = () -> { };

    private final Database database;
    private final long runId;
    private final TargetKind kind;
    private final Class<V> valueType;
    private final FencingMode mode;
    private final FirstWritePolicy firstWrite;
    private final String fencedWriteSql;
    private final String blindWriteSql;
    private final String readSql;
    private volatile Runnable betweenCheckAndWrite = NOTHING;

    private FencedTarget(RunContext run, TargetKind kind, Class<V> valueType, FencingMode mode,
                         FirstWritePolicy firstWrite) {
        this.database = run.database();
        this.runId = run.runId();
        this.kind = kind;
        this.valueType = valueType;
        this.mode = Objects.requireNonNull(mode);
        this.firstWrite = Objects.requireNonNull(firstWrite);
        // Both writes bind the same parameters and answer outcome and replaced token first, so one
        // path sends either; only the fenced one compares, so only it adds the stored token and seq.
        this.fencedWriteSql = fencedWriteStatement(kind);
        // The broken modes' write: no comparison at all.
        this.blindWriteSql = "SELECT outcome, replaced FROM " + kind.blindWriteFunction() + "(?, ?, ?, ?, ?, ?, ?)";
        this.readSql = "SELECT %s, fencing_token, op_seq FROM %s WHERE run_id = ? AND scope = ? AND res_key = ?"
                .formatted(kind.valueColumn(), kind.table());
    }

    /**
     * The fenced write's statement for {@code kind}: run, scope, key, token, seq, create-if-missing,
     * value. Public so benchmarks can run the very same statement as a baseline.
     */
    public static String fencedWriteStatement(TargetKind kind) {
        return "SELECT outcome, replaced, highest, highest_seq FROM " + kind.writeFunction() + "(?, ?, ?, ?, ?, ?, ?)";
    }

    public static FencedTarget<String> row(RunContext run, FencingMode mode, FirstWritePolicy firstWrite) {
        return new FencedTarget<>(run, TargetKind.ROW, String.class, mode, firstWrite);
    }

    public static FencedTarget<byte[]> object(RunContext run, FencingMode mode, FirstWritePolicy firstWrite) {
        return new FencedTarget<>(run, TargetKind.OBJECT, byte[].class, mode, firstWrite);
    }

    public static FencedTarget<String> pointer(RunContext run, FencingMode mode, FirstWritePolicy firstWrite) {
        return new FencedTarget<>(run, TargetKind.POINTER, String.class, mode, firstWrite);
    }

    public TargetKind kind() {
        return kind;
    }

    public FencingMode mode() {
        return mode;
    }

    public FirstWritePolicy firstWritePolicy() {
        return firstWrite;
    }

    /**
     * Runs between the check and the write in {@link FencingMode#CHECK_THEN_WRITE}: the window in
     * which a real race happens. Tests and live scenarios widen it to make the race likely.
     */
    public void setBetweenCheckAndWrite(Runnable hook) {
        this.betweenCheckAndWrite = Objects.requireNonNull(hook);
    }

    /** Writes {@code value} under {@code token} with no operation sequence number, on a pooled connection. */
    public WriteOutcome write(String scope, String key, long token, V value) {
        return write(scope, key, token, null, value);
    }

    /** Writes {@code value} under {@code token}; {@code seq} (nullable) orders writes within one token. */
    public WriteOutcome write(String scope, String key, long token, Long seq, V value) {
        try (Session session = database.openSession()) {
            return write(session, scope, key, token, seq, value);
        }
    }

    /** Writes on the worker's own session (autocommit: each write is its own transaction). */
    public WriteOutcome write(Session session, String scope, String key, long token, Long seq, V value) {
        return write(session, scope, key, token, seq, value, NOTHING);
    }

    /**
     * As {@link #write(Session, String, String, long, Long, Object)}; in {@link FencingMode#CHECK_THEN_WRITE}
     * {@code atGap} runs once the check has passed, before the write and before
     * {@link #setBetweenCheckAndWrite this target's own hook} (a store reaches its failpoint there).
     */
    public WriteOutcome write(Session session, String scope, String key, long token, Long seq, V value,
                              Runnable atGap) {
        try {
            return switch (mode) {
                case FENCED -> send(session, fencedWriteSql, scope, key, token, seq, value);
                case UNFENCED -> send(session, blindWriteSql, scope, key, token, seq, value);
                // Two statements on purpose, each its own transaction, as naive application code does.
                case CHECK_THEN_WRITE -> checkThenWrite(session, scope, key, token, seq, value, atGap);
            };
        } catch (SQLException e) {
            throw DatabaseException.from(e);
        }
    }

    /**
     * Writes inside the caller's JDBI transaction: if the caller rolls back, the resource and its
     * highest token are unchanged. Not available for {@link FencingMode#CHECK_THEN_WRITE}, whose
     * point is two separate transactions.
     */
    public WriteOutcome write(Handle handle, String scope, String key, long token, Long seq, V value) {
        if (mode == FencingMode.CHECK_THEN_WRITE) {
            throw new IllegalStateException("CHECK_THEN_WRITE uses two transactions; call write without a handle");
        }
        try (Session borrowed = Session.borrowing(handle.getConnection())) {
            return write(borrowed, scope, key, token, seq, value);
        }
    }

    /** The stored value and its token, or empty if the resource does not exist. */
    public Optional<StoredValue<V>> read(String scope, String key) {
        try (Session session = database.openSession()) {
            return read(session, scope, key);
        }
    }

    /** As {@link #read(String, String)} on the worker's own session. */
    public Optional<StoredValue<V>> read(Session session, String scope, String key) {
        try {
            PreparedStatement ps = session.prepared(readSql);
            ps.setLong(1, runId);
            ps.setString(2, scope);
            ps.setString(3, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new StoredValue<>(rs.getObject(1, valueType), rs.getLong(2), (Long) rs.getObject(3)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw DatabaseException.from(e);
        }
    }

    /** One write statement, fenced or blind ({@code sql}): both answer in the same first columns. */
    private WriteOutcome send(Session s, String sql, String scope, String key, long token, Long seq, V value)
            throws SQLException {
        PreparedStatement ps = s.prepared(sql);
        ps.setLong(1, runId);
        ps.setString(2, scope);
        ps.setString(3, key);
        ps.setLong(4, token);
        if (seq == null) {
            ps.setNull(5, Types.BIGINT);
        } else {
            ps.setLong(5, seq);
        }
        ps.setBoolean(6, firstWrite == FirstWritePolicy.CREATE);
        ps.setObject(7, value);
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            String outcome = rs.getString(1);
            return switch (outcome) {
                case "ACCEPTED" -> new WriteOutcome.Accepted(token, (Long) rs.getObject(2));
                case "MISSING" -> new WriteOutcome.Missing(key);
                // Only the fenced write compares, so only it answers these (with columns 3 and 4).
                case "STALE" -> new WriteOutcome.Stale(token, rs.getLong(3));
                case "OUT_OF_ORDER" -> new WriteOutcome.OutOfOrder(token, seq, rs.getLong(4));
                default -> throw new IllegalStateException("unknown outcome " + outcome + " from " + sql);
            };
        }
    }

    private WriteOutcome checkThenWrite(Session s, String scope, String key, long token, Long seq, V value,
                                        Runnable atGap) throws SQLException {
        Optional<StoredValue<V>> current = read(s, scope, key);
        if (current.isEmpty() && firstWrite == FirstWritePolicy.MISSING) {
            return new WriteOutcome.Missing(key);
        }
        if (current.isPresent()) {
            StoredValue<V> seen = current.get();
            if (seen.token() > token) {
                return new WriteOutcome.Stale(token, seen.token());
            }
            if (seen.token() == token && seq != null && seen.seq() != null && seen.seq() >= seq) {
                return new WriteOutcome.OutOfOrder(token, seq, seen.seq());
            }
        }
        atGap.run();
        betweenCheckAndWrite.run();
        return send(s, blindWriteSql, scope, key, token, seq, value);
    }
}

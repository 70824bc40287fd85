package io.fencelab.engine.fence;

import io.fencelab.engine.check.ValueDigest;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.fence.OutcomeRule.Condition;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A user's fence in its run's scratch schema: sends the user's write with the run's parameters, reads
 * its answer by the {@link OutcomeRule}, and reads the row back in the same transaction. Every
 * statement runs in a transaction whose {@code search_path} is the scratch schema alone
 * ({@code SET LOCAL}), so the session's own statements (leases) are untouched. Parameters go as text
 * of unspecified type: PostgreSQL gives each the type the statement implies, so a {@code text} or
 * {@code float8} token column behaves as it would in production. Thread-safe (a session itself is not).
 */
public final class SqlTarget {

    private static final Set<Integer> NUMBER_TYPES = Set.of(Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT,
            Types.NUMERIC, Types.DECIMAL, Types.DOUBLE, Types.FLOAT, Types.REAL);

    /**
     * Fencelab's own table in the scratch schema: the order in which accepted writes took their row,
     * so an accepted write can say which token it replaced, as the built-in targets' functions do.
     * A live run's holders can record two writes in the other order from the database's; the
     * replaced token is the database's word on it (see {@code Event.WriteAccepted}).
     */
    static final String WRITE_ORDER_TABLE = "CREATE TABLE %s.fencelab_write_order (fence text NOT NULL, scope text NOT NULL,"
            + " res_key text NOT NULL, ord bigserial, token bigint NOT NULL, PRIMARY KEY (fence, scope, res_key, ord))";

    private final SqlFence fence;
    private final String searchPath;
    /** Records an accepted write's place and answers the token of the accepted write before it (none: no row). */
    private final String orderSql;
    /**
     * Put before each statement's text. The driver and the session cache a statement by its text; with
     * the schema in it, each scratch schema (the probe makes one per item) has statements of its own,
     * never one prepared against another schema's tables, whose columns may differ in type.
     */
    private final String tag;
    private final Database database;
    private final List<NamedSql> writes;
    private final NamedSql read;
    private final Set<Written> written = ConcurrentHashMap.newKeySet();
    private final String schema;
    /**
     * Whether a write that was accepted, and one that was not, have been seen to keep to the scratch
     * schema: until then each write is checked before it commits (the user's statement could name
     * another schema explicitly; search_path only keeps unqualified names inside).
     */
    private final AtomicBoolean acceptedKeptInside = new AtomicBoolean();
    private final AtomicBoolean refusedKeptInside = new AtomicBoolean();
    private final AtomicBoolean checkKeptInside = new AtomicBoolean();

    private record Written(String scope, String key) {}

    /** The values a statement may bind, by {@link SqlFence#PARAMETERS} name. */
    private record Values(String token, String key, String scope, String body, String seq) {
        String get(String name) {
            return switch (name) {
                case "token" -> token;
                case "key" -> key;
                case "scope" -> scope;
                case "body" -> body;
                case "seq" -> seq;
                default -> throw new IllegalArgumentException("not a parameter: " + name);
            };
        }
    }

    /** What the last statement answered: its count (rows affected or returned) and its first value. */
    private record Answer(long count, String first) {}

    SqlTarget(SqlFence fence, String schema, String quotedSchema, Database database, List<NamedSql> writes,
              NamedSql read) {
        this.fence = fence;
        this.searchPath = "SET LOCAL search_path TO " + quotedSchema;
        this.tag = "/* " + schema + " */ ";
        this.schema = schema;
        this.database = database;
        this.writes = List.copyOf(writes);
        this.read = read;
        this.orderSql = tag + "WITH mine AS (INSERT INTO " + quotedSchema + ".fencelab_write_order (fence, scope, res_key, token)"
                + " VALUES (?, ?, ?, ?) RETURNING ord) SELECT o.token FROM " + quotedSchema + ".fencelab_write_order o, mine"
                + " WHERE o.fence = ? AND o.scope = ? AND o.res_key = ? AND o.ord < mine.ord ORDER BY o.ord DESC LIMIT 1";
    }

    /** The fence as declared. */
    public SqlFence fence() {
        return fence;
    }

    /**
     * Writes {@code body} under {@code token} to {@code key} in {@code scope} on {@code session}
     * (autocommit on entry and on return). The statements run with {@code search_path} set to the
     * scratch schema only. {@code atGap} runs between the statements of a several-statement write
     * (check-then-write), where a real race happens; an earlier statement that returns no row, a count
     * of 0 or a first value of {@code false} stops the write as refused.
     *
     * @throws DatabaseException when a statement fails with an error the outcome rule does not name
     */
    public SqlWriteResult write(Session session, String scope, String key, long token, Long seq, String body,
                                Runnable atGap) {
        return write(session, scope, key, token, seq, body, atGap, true);
    }

    /**
     * As {@link #write} with no gap, but the last statement's transaction is rolled back after the
     * row is read back in it (the checklist's rollback item): what the statement said, and the row as
     * the write's own transaction saw it. Earlier statements of a several-statement write commit as usual.
     */
    public SqlWriteResult writeRolledBack(Session session, String scope, String key, long token, Long seq,
                                          String body) {
        return write(session, scope, key, token, seq, body, () -> { }, false);
    }

    private SqlWriteResult write(Session session, String scope, String key, long token, Long seq, String body,
                                 Runnable atGap, boolean commit) {
        written.add(new Written(scope, key));
        Values values = new Values(Long.toString(token), key, scope, body, seq == null ? null : seq.toString());
        Connection c = session.connection();
        try {
            c.setAutoCommit(false);
            for (NamedSql earlier : writes.subList(0, writes.size() - 1)) {
                session.prepared(searchPath).execute();
                Map<String, Long> before = checkKeptInside.get() ? null : SqlChecks.changesOutside(c, schema);
                Answer answer;
                try {
                    answer = execute(session, earlier, values);
                } catch (SQLException e) {
                    Said said = saidByState(e); // a check may raise for a stale token as well
                    if (said == null) {
                        throw e;
                    }
                    c.rollback();
                    return judge(said, readInOwnTransaction(session, scope, key), token, key, body);
                }
                keptInside(c, before, checkKeptInside);
                c.commit();
                if (answer.count() == 0 || "f".equals(answer.first()) || "false".equals(answer.first())) {
                    // The check found the write may not go on: refused, and the row tells which way.
                    return judge(Said.REFUSED, readInOwnTransaction(session, scope, key), token, key, body);
                }
                atGap.run();
            }
            session.prepared(searchPath).execute();
            Map<String, Long> before = acceptedKeptInside.get() && refusedKeptInside.get() ? null
                    : SqlChecks.changesOutside(c, schema);
            Said said;
            try {
                said = said(execute(session, writes.get(writes.size() - 1), values));
            } catch (SQLException e) {
                said = saidByState(e);
                if (said == null) {
                    throw e;
                }
                c.rollback();
                return judge(said, readInOwnTransaction(session, scope, key), token, key, body);
            }
            ReadBack row = readRow(session, values);
            keptInside(c, before, said == Said.ACCEPTED ? acceptedKeptInside : refusedKeptInside);
            SqlWriteResult result = judge(said, row, token, key, body);
            if (commit && result.contradiction() == null && result.outcome() instanceof WriteOutcome.Accepted) {
                result = withReplaced(result, replaced(session, scope, key, token));
            }
            if (commit) {
                c.commit();
            } else {
                c.rollback();
            }
            return result;
        } catch (SQLException e) {
            rollbackQuietly(c);
            throw DatabaseException.from(e);
        } finally {
            autocommit(c);
        }
    }

    /**
     * Records this accepted write's place while its statement still holds the row's lock, and returns
     * the token of the accepted write before it. A concurrent write to the same row waits for that lock,
     * so it takes its place after this one and, reading with a fresh snapshot, sees it.
     */
    private Long replaced(Session session, String scope, String key, long token) throws SQLException {
        PreparedStatement ps = session.prepared(orderSql);
        ps.setString(1, fence.name());
        ps.setString(2, scope);
        ps.setString(3, key);
        ps.setLong(4, token);
        ps.setString(5, fence.name());
        ps.setString(6, scope);
        ps.setString(7, key);
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : null;
        }
    }

    private static SqlWriteResult withReplaced(SqlWriteResult result, Long replaced) {
        WriteOutcome.Accepted accepted = (WriteOutcome.Accepted) result.outcome();
        return new SqlWriteResult(result.said(), new WriteOutcome.Accepted(accepted.token(), replaced), result.readBack(),
                result.contradiction());
    }

    /** Refuses (rolls back, ends the run) a write that changed something outside the scratch schema. */
    private void keptInside(Connection c, Map<String, Long> before, AtomicBoolean seen) throws SQLException {
        if (before == null || seen.get()) {
            return;
        }
        List<String> outside = SqlChecks.changedSince(c, schema, before);
        if (!outside.isEmpty()) {
            rollbackQuietly(c);
            String what = "the write of target " + fence.name() + " changed " + String.join(", ", outside)
                    + ", outside the scratch schema " + schema + "; it was rolled back: Fencelab writes nowhere else";
            throw new DatabaseException(io.fencelab.engine.db.DatabaseFailure.REFUSED, what, what, null);
        }
        seen.set(true);
    }

    /** The row of {@code key} in {@code scope} as the read statement finds it now. */
    public ReadBack read(Session session, String scope, String key) {
        Connection c = session.connection();
        try {
            c.setAutoCommit(false);
            return readInOwnTransaction(session, scope, key);
        } catch (SQLException e) {
            rollbackQuietly(c);
            throw DatabaseException.from(e);
        } finally {
            autocommit(c);
        }
    }

    /**
     * Every (scope, key) this target was asked to write, read back, as the final-state check reads
     * resources: target {@code SQL}, key {@code <fence name>:<key>}, token parsed exactly (a token that
     * is not an exact integer is reported as the nearest, and the check finds the difference). A key
     * whose row does not exist is left out, as a built-in target has no row for it.
     */
    public List<ResourceState> finalState() {
        List<Written> keys = new ArrayList<>(written);
        keys.sort(Comparator.comparing(Written::scope).thenComparing(Written::key));
        List<ResourceState> states = new ArrayList<>();
        try (Session session = database.openSession()) {
            for (Written w : keys) {
                ReadBack row = read(session, w.scope(), w.key());
                if (row.exists()) {
                    states.add(new ResourceState(TargetKind.SQL, w.scope(), SqlKey.of(fence.name(), w.key()),
                            row.tokenAsLong(), ValueDigest.of(row.body() == null ? "" : row.body())));
                }
            }
        }
        return List.copyOf(states);
    }

    /** In a transaction of its own (the connection not in autocommit), committed. */
    private ReadBack readInOwnTransaction(Session session, String scope, String key) throws SQLException {
        session.prepared(searchPath).execute();
        ReadBack row = readRow(session, new Values(null, key, scope, null, null));
        session.connection().commit();
        return row;
    }

    private ReadBack readRow(Session session, Values values) throws SQLException {
        PreparedStatement ps = session.prepared(tag + read.jdbc());
        bind(ps, read, values);
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return ReadBack.ABSENT;
            }
            String token = rs.getString("token");
            int type = rs.getMetaData().getColumnType(rs.findColumn("token"));
            if (token != null && NUMBER_TYPES.contains(type)) {
                try {
                    // float8 prints 2^53 as 9.007199254740992e+15: show the integer it stores
                    token = new BigDecimal(token).toPlainString();
                } catch (NumberFormatException notFinite) {
                    // NaN or Infinity: shown as the column holds it
                }
            }
            return new ReadBack(token, rs.getString("body"));
        }
    }

    private Answer execute(Session session, NamedSql sql, Values values) throws SQLException {
        PreparedStatement ps = session.prepared(tag + sql.jdbc());
        bind(ps, sql, values);
        if (!ps.execute()) {
            return new Answer(ps.getUpdateCount(), null);
        }
        try (ResultSet rs = ps.getResultSet()) {
            long count = 0;
            String first = null;
            while (rs.next()) {
                if (count == 0) {
                    first = rs.getString(1);
                }
                count++;
            }
            return new Answer(count, first);
        }
    }

    /** Each {@code ?} as text of unspecified type, so PostgreSQL infers the type from the statement. */
    private static void bind(PreparedStatement ps, NamedSql sql, Values values) throws SQLException {
        List<String> names = sql.names();
        for (int i = 0; i < names.size(); i++) {
            String value = values.get(names.get(i));
            if (value == null) {
                ps.setNull(i + 1, Types.OTHER);
            } else {
                ps.setObject(i + 1, value, Types.OTHER);
            }
        }
    }

    private Said said(Answer answer) {
        OutcomeRule rule = fence.outcome();
        if (holds(rule.accepted(), answer)) {
            return Said.ACCEPTED;
        }
        if (holds(rule.stale(), answer)) {
            return Said.STALE;
        }
        return holds(rule.missing(), answer) ? Said.MISSING : Said.REFUSED;
    }

    private static boolean holds(Condition condition, Answer answer) {
        return switch (condition) {
            case null -> false;
            case Condition.Rows rows -> rows.holds(answer.count());
            case Condition.Result result -> result.value().equals(answer.first());
            case Condition.SqlState ignored -> false;
        };
    }

    /** What the rule reads into a failed statement's SQLSTATE, or null when it names no such state. */
    private Said saidByState(SQLException e) {
        OutcomeRule rule = fence.outcome();
        Condition[] conditions = {rule.accepted(), rule.stale(), rule.missing()};
        Said[] saids = {Said.ACCEPTED, Said.STALE, Said.MISSING};
        for (int i = 0; i < conditions.length; i++) {
            if (conditions[i] instanceof Condition.SqlState state && state.code().equals(e.getSQLState())) {
                return saids[i];
            }
        }
        return null;
    }

    /** The recorded outcome and, when the statement's answer and the row disagree, the contradiction. */
    private SqlWriteResult judge(Said said, ReadBack row, long token, String key, String body) {
        boolean ours = row.exists() && body != null && body.equals(row.body());
        String held = row.exists() ? "token " + row.token() : "no row";
        String contradiction = switch (said) {
            case ACCEPTED -> !row.exists() ? "it said accepted, but no row for key " + key + " exists after the write"
                    : !ours ? "it said accepted, but the row holds another write (" + held + ")"
                    : !row.holdsToken(token) ? "it said accepted and the row holds this write, but under "
                    + held + ", not " + token
                    : null;
            case MISSING -> ours || row.exists() ? "it said missing, but the row for key " + key + " exists ("
                    + held + (ours ? ", holding this write)" : ")") : null;
            case STALE, REFUSED -> ours ? "it said " + said.name().toLowerCase(java.util.Locale.ROOT)
                    + ", but the row holds this write (" + held + ")" : null;
        };
        WriteOutcome outcome = switch (said) {
            case ACCEPTED -> new WriteOutcome.Accepted(token, null);
            case STALE -> new WriteOutcome.Stale(token, row.exists() ? row.tokenAsLong() : token);
            case MISSING -> new WriteOutcome.Missing(SqlKey.of(fence.name(), key));
            case REFUSED -> row.exists() ? new WriteOutcome.Stale(token, row.tokenAsLong())
                    : new WriteOutcome.Missing(SqlKey.of(fence.name(), key));
        };
        return new SqlWriteResult(said, outcome, row, contradiction);
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is gone; the server rolls the transaction back itself
        }
    }

    /** Back to autocommit, as the session's other statements expect; a dead connection is left as it is. */
    private static void autocommit(Connection c) {
        try {
            c.setAutoCommit(true);
        } catch (SQLException ignored) {
            // the connection is gone: the worker finds out on its next statement
        }
    }

    @Override
    public String toString() {
        return "SQL target " + fence.name() + " " + Arrays.toString(writes.stream().map(w -> w.source().where()).toArray());
    }
}

package io.fencelab.engine.lease;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.db.Session;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Leases with monotonic per-scope fencing tokens, for one run.
 *
 * <p>Each operation is one atomic SQL statement. Expiry is judged at the run clock's
 * {@link RunClock#expiryJudgedAt()} instant (simulated runs) or by the database clock (live runs).
 * Every operation comes in two forms: on a worker's own {@link Session}, or on a connection
 * borrowed from the pool for that call. Thread-safe (a session itself is not).
 */
public final class LeaseService {

    /**
     * Parameters, bound once each and named for the statements below: run, scope, holder, ttl in
     * microseconds, and the judging instant (the run's virtual time, or NULL for the database clock).
     */
    private static final String PARAMS = """
            p AS (SELECT CAST(? AS bigint) AS run, CAST(? AS text) AS scope, CAST(? AS text) AS holder,
                         CAST(? AS bigint) * interval '1 microsecond' AS ttl,
                         COALESCE(CAST(? AS timestamptz), statement_timestamp()) AS now)
            """;

    /**
     * Acquisition, one statement. The upsert grants the lease (and increments the counter) only if it
     * is free or expired and the counter is below {@link Long#MAX_VALUE}; otherwise the second branch
     * reports who holds it. Public so benchmarks can run the very same statement as a baseline.
     */
    public static final String ACQUIRE = """
            WITH %s,
            acquired AS (
                INSERT INTO lease AS l (run_id, scope, token, holder, acquired_at, expires_at)
                SELECT p.run, p.scope, 1, p.holder, p.now, p.now + p.ttl FROM p
                ON CONFLICT (run_id, scope) DO UPDATE
                   SET token = l.token + 1, holder = EXCLUDED.holder,
                       acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
                 WHERE (l.holder IS NULL OR l.expires_at <= EXCLUDED.acquired_at)
                   AND l.token < 9223372036854775807
                RETURNING l.token, l.holder, l.acquired_at, l.expires_at
            )
            SELECT true AS granted, a.token, a.holder, a.acquired_at, a.expires_at, p.now AS judged_at
              FROM acquired a, p
            UNION ALL
            SELECT false, l.token, l.holder, l.acquired_at, l.expires_at, p.now
              FROM lease l, p
             WHERE l.run_id = p.run AND l.scope = p.scope AND NOT EXISTS (SELECT 1 FROM acquired)
            """.formatted(PARAMS);

    /** Renewal: moves the expiry only while this holder's lease, with this token, is unexpired. */
    static final String RENEW = """
            WITH %s
            UPDATE lease l SET expires_at = p.now + p.ttl
              FROM p
             WHERE l.run_id = p.run AND l.scope = p.scope AND l.holder = p.holder AND l.token = ?
               AND l.expires_at > p.now
            RETURNING l.expires_at
            """.formatted(PARAMS);

    /** Release: frees the scope under the same conditions as renewal. The counter stays. */
    static final String RELEASE = """
            WITH %s
            UPDATE lease l SET holder = NULL, acquired_at = NULL, expires_at = NULL
              FROM p
             WHERE l.run_id = p.run AND l.scope = p.scope AND l.holder = p.holder AND l.token = ?
               AND l.expires_at > p.now
            """.formatted(PARAMS);

    /** Moves a scope's counter forward (never back) so its next token is the chosen one. */
    static final String START_SCOPE = """
            INSERT INTO lease AS l (run_id, scope, token) VALUES (?, ?, ?)
            ON CONFLICT (run_id, scope) DO UPDATE SET token = EXCLUDED.token WHERE l.token < EXCLUDED.token
            """;

    static final String CURRENT = """
            SELECT token, holder, acquired_at, expires_at FROM lease WHERE run_id = ? AND scope = ?
            """;

    /** A concurrent first acquisition can hide the winner's row from our snapshot; asking again sees it. */
    private static final int MAX_ATTEMPTS = 8;

    private final Database database;
    private final long runId;
    private final RunClock clock;

    public LeaseService(RunContext run, RunClock clock) {
        this.database = run.database();
        this.runId = run.runId();
        this.clock = clock;
    }

    public RunClock clock() {
        return clock;
    }

    /**
     * Starts a scope's counter so that its next acquisition gets {@code firstToken} (the story's 41).
     * A counter only moves forward: returns false, changing nothing, if the scope already issued
     * {@code firstToken - 1} or more.
     */
    public boolean startScope(String scope, long firstToken) {
        if (firstToken < 1) {
            throw new IllegalArgumentException("a scope's first token must be at least 1, was " + firstToken);
        }
        return pooled(s -> {
            PreparedStatement ps = s.prepared(START_SCOPE);
            ps.setLong(1, runId);
            ps.setString(2, scope);
            ps.setLong(3, firstToken - 1);
            return ps.executeUpdate() == 1;
        });
    }

    /** Grants {@code scope} to {@code holder} for {@code ttl} if nobody holds it, with a new token. */
    public AcquireResult acquire(String scope, String holder, Duration ttl) {
        return pooled(s -> acquire(s, scope, holder, ttl));
    }

    /** As {@link #acquire(String, String, Duration)} on the worker's own session. */
    public AcquireResult acquire(Session session, String scope, String holder, Duration ttl) {
        long ttlMicros = ttlMicros(ttl);
        return call(() -> {
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                PreparedStatement ps = session.prepared(ACQUIRE);
                bindParams(ps, scope, holder, ttlMicros);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        Optional<AcquireResult> result = interpret(rs, scope);
                        if (result.isPresent()) {
                            return result.get();
                        }
                    }
                }
            }
            throw new IllegalStateException("acquire of scope " + scope + " kept racing with first acquisitions");
        });
    }

    private Optional<AcquireResult> interpret(ResultSet rs, String scope) throws SQLException {
        // Columns by position (granted, token, holder, acquired_at, expires_at, judged_at): the hot path.
        long token = rs.getLong(2);
        String holder = rs.getString(3);
        Instant acquiredAt = instant(rs, 4);
        Instant expiresAt = instant(rs, 5);
        if (rs.getBoolean(1)) {
            return Optional.of(new AcquireResult.Acquired(new Lease(scope, holder, token, acquiredAt, expiresAt)));
        }
        boolean free = holder == null || !expiresAt.isAfter(instant(rs, 6));
        if (free && token == Long.MAX_VALUE) {
            return Optional.of(new AcquireResult.Exhausted(scope, token));
        }
        if (free) {
            // freed between the upsert and our read: ask again
            return Optional.empty();
        }
        return Optional.of(new AcquireResult.Busy(scope, holder, token, expiresAt));
    }

    /** Extends the lease while it is still the current, unexpired one. */
    public RenewResult renew(Lease lease, Duration ttl) {
        return pooled(s -> renew(s, lease, ttl));
    }

    /** As {@link #renew(Lease, Duration)} on the worker's own session. */
    public RenewResult renew(Session session, Lease lease, Duration ttl) {
        long ttlMicros = ttlMicros(ttl);
        return call(() -> {
            PreparedStatement ps = session.prepared(RENEW);
            bindParams(ps, lease.scope(), lease.holder(), ttlMicros);
            ps.setLong(6, lease.token());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? new RenewResult.Renewed(lease.withExpiry(instant(rs, 1)))
                        : new RenewResult.NotHeld(lease);
            }
        });
    }

    /** Gives the lease up early. Returns false if it was no longer the current one. The token is never reissued. */
    public boolean release(Lease lease) {
        return pooled(s -> release(s, lease));
    }

    /** As {@link #release(Lease)} on the worker's own session. */
    public boolean release(Session session, Lease lease) {
        return call(() -> {
            PreparedStatement ps = session.prepared(RELEASE);
            bindParams(ps, lease.scope(), lease.holder(), 1);
            ps.setLong(6, lease.token());
            return ps.executeUpdate() == 1;
        });
    }

    /** The scope's counter and current holder, for display; empty if the scope never issued a token. */
    public Optional<ScopeState> current(String scope) {
        return pooled(s -> {
            PreparedStatement ps = s.prepared(CURRENT);
            ps.setLong(1, runId);
            ps.setString(2, scope);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new ScopeState(scope, rs.getLong(1), rs.getString(2),
                                instant(rs, 3), instant(rs, 4)))
                        : Optional.empty();
            }
        });
    }

    /** A scope as stored: its last issued token and, if held, by whom and until when. */
    public record ScopeState(String scope, long lastToken, String holder, Instant acquiredAt, Instant expiresAt) {}

    private void bindParams(PreparedStatement ps, String scope, String holder, long ttlMicros) throws SQLException {
        ps.setLong(1, runId);
        ps.setString(2, scope);
        ps.setString(3, holder);
        ps.setLong(4, ttlMicros);
        Optional<Instant> judgedAt = clock.expiryJudgedAt();
        if (judgedAt.isPresent()) {
            ps.setObject(5, judgedAt.get().atOffset(ZoneOffset.UTC));
        } else {
            ps.setNull(5, Types.TIMESTAMP_WITH_TIMEZONE);
        }
    }

    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    private interface SessionWork<T> {
        T run(Session session) throws SQLException;
    }

    private <T> T pooled(SessionWork<T> work) {
        try (Session session = database.openSession()) {
            return call(() -> work.run(session));
        }
    }

    private static <T> T call(SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw DatabaseException.from(e);
        }
    }

    /** A lease ttl as the statements bind it: whole microseconds, and positive. */
    public static long ttlMicros(Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("a lease ttl must be positive, was " + d);
        }
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.EPOCH.plus(d));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        // timestamptz read as Timestamp: an exact instant, and cheaper in pgjdbc than OffsetDateTime.
        java.sql.Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}

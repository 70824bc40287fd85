package io.fencelab.engine.agent;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.Update;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The tables through which a process run, its agents and the agent hosts talk (migration V4):
 * {@code agent_run} (a process run's plan and its time zero on the database's clock),
 * {@code agent} (each agent of a run: its host, pid, state), {@code agent_event} (events on their way
 * from an agent to the run), {@code agent_order} (instructions to an agent or a host, woken by
 * {@code NOTIFY fencelab_orders}) and {@code agent_host} (hosts that joined, with heartbeats and clock
 * offsets). Every statement is parameterized; nothing here runs a command read from the database.
 */
public final class AgentTables {

    /** The NOTIFY channel every order wakes; its payload is the order's run id. */
    public static final String ORDERS_CHANNEL = "fencelab_orders";

    private final Database db;

    public AgentTables(Database db) {
        this.db = db;
    }

    // ---- the run's side ------------------------------------------------------------------------

    /** Records a process run's plan (the scenario text every agent compiles) for {@code runId}. */
    public void createRun(long runId, String plan) {
        update("INSERT INTO agent_run (run_id, plan) VALUES (:run, :plan)", q -> q.bind("run", runId).bind("plan", plan));
    }

    /**
     * Sets run time zero: now on the database's clock; returns it. Asked again, it returns the time
     * zero set the first time.
     *
     * @throws IllegalStateException if the run has no plan ({@link #createRun})
     */
    public Instant startRun(long runId) {
        // One transaction: the NOTIFY wakes the waiting agents when the start is there to read.
        return call(h -> h.inTransaction(t -> {
            Optional<Instant> start = t.createQuery("""
                            UPDATE agent_run SET started_at = COALESCE(started_at, clock_timestamp())
                             WHERE run_id = :run RETURNING started_at""")
                    .bind("run", runId).mapTo(Instant.class).findOne();
            t.createQuery("SELECT pg_notify('" + ORDERS_CHANNEL + "', CAST(:run AS text))").bind("run", runId)
                    .mapTo(String.class).one();
            return start;
        })).orElseThrow(() -> noProcessRun(runId));
    }

    /** Marks the run over (agents that poll see it and leave); the first end time stays. */
    public void endRun(long runId) {
        call(h -> h.inTransaction(t -> {
            t.createUpdate("UPDATE agent_run SET ended_at = COALESCE(ended_at, clock_timestamp()) WHERE run_id = :run")
                    .bind("run", runId).execute();
            return t.createQuery("SELECT pg_notify('" + ORDERS_CHANNEL + "', CAST(:run AS text))").bind("run", runId)
                    .mapTo(String.class).one();
        }));
    }

    /**
     * Adds agent {@code agent} of the run, placed on {@code host} (null: the run's own machine). Adding
     * an agent again (a restart after a crash) places it anew and forgets the old process's pid.
     */
    public void addAgent(long runId, String agent, String host) {
        update("""
                INSERT INTO agent (run_id, name, host) VALUES (:run, :name, :host)
                ON CONFLICT (run_id, name) DO UPDATE SET host = EXCLUDED.host, pid = NULL, up_at = NULL""",
                q -> q.bind("run", runId).bind("name", agent).bind("host", host));
    }

    /** The run's agents as the database knows them, by name. */
    public List<AgentRow> agents(long runId) {
        return call(h -> h.createQuery("SELECT name, host, pid, up_at FROM agent WHERE run_id = :run ORDER BY name")
                .bind("run", runId)
                .map((rs, ctx) -> new AgentRow(rs.getString("name"), rs.getString("host"),
                        (Long) rs.getObject("pid"), instant(rs, "up_at")))
                .list());
    }

    /**
     * Takes every event agents have sent for the run so far (deleting them), sorted by agent and its
     * sequence number. One statement: an event whose insert commits while it runs is not in its
     * snapshot, so it stays and is taken next time; none is taken twice.
     */
    public List<AgentEventRow> drainEvents(long runId) {
        List<AgentEventRow> rows = call(h -> h.createQuery("""
                        DELETE FROM agent_event WHERE run_id = :run
                        RETURNING agent, local_seq, at_micros, body""")
                .bind("run", runId)
                .map((rs, ctx) -> new AgentEventRow(rs.getString("agent"), rs.getLong("local_seq"),
                        rs.getLong("at_micros"), rs.getString("body")))
                .list());
        List<AgentEventRow> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(AgentEventRow::agent).thenComparingLong(AgentEventRow::localSeq));
        return sorted;
    }

    /**
     * Queues an order and NOTIFYs {@link #ORDERS_CHANNEL} in the same transaction (listeners wake when
     * the order is there to read); returns its id.
     *
     * @throws IllegalArgumentException for an order to nobody (neither host nor agent)
     */
    public long order(Order order) {
        if (order.host() == null && order.agent() == null) {
            throw new IllegalArgumentException("an order goes to a host or an agent, this one to neither: " + order);
        }
        return call(h -> h.inTransaction(t -> {
            long id = t.createQuery("""
                            INSERT INTO agent_order (run_id, host, agent, kind, body)
                            VALUES (:run, :host, :agent, :kind, :body) RETURNING id""")
                    .bind("run", order.runId()).bind("host", order.host()).bind("agent", order.agent())
                    .bind("kind", order.kind().name()).bind("body", order.body())
                    .mapTo(Long.class).one();
            t.createQuery("SELECT pg_notify(:channel, CAST(:run AS text))")
                    .bind("channel", ORDERS_CHANNEL).bind("run", order.runId())
                    .mapTo(String.class).one();
            return id;
        }));
    }

    /**
     * The order's result once it is done, waiting at most {@code limit}; empty if it is not done by
     * then. Polls every {@value #POLL_MILLIS} ms on one connection: a freeze's confirmation arrives
     * within a few ms of being written.
     *
     * @throws IllegalArgumentException if there is no such order
     */
    public Optional<OrderResult> awaitOrder(long orderId, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        try (Handle h = db.jdbi().open()) {
            var query = h.createQuery("""
                    SELECT done_at IS NOT NULL AS done, ok, pid, delivered_at, confirmed_at, detail
                      FROM agent_order WHERE id = :id""").bind("id", orderId);
            while (true) {
                Optional<Optional<OrderResult>> row = query.map((rs, ctx) -> rs.getBoolean("done")
                        ? Optional.of(new OrderResult(rs.getBoolean("ok"), (Long) rs.getObject("pid"),
                        instant(rs, "delivered_at"), instant(rs, "confirmed_at"), rs.getString("detail")))
                        : Optional.<OrderResult>empty()).findOne();
                if (row.isEmpty()) {
                    throw new IllegalArgumentException("no order " + orderId);
                }
                if (row.get().isPresent() || System.nanoTime() - deadline >= 0) {
                    return row.get();
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (JdbiException e) {
            throw translated(e);
        }
    }

    private static final long POLL_MILLIS = 2;

    /** The host named {@code name}, if it ever joined. */
    public Optional<HostRow> host(String name) {
        return call(h -> h.createQuery("SELECT * FROM agent_host WHERE name = :name")
                .bind("name", name).map(AgentTables::hostRow).findOne());
    }

    /** Every host that has not left and was seen within {@code within} of the database's now, by name. */
    public List<HostRow> liveHosts(Duration within) {
        return call(h -> h.createQuery("""
                        SELECT * FROM agent_host
                         WHERE left_at IS NULL
                           AND last_seen >= clock_timestamp() - CAST(:micros AS bigint) * interval '1 microsecond'
                         ORDER BY name""")
                .bind("micros", within.toNanos() / 1_000).map(AgentTables::hostRow).list());
    }

    // ---- an agent's side ------------------------------------------------------------------------

    /**
     * The run's plan and time zero: empty if the run has no plan; {@code start} is null until the run
     * starts ({@link #startRun}), so an agent waits while it is.
     */
    public Optional<RunPlan> plan(long runId) {
        return call(h -> h.createQuery("SELECT plan, started_at, ended_at FROM agent_run WHERE run_id = :run")
                .bind("run", runId)
                .map((rs, ctx) -> new RunPlan(runId, rs.getString("plan"), instant(rs, "started_at"),
                        rs.getObject("ended_at") != null))
                .findOne());
    }

    /**
     * The agent says it is up: its pid and host (null keeps the host it was placed on).
     *
     * @throws IllegalStateException if the run has no such agent
     */
    public void agentUp(long runId, String agent, long pid, String host) {
        int n = call(h -> h.createUpdate("""
                        UPDATE agent SET pid = :pid, host = COALESCE(:host, host), up_at = clock_timestamp()
                         WHERE run_id = :run AND name = :name""")
                .bind("pid", pid).bind("host", host).bind("run", runId).bind("name", agent).execute());
        if (n == 0) {
            throw new IllegalStateException("run " + runId + " has no agent " + agent);
        }
    }

    /** Sends one event (its JSON line with the agent's own sequence number), committed before it returns. */
    public void sendEvent(long runId, String agent, long localSeq, long atMicros, String json) {
        update("""
                INSERT INTO agent_event (run_id, agent, local_seq, at_micros, body)
                VALUES (:run, :agent, :seq, :at, :body)""",
                q -> q.bind("run", runId).bind("agent", agent).bind("seq", localSeq).bind("at", atMicros)
                        .bind("body", json));
    }

    /** Whether the run has ended ({@link #endRun}) or is gone. */
    public boolean runOver(long runId) {
        return plan(runId).map(RunPlan::over).orElse(true);
    }

    /** The orders not yet done for {@code agent} of {@code runId} (not its host's orders about it), oldest first. */
    public List<Order> ordersForAgent(long runId, String agent) {
        return call(h -> h.createQuery("""
                        SELECT * FROM agent_order
                         WHERE run_id = :run AND agent = :agent AND host IS NULL AND done_at IS NULL ORDER BY id""")
                .bind("run", runId).bind("agent", agent).map(AgentTables::orderRow).list());
    }

    /** The orders not yet done for agent host {@code host}, oldest first. */
    public List<Order> ordersForHost(String host) {
        return call(h -> h.createQuery("SELECT * FROM agent_order WHERE host = :host AND done_at IS NULL ORDER BY id")
                .bind("host", host).map(AgentTables::orderRow).list());
    }

    /** Marks an order done with its result; an order already done keeps its first result. */
    public void done(long orderId, OrderResult result) {
        update("""
                UPDATE agent_order SET done_at = clock_timestamp(), ok = :ok, pid = :pid,
                       delivered_at = :delivered, confirmed_at = :confirmed, detail = :detail
                 WHERE id = :id AND done_at IS NULL""",
                q -> q.bind("ok", result.ok()).bind("pid", result.pid()).bind("delivered", result.delivered())
                        .bind("confirmed", result.confirmed()).bind("detail", result.detail()).bind("id", orderId));
    }

    // ---- a host's side --------------------------------------------------------------------------

    /** The host joins (or joins again): its row is created or refreshed, and no longer marked left. */
    public void hostJoined(String name, String machine, long pid, ClockOffset clock) {
        update("""
                INSERT INTO agent_host (name, machine, pid, clock_offset_us, clock_uncertainty_us)
                VALUES (:name, :machine, :pid, :offset, :uncertainty)
                ON CONFLICT (name) DO UPDATE SET machine = EXCLUDED.machine, pid = EXCLUDED.pid,
                       joined_at = clock_timestamp(), last_seen = clock_timestamp(),
                       clock_offset_us = EXCLUDED.clock_offset_us,
                       clock_uncertainty_us = EXCLUDED.clock_uncertainty_us, left_at = NULL""",
                q -> q.bind("name", name).bind("machine", machine).bind("pid", pid)
                        .bind("offset", clock.offsetMicros()).bind("uncertainty", clock.uncertaintyMicros()));
    }

    /**
     * The host's heartbeat, with its latest clock measurement.
     *
     * @throws IllegalStateException if the host never joined
     */
    public void heartbeat(String name, ClockOffset clock) {
        int n = call(h -> h.createUpdate("""
                        UPDATE agent_host SET last_seen = clock_timestamp(), clock_offset_us = :offset,
                               clock_uncertainty_us = :uncertainty
                         WHERE name = :name""")
                .bind("offset", clock.offsetMicros()).bind("uncertainty", clock.uncertaintyMicros())
                .bind("name", name).execute());
        if (n == 0) {
            throw new IllegalStateException("agent host " + name + " has not joined");
        }
    }

    /** The host leaves on purpose (its row stays, marked left). */
    public void hostLeft(String name) {
        update("UPDATE agent_host SET left_at = clock_timestamp() WHERE name = :name", q -> q.bind("name", name));
    }

    /**
     * A connection of its own that LISTENs on {@link #ORDERS_CHANNEL}, for an agent or a host to wake
     * on orders instead of sleeping. Close it.
     */
    public Listener listen() {
        return Listener.open(db);
    }

    // ---- statements -----------------------------------------------------------------------------

    private <T> T call(HandleCallback<T, RuntimeException> callback) {
        try {
            return db.jdbi().withHandle(callback);
        } catch (JdbiException e) {
            throw translated(e);
        }
    }

    private void update(String sql, java.util.function.UnaryOperator<Update> binds) {
        call(h -> binds.apply(h.createUpdate(sql)).execute());
    }

    /** A failed statement as the engine's database failure: SQL state and the server's words, no values. */
    private static RuntimeException translated(JdbiException e) {
        Throwable cause = e.getCause();
        return cause instanceof SQLException sql ? DatabaseException.from(sql) : e;
    }

    private static IllegalStateException noProcessRun(long runId) {
        return new IllegalStateException("run " + runId + " is not a process run: it has no plan in agent_run");
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        java.time.OffsetDateTime t = rs.getObject(column, java.time.OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static HostRow hostRow(ResultSet rs, StatementContext ctx) throws SQLException {
        return new HostRow(rs.getString("name"), rs.getString("machine"), rs.getLong("pid"),
                instant(rs, "joined_at"), instant(rs, "last_seen"), rs.getLong("clock_offset_us"),
                rs.getLong("clock_uncertainty_us"), rs.getObject("left_at") != null);
    }

    private static Order orderRow(ResultSet rs, StatementContext ctx) throws SQLException {
        return new Order(rs.getLong("id"), rs.getLong("run_id"), rs.getString("host"), rs.getString("agent"),
                OrderKind.valueOf(rs.getString("kind")), rs.getString("body"));
    }

    /**
     * A dedicated connection (not from the pool: it stays LISTENing) that wakes on every order's
     * NOTIFY. An agent or a host waits on it, then reads its orders; a notification for another run or
     * host just means one more look.
     */
    public static final class Listener implements AutoCloseable {

        private final java.sql.Connection connection;
        private final PGConnection pg;

        private Listener(java.sql.Connection connection) throws SQLException {
            this.connection = connection;
            this.pg = connection.unwrap(PGConnection.class);
            try (var statement = connection.createStatement()) {
                statement.execute("LISTEN " + ORDERS_CHANNEL); // a constant: channels cannot be bound
            }
        }

        static Listener open(Database db) {
            java.util.Properties credentials = new java.util.Properties();
            db.user().ifPresent(u -> credentials.setProperty("user", u));
            db.password().ifPresent(p -> credentials.setProperty("password", p));
            java.sql.Connection connection = null;
            try {
                connection = java.sql.DriverManager.getConnection(db.jdbcUrlWithoutSecret(), credentials);
                return new Listener(connection);
            } catch (SQLException e) {
                closeQuietly(connection);
                throw DatabaseException.from(e);
            }
        }

        /**
         * Waits at most {@code limit} for notifications; returns the run ids they carry (empty when none
         * came). Returns at once with what has already arrived.
         */
        public List<Long> awaitNotification(Duration limit) {
            try {
                // getNotifications(0) would block for ever: wait at least a millisecond.
                int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, limit.toMillis()));
                PGNotification[] got = pg.getNotifications(millis);
                List<Long> runs = new ArrayList<>();
                for (PGNotification n : got == null ? new PGNotification[0] : got) {
                    try {
                        runs.add(Long.parseLong(n.getParameter()));
                    } catch (NumberFormatException e) {
                        runs.add(-1L); // someone else's NOTIFY on our channel: still a reason to look
                    }
                }
                return runs;
            } catch (SQLException e) {
                throw DatabaseException.from(e);
            }
        }

        @Override
        public void close() {
            closeQuietly(connection);
        }

        private static void closeQuietly(java.sql.Connection connection) {
            if (connection == null) {
                return;
            }
            try {
                connection.close();
            } catch (SQLException e) {
                // the connection is going away either way; its LISTEN ends with it
            }
        }
    }

    // ---- rows ------------------------------------------------------------------------------------

    /** An agent of a process run: where it was placed, and its process once it said it is up (else null). */
    public record AgentRow(String name, String host, Long pid, Instant up) {
    }

    /** An event from an agent, on its way to the run's log. */
    public record AgentEventRow(String agent, long localSeq, long atMicros, String json) {
    }

    /** A process run's plan as its agents read it: the scenario text and run time zero on the database's clock. */
    public record RunPlan(long runId, String plan, Instant start, boolean over) {
    }

    /** What an order asks. */
    public enum OrderKind {
        /** To a host: start agent {@code agent} of run {@code runId}. Result: the pid. */
        START,
        /** To a host: SIGSTOP the agent's process and confirm it stopped. Result: delivered and confirmed times. */
        FREEZE,
        /** To a host: SIGCONT the agent's process. */
        THAW,
        /** To a host: SIGKILL the agent's process. */
        KILL,
        /** To an agent: a fault occurrence that targets it ({@code body}: kind, start, end, amount). */
        FAULT,
        /** To an agent: terminate its next action's database session (a connection kill). */
        KILL_SESSION,
        /** To an agent: the run is over; stop and leave. */
        END
    }

    /**
     * An instruction. {@code host} is set for a host's orders, {@code agent} for an agent's (and for the
     * agent a host's order is about); {@code body} carries the order's arguments as text.
     */
    public record Order(long id, long runId, String host, String agent, OrderKind kind, String body) {
        public static Order toHost(long runId, String host, String agent, OrderKind kind) {
            return new Order(0, runId, host, agent, kind, null);
        }

        public static Order toAgent(long runId, String agent, OrderKind kind, String body) {
            return new Order(0, runId, null, agent, kind, body);
        }
    }

    /**
     * How an order went: {@code ok}, the process's pid, when the signal was delivered and when its
     * effect was confirmed (database clock), and a one-line detail.
     */
    public record OrderResult(boolean ok, Long pid, Instant delivered, Instant confirmed, String detail) {
    }

    /** An agent host as the database knows it. */
    public record HostRow(String name, String machine, long pid, Instant joined, Instant lastSeen,
                          long clockOffsetMicros, long clockUncertaintyMicros, boolean left) {
    }
}

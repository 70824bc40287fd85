package io.fencelab.engine.agent;

import io.fencelab.engine.db.Database;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

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
        throw new UnsupportedOperationException("not yet");
    }

    /** Sets run time zero: now on the database's clock; returns it. */
    public Instant startRun(long runId) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Marks the run over (agents that poll see it and leave). */
    public void endRun(long runId) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Adds agent {@code agent} of the run, placed on {@code host} (null: the run's own machine). */
    public void addAgent(long runId, String agent, String host) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Every agent of the run so far, with its pid once it said it is up. */
    public List<AgentRow> agents(long runId) {
        throw new UnsupportedOperationException("not yet");
    }

    /** An agent of a run: its host (null: the run's own machine) and pid (null until it is up). */
    public record AgentRow(String name, String host, Long pid) {
    }

    /** Takes every event agents have sent for the run so far (deleting them), in no particular order. */
    public List<AgentEventRow> drainEvents(long runId) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Queues an order and NOTIFYs {@link #ORDERS_CHANNEL}; returns its id. */
    public long order(Order order) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The order's result once it is done, waiting at most {@code limit}. */
    public Optional<OrderResult> awaitOrder(long orderId, Duration limit) throws InterruptedException {
        throw new UnsupportedOperationException("not yet");
    }

    /** The host named {@code name}, if it ever joined. */
    public Optional<HostRow> host(String name) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Every host seen within {@code within} of the database's now. */
    public List<HostRow> liveHosts(Duration within) {
        throw new UnsupportedOperationException("not yet");
    }

    // ---- an agent's side ------------------------------------------------------------------------

    /** The run's plan and time zero, once the run has started (empty before: the agent waits). */
    public Optional<RunPlan> plan(long runId) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The agent says it is up: its pid and host. */
    public void agentUp(long runId, String agent, long pid, String host) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Sends one event (its JSON line with the agent's own sequence number), committed before it returns. */
    public void sendEvent(long runId, String agent, long localSeq, long atMicros, String json) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Whether the run has ended ({@link #endRun}) or is gone. */
    public boolean runOver(long runId) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The orders not yet done for {@code agent} of {@code runId}, oldest first. */
    public List<Order> ordersForAgent(long runId, String agent) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The orders not yet done for agent host {@code host}, oldest first. */
    public List<Order> ordersForHost(String host) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Marks an order done with its result. */
    public void done(long orderId, OrderResult result) {
        throw new UnsupportedOperationException("not yet");
    }

    // ---- a host's side --------------------------------------------------------------------------

    /** The host joins (or joins again): its row is created or refreshed. */
    public void hostJoined(String name, String machine, long pid, ClockOffset clock) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The host's heartbeat, with its latest clock measurement. */
    public void heartbeat(String name, ClockOffset clock) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The host leaves on purpose (its row stays, marked left). */
    public void hostLeft(String name) {
        throw new UnsupportedOperationException("not yet");
    }

    /** A dedicated connection LISTENing on {@link #ORDERS_CHANNEL}; close it when done. */
    public Listener listen() {
        throw new UnsupportedOperationException("not yet");
    }

    /** Wakes its owner when an order is queued. */
    public interface Listener extends AutoCloseable {
        /** Waits up to {@code limit} for a notification; true if one came. */
        boolean awaitNotification(Duration limit) throws InterruptedException;

        @Override
        void close();
    }

    // ---- rows ------------------------------------------------------------------------------------

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

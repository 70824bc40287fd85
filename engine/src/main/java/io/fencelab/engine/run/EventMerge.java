package io.fencelab.engine.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fencelab.engine.agent.AgentTables.AgentEventRow;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A process run's agents' event streams, merged into the run's one log. Each agent numbers its own
 * events and stamps them with its clock corrected to the database's; this holds each event back for
 * {@code holdMicros} (the longest an agent's event takes to arrive) and then releases events in
 * corrected-time order, numbered by the run.
 *
 * <p>Corrected times from different hosts are only as good as their clocks' uncertainty, so where
 * the database's own order is known it wins: grants of one scope are released in the order of the
 * service's counter, which the database assigned (each grant takes the next number). A grant that
 * skips a number waits, with everything after it, until the missing grant arrives: its holder was
 * frozen between the database's answer and its event, as a real process can be. After
 * {@link #GAP_LIMIT} of waiting the merge goes on without it (a grant whose answer never reached its
 * holder, a holder killed before it could tell), unless an agent that could still tell it has been
 * silent since: then it waits up to {@link #STALL_LIMIT}. The checker's verdict rests on tokens and
 * that order, never on times compared across hosts.
 *
 * <p>Who could still tell: the missing grant's holder sent its acquisition before the waiting grant's,
 * and each agent sends its events in order and at once, so its last event before the missing grant
 * is older than the waiting grant. An agent heard from since then is not the holder; an agent the run
 * killed or saw exit cannot tell any more. Thirty cold JVMs on two loaded cores can take ten seconds
 * and more between a grant and its event; a killed holder should not hold the log for a minute.
 */
final class EventMerge {

    /** An agent's event waiting for its turn. */
    private record Held(long atMicros, String agent, long localSeq, ObjectNode json, String type, String scope,
                        long counter) {
        boolean grant() {
            return "LeaseAcquired".equals(type);
        }
    }

    private static final Comparator<Held> ORDER = Comparator.comparingLong(Held::atMicros)
            .thenComparing(Held::agent).thenComparingLong(Held::localSeq);

    /** How long the merge waits for a grant the service's counter says is missing. */
    static final Duration GAP_LIMIT = Duration.ofSeconds(10);
    /** How long it waits while an agent that could still send the missing grant has been silent since. */
    static final Duration STALL_LIMIT = Duration.ofSeconds(90);

    /** Events an agent's worker sends itself, in the order it acts; the rest come from other threads. */
    private static final Set<String> NOT_THE_WORKERS = Set.of("AgentReport", "FaultInjected", "FaultHealed",
            "PauseStarted", "PauseEnded");

    private final long holdMicros;
    private final PriorityQueue<Held> waiting = new PriorityQueue<>(ORDER);
    /** The first counter of each scope named (others start at 1), as the spec's first tokens say. */
    private final Map<String, Long> firstCounters;
    /** Per scope, the counter the next grant released must carry. */
    private final Map<String, Long> nextCounter = new HashMap<>();
    /** Per scope, since when (nanoTime) a grant has waited for a missing one. */
    private final Map<String, Long> gapSince = new HashMap<>();
    /** The agents running, and per agent the corrected time of the latest event its worker sent. */
    private final Set<String> running = new HashSet<>();
    private final Map<String, Long> heardAt = new HashMap<>();
    private final LongSupplier nanoTime;
    private final boolean consecutive;

    EventMerge(long holdMicros) {
        this(holdMicros, Map.of());
    }

    EventMerge(long holdMicros, Map<String, Long> firstCounters) {
        this(holdMicros, firstCounters, System::nanoTime);
    }

    EventMerge(long holdMicros, Map<String, Long> firstCounters, LongSupplier nanoTime) {
        this(holdMicros, firstCounters, nanoTime, true);
    }

    /**
     * @param consecutive whether each grant's token is the one after the scope's previous grant's (a
     *                    counter: PostgreSQL's, Redis's INCR); otherwise (etcd's revisions, ZooKeeper's
     *                    zxids) a skipped number says nothing is missing, and grants are put in token
     *                    order only among those that have arrived
     */
    EventMerge(long holdMicros, Map<String, Long> firstCounters, LongSupplier nanoTime, boolean consecutive) {
        this.holdMicros = holdMicros;
        this.firstCounters = Map.copyOf(firstCounters);
        this.nanoTime = nanoTime;
        this.consecutive = consecutive;
    }

    /** An agent's process has started: until it is heard from, it could hold any grant. */
    synchronized void joined(String agent) {
        running.add(agent);
    }

    /** An agent's process was killed or has exited: whatever it did not send, it never will. */
    synchronized void left(String agent) {
        running.remove(agent);
    }

    /** Takes events as they came from the database (in any order). */
    synchronized void add(List<AgentEventRow> rows) {
        for (AgentEventRow row : rows) {
            try {
                ObjectNode json = (ObjectNode) EventJson.mapper().readTree(row.json());
                String type = json.path("type").asText();
                JsonNode token = json.get("token");
                long counter = token == null ? 0 : token.asLong();
                waiting.add(new Held(row.atMicros(), row.agent(), row.localSeq(), json, type,
                        json.path("scope").asText(null), counter));
                if (!NOT_THE_WORKERS.contains(type)) {
                    heardAt.merge(row.agent(), row.atMicros(), Math::max);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("an agent sent an event that is not one: " + row.agent() + " #"
                        + row.localSeq(), e);
            }
        }
    }

    /** The corrected time of the latest event {@code agent}'s worker sent that has arrived; MIN_VALUE: none. */
    synchronized long heardAt(String agent) {
        return heardAt.getOrDefault(agent, Long.MIN_VALUE);
    }

    /** How many events wait. */
    synchronized int waiting() {
        return waiting.size();
    }

    /**
     * The events due at run time {@code nowMicros} (held long enough), in the order the run logs them;
     * each still to be numbered ({@link #numbered}). {@code Long.MAX_VALUE} takes all.
     */
    synchronized List<ObjectNode> due(long nowMicros) {
        long cutoff = nowMicros == Long.MAX_VALUE ? Long.MAX_VALUE : nowMicros - holdMicros;
        List<Held> ready = new ArrayList<>();
        while (!waiting.isEmpty() && waiting.peek().atMicros() <= cutoff) {
            ready.add(waiting.poll());
        }
        List<ObjectNode> released = new ArrayList<>(ready.size());
        for (int i = 0; i < ready.size(); i++) {
            Held h = ready.get(i);
            if (h.grant()) {
                List<Held> earlier = earlierGrants(h, ready.subList(i + 1, ready.size()));
                if (earlier == null && nowMicros != Long.MAX_VALUE && stillWaiting(h)) {
                    waiting.addAll(ready.subList(i, ready.size()));
                    break;
                }
                // The grants the counter says came first go first, however late their holders told them.
                for (Held g : earlier == null ? List.<Held>of() : earlier) {
                    release(g, released);
                }
            }
            release(h, released);
        }
        return released;
    }

    private void release(Held h, List<ObjectNode> released) {
        if (h.grant()) {
            nextCounter.merge(h.scope(), h.counter() + 1, Math::max);
            gapSince.remove(h.scope());
        }
        released.add(h.json());
    }

    /**
     * The grants of {@code grant}'s scope with the counters between the next one expected and its own,
     * taken out of {@code later} and the waiting events, in counter order; empty when none is missing,
     * null when one has not arrived yet (then nothing is taken).
     */
    private List<Held> earlierGrants(Held grant, List<Held> later) {
        long expected = nextCounter.computeIfAbsent(grant.scope(), s -> firstCounters.getOrDefault(s, 1L));
        if (grant.counter() <= expected) {
            return List.of();
        }
        Map<Long, Held> found = new HashMap<>();
        for (Held h : later) {
            collect(h, grant, expected, found);
        }
        for (Held h : waiting) {
            collect(h, grant, expected, found);
        }
        if (consecutive && found.size() < grant.counter() - expected) {
            return null;
        }
        List<Held> inOrder = new ArrayList<>(found.values());
        inOrder.sort(Comparator.comparingLong(Held::counter));
        later.removeAll(inOrder);
        waiting.removeAll(inOrder);
        return inOrder;
    }

    private static void collect(Held h, Held grant, long expected, Map<Long, Held> found) {
        if (h.grant() && h.scope().equals(grant.scope()) && h.counter() >= expected && h.counter() < grant.counter()) {
            found.putIfAbsent(h.counter(), h);
        }
    }

    /**
     * Whether the grant goes on waiting for a missing one (the wait starts now if new): for
     * {@link #GAP_LIMIT}, and up to {@link #STALL_LIMIT} while an agent that could send it is silent.
     */
    private boolean stillWaiting(Held grant) {
        long now = nanoTime.getAsLong();
        long waited = now - gapSince.computeIfAbsent(grant.scope(), s -> now);
        if (waited < GAP_LIMIT.toNanos()) {
            return true;
        }
        return waited < STALL_LIMIT.toNanos() && !silentSince(grant).isEmpty();
    }

    /**
     * The running agents but its own not heard from since {@code grant} (clocks' uncertainty aside,
     * which the hold covers): one of them, or an agent gone, holds the grant it waits for.
     */
    private List<String> silentSince(Held grant) {
        return running.stream().filter(a -> !a.equals(grant.agent())
                        && heardAt.getOrDefault(a, Long.MIN_VALUE) < grant.atMicros() + holdMicros)
                .sorted().toList();
    }

    /** {@code json} as the run's event number {@code seq}. */
    static Event numbered(ObjectNode json, long seq) {
        ObjectNode copy = json.deepCopy();
        copy.put("seq", seq);
        try {
            return EventJson.reader().readValue(copy);
        } catch (IOException e) {
            throw new UncheckedIOException("an agent's event cannot be read: " + copy.path("type").asText(), e);
        }
    }
}

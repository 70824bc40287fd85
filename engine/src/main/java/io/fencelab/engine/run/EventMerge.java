package io.fencelab.engine.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fencelab.engine.agent.AgentTables.AgentEventRow;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * A process run's agents' event streams, merged into the run's one log. Each agent numbers its own
 * events and stamps them with its clock corrected to the database's; this holds each event back for
 * {@code holdMicros} (the longest an agent's event takes to arrive) and then releases events in
 * corrected-time order, numbered by the run.
 *
 * <p>Corrected times from different hosts are only as good as their clocks' uncertainty, so where
 * the database's own order is known it wins: grants of one scope are released in the order of the
 * service's counter, which the database assigned. The checker's verdict rests on tokens and that
 * order, never on times compared across hosts.
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

    private final long holdMicros;
    private final PriorityQueue<Held> waiting = new PriorityQueue<>(ORDER);

    EventMerge(long holdMicros) {
        this.holdMicros = holdMicros;
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
            } catch (IOException e) {
                throw new UncheckedIOException("an agent sent an event that is not one: " + row.agent() + " #"
                        + row.localSeq(), e);
            }
        }
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
        List<Held> out = new ArrayList<>();
        while (!waiting.isEmpty() && waiting.peek().atMicros() <= cutoff) {
            out.add(waiting.poll());
        }
        pullEarlierGrants(out);
        inCounterOrder(out);
        return out.stream().map(Held::json).toList();
    }

    /** A grant waiting with a lower counter than one released now goes out with it. */
    private void pullEarlierGrants(List<Held> out) {
        Map<String, Long> highest = new HashMap<>();
        for (Held h : out) {
            if (h.grant()) {
                highest.merge(h.scope(), h.counter(), Math::max);
            }
        }
        if (highest.isEmpty()) {
            return;
        }
        List<Held> pulled = waiting.stream()
                .filter(h -> h.grant() && h.counter() < highest.getOrDefault(h.scope(), Long.MIN_VALUE)).toList();
        waiting.removeAll(pulled);
        out.addAll(pulled);
        out.sort(ORDER);
    }

    /** Within what is released, each scope's grants take their slots in the order of their counters. */
    private static void inCounterOrder(List<Held> out) {
        Map<String, List<Integer>> slots = new HashMap<>();
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).grant()) {
                slots.computeIfAbsent(out.get(i).scope(), k -> new ArrayList<>()).add(i);
            }
        }
        for (List<Integer> at : slots.values()) {
            if (at.size() < 2) {
                continue;
            }
            List<Held> grants = new ArrayList<>(at.stream().map(out::get).toList());
            grants.sort(Comparator.comparingLong(Held::counter));
            for (int k = 0; k < at.size(); k++) {
                out.set(at.get(k), grants.get(k));
            }
        }
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

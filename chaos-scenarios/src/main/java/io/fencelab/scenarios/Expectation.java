package io.fencelab.scenarios;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.run.RunResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * What a run of a scenario should show (the file's {@code expect} section), checked against the
 * run's result and events. A catalog scenario whose run misses its expectation is a bug in the
 * scenario or in the engine.
 *
 * @param verdict    the checker's verdict
 * @param endReason  how the run ends ({@code completed}, {@code stopped}, {@code failed: …}; {@code failed}
 *                   alone matches any failure), or null for any end but a failure
 * @param min        lower bounds on the run's totals
 * @param max        upper bounds on the run's totals
 * @param events     minimum count per event type ({@link Event} record simple name), in file order
 * @param invariants invariants that must each have at least one witness in the verdict
 */
public record Expectation(Verdict.Kind verdict, String endReason, Map<Total, Long> min, Map<Total, Long> max,
                          Map<String, Long> events, List<Invariant> invariants) {

    /** The run totals an expectation can bound, by their key in the file. */
    public enum Total {
        ACQUISITIONS("acquisitions", "acquisition", EventCounts::acquisitions),
        RENEWALS("renewals", "renewal", EventCounts::renewals),
        RENEWAL_FAILURES("renewalFailures", "renewal failure", EventCounts::renewalFailures),
        STALE_REJECTIONS("staleRejections", "stale rejection", EventCounts::staleRejections),
        ACCEPTED_WRITES("acceptedWrites", "accepted write", EventCounts::acceptedWrites);

        private final String key;
        private final String noun;
        private final ToLongFunction<EventCounts> count;

        Total(String key, String noun, ToLongFunction<EventCounts> count) {
            this.key = key;
            this.noun = noun;
            this.count = count;
        }

        /** The key in a scenario file: {@code staleRejections}. */
        public String key() {
            return key;
        }

        public long of(EventCounts totals) {
            return count.applyAsLong(totals);
        }

        String nouns(long n) {
            return n == 1 ? noun : noun + "s";
        }

        static Total byKey(String key) {
            for (Total t : values()) {
                if (t.key.equals(key)) {
                    return t;
                }
            }
            return null;
        }

        static List<String> keys() {
            return java.util.Arrays.stream(values()).map(Total::key).toList();
        }
    }

    public Expectation {
        Objects.requireNonNull(verdict, "verdict");
        min = Collections.unmodifiableMap(copy(min));
        max = Collections.unmodifiableMap(copy(max));
        events = Collections.unmodifiableMap(new LinkedHashMap<>(events));
        invariants = List.copyOf(invariants);
    }

    private static Map<Total, Long> copy(Map<Total, Long> bounds) {
        Map<Total, Long> copy = new EnumMap<>(Total.class);
        copy.putAll(bounds);
        return copy;
    }

    /** Only a verdict. */
    public static Expectation verdict(Verdict.Kind verdict) {
        return new Expectation(verdict, null, Map.of(), Map.of(), Map.of(), List.of());
    }

    /**
     * How {@code result} (with its {@code events}, the run's log) misses this expectation, one plain
     * line per miss; empty when it is met.
     */
    public List<String> mismatches(RunResult result, List<Event> events) {
        List<String> misses = new ArrayList<>();
        Verdict actual = result.verdict();
        if (actual.kind() != verdict) {
            String why = actual.witnesses().stream().map(w -> w.invariant().name()).distinct()
                    .collect(Collectors.joining(", "));
            misses.add("expected verdict " + verdict + ", got " + actual.kind() + (why.isEmpty() ? "" : " (" + why + ")"));
        }
        if (endReason != null && !endsAsExpected(result.end())) {
            misses.add("expected the run to end '" + endReason + "', got '" + result.endReason() + "'");
        } else if (endReason == null && result.failed()) {
            // Whatever else was expected, a run that broke off tested nothing after the failure.
            misses.add("the run " + result.endReason() + ", so its verdict covers only what happened before the failure");
        }
        EventCounts totals = result.metrics().totals();
        for (Total t : Total.values()) {
            long got = t.of(totals);
            Long atLeast = min.get(t);
            if (atLeast != null && got < atLeast) {
                misses.add("expected at least " + atLeast + " " + t.key() + ", got " + got);
            }
            Long atMost = max.get(t);
            if (atMost != null && got > atMost) {
                misses.add("expected at most " + atMost + " " + t.key() + ", got " + got);
            }
        }
        Map<String, Long> counted = events.stream()
                .collect(Collectors.groupingBy(e -> e.getClass().getSimpleName(), Collectors.counting()));
        this.events.forEach((type, atLeast) -> {
            long got = counted.getOrDefault(type, 0L);
            if (got < atLeast) {
                misses.add("expected at least " + atLeast + " " + type + " events, got " + got);
            }
        });
        List<Invariant> witnessed = actual.witnesses().stream().map(Witness::invariant).toList();
        for (Invariant i : invariants) {
            if (!witnessed.contains(i)) {
                misses.add("expected a " + i + " witness, found none");
            }
        }
        return misses;
    }

    /**
     * The scenario names an end in the end's one wording ({@link Event.RunEnded.Reason#words}); the
     * name of {@link Event.RunEnded.End#FAILED} alone, {@code failed}, stands for any failure.
     */
    private boolean endsAsExpected(Event.RunEnded.Reason actual) {
        return switch (actual.end()) {
            case FAILED -> ANY_FAILURE.equals(endReason) || endReason.equals(actual.words());
            case COMPLETED, STOPPED -> endReason.equals(actual.words());
        };
    }

    /** How a scenario names any failure: the end's name as the format writes names, {@code failed}. */
    private static final String ANY_FAILURE = Event.RunEnded.End.FAILED.name().toLowerCase(java.util.Locale.ROOT);

    /** In words, for reports and listings: "SAFE with exactly 1 stale rejection". */
    public String describe() {
        List<String> clauses = new ArrayList<>();
        for (Total t : Total.values()) {
            Long low = min.get(t);
            Long high = max.get(t);
            if (low != null && low.equals(high)) {
                clauses.add("exactly " + low + " " + t.nouns(low));
            } else if (low != null && high != null) {
                clauses.add("between " + low + " and " + high + " " + t.nouns(2));
            } else if (low != null) {
                clauses.add("at least " + low + " " + t.nouns(low));
            } else if (high != null) {
                clauses.add("at most " + high + " " + t.nouns(high));
            }
        }
        this.events.forEach((type, n) -> clauses.add("at least " + n + " " + type + (n == 1 ? " event" : " events")));
        invariants.forEach(i -> clauses.add("a " + i + " witness"));
        StringBuilder s = new StringBuilder(verdict.name());
        if (endReason != null) {
            s.append(", ending '").append(endReason).append('\'');
        }
        if (!clauses.isEmpty()) {
            s.append(" with ").append(Texts.and(clauses));
        }
        return s.toString();
    }
}

package io.fencelab.report;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.ResourceId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The verdict in plain language, told from the events and their judgement: which stale writes were
 * refused and what the resource kept, or which got through (as the checker classified them) and
 * what they overwrote. The first sentence is the headline.
 */
public final class VerdictText {

    /** How many individual writes are told before the rest is only counted. */
    static final int EXAMPLES = 3;

    private VerdictText() {
    }

    /**
     * For a log that ends with a failed run, the headline saying so: its verdict covers only what
     * happened before the failure (docs/RELIABILITY.md, "When the database breaks").
     */
    static java.util.Optional<String> failure(List<? extends Event> events) {
        if (events.isEmpty() || !(events.getLast() instanceof Event.RunEnded end)) {
            return java.util.Optional.empty();
        }
        return end.ending().failureCause().map(cause -> ("The run failed at %s: %s. "
                + "This verdict covers only what happened before the failure.").formatted(RunTimes.seconds(end.atMicros()),
                cause));
    }

    /** The plain-language verdict of a run, headline first: what the command line prints. */
    public static List<String> of(List<? extends Event> events, Judgement judgement) {
        return sentences(events, judgement, Timeline.from(events, judgement));
    }

    /**
     * The one sentence a screen with room for one shows (the presenter view): the first that judges.
     * The longest belief gap is context, not a verdict, so a violation with no overwrite to tell (a
     * grant that did not increase) is headed by its "Unsafe: …" line, not by the gap.
     */
    public static String headline(List<? extends Event> events, Judgement judgement) {
        Timeline timeline = Timeline.from(events, judgement);
        List<String> context = gaps(timeline);
        return sentences(events, judgement, timeline).stream().filter(s -> !context.contains(s)).findFirst()
                .orElse("");
    }

    static List<String> sentences(List<? extends Event> events, Judgement judgement, Timeline timeline) {
        Verdict verdict = judgement.verdict();
        // Only the newer writes the told overwrites went over are kept, not every accepted write of the run.
        Set<Long> toldAgainst = new HashSet<>();
        judgement.writes().all().stream().filter(WriteJudgement::isStaleOverwrite).limit(EXAMPLES)
                .forEach(j -> toldAgainst.add(j.againstSeq()));
        Map<Long, Event.WriteAccepted> newer = new HashMap<>();
        List<String> rejected = new ArrayList<>();
        List<String> overwrote = new ArrayList<>();
        List<Event.WriteRejectedStale> rejections = new ArrayList<>();
        List<Event.WriteAccepted> overwrites = new ArrayList<>();
        int rejectedCount = 0;
        int overwroteCount = 0;
        long acceptedCount = 0;
        for (Event event : events) {
            if (event instanceof Event.WriteAccepted w) {
                acceptedCount++;
                if (toldAgainst.contains(w.seq())) {
                    newer.put(w.seq(), w);
                }
                if (judgement.classOf(w.seq()) == WriteClass.STALE_OVERWRITE && overwroteCount++ < EXAMPLES) {
                    overwrites.add(w);
                }
            } else if (event instanceof Event.WriteRejectedStale r && rejectedCount++ < EXAMPLES) {
                rejections.add(r);
            }
        }
        for (Event.WriteAccepted w : overwrites) {
            WriteJudgement judged = judgement.writes().of(w.seq());
            Event.WriteAccepted over = newer.get(judged.againstSeq());
            String was = over == null
                    ? "a write with the newer token %d was already there".formatted(judged.against())
                    : "%s's write with token %d was already there (%s)".formatted(over.holder(), over.token(),
                            RunTimes.seconds(over.atMicros()));
            overwrote.add("%s's write with token %d was accepted at %s on %s although %s: stale work overwrote newer work."
                    .formatted(w.holder(), w.token(), RunTimes.seconds(w.atMicros()), idOf(w), was));
        }
        // "Holds" names what the checker says the resource must keep at the end of the run.
        for (Event.WriteRejectedStale r : rejections) {
            ResourceId id = new ResourceId(r.target(), r.scope(), r.key());
            Event.WriteAccepted k = judgement.kept().get(id);
            String after = k == null
                    ? "%s had already accepted token %d.".formatted(id, r.highest())
                    : "%s holds %s's write from token %d.".formatted(id, k.holder(), k.token());
            rejected.add("%s's write with token %d was rejected as stale at %s; %s"
                    .formatted(r.holder(), r.token(), RunTimes.seconds(r.atMicros()), after));
        }

        List<String> out = new ArrayList<>();
        failure(events).ifPresent(out::add);
        if (verdict.isSafe()) {
            if (rejected.isEmpty()) {
                out.add(acceptedCount == 0
                        ? "Safe: no write was accepted, so none could be stale."
                        : "Safe: every one of the %d accepted writes carried its resource's newest token; no stale write was attempted."
                                .formatted(acceptedCount));
            } else {
                out.addAll(rejected);
                more(out, rejectedCount, "stale write was", "stale writes were", "rejected the same way");
                out.addAll(gaps(timeline));
                out.add("Safe: no resource accepted a write older than one it had already accepted.");
            }
            return out;
        }
        out.addAll(overwrote);
        more(out, overwroteCount, "stale write was", "stale writes were", "accepted over newer ones");
        out.addAll(contradictions(verdict));
        out.addAll(falseAnswers(verdict));
        out.addAll(gaps(timeline));
        out.add("Unsafe: " + violations(verdict) + ".");
        out.addAll(rejected);
        more(out, rejectedCount, "stale write was", "stale writes were", "rejected");
        return out;
    }

    /**
     * The longest gap between belief and lease, told once: the stretch in which only the resource's
     * token check stands between a stale holder and the data.
     */
    private static List<String> gaps(Timeline timeline) {
        Span.Gap longest = null;
        String holder = null;
        int count = 0;
        for (HolderLane lane : timeline.holders()) {
            for (Span.Gap g : lane.gaps()) {
                count++;
                if (longest == null || g.durationMicros() > longest.durationMicros()) {
                    longest = g;
                    holder = lane.holder();
                }
            }
        }
        if (longest == null) {
            return List.of();
        }
        String sentence = "%s went on believing it held token %d for %s after the lease service stopped counting it as held (%s)."
                .formatted(holder, longest.token(), RunTimes.seconds(longest.durationMicros()),
                        RunTimes.range(longest.startMicros(), longest.endMicros()));
        if (count > 1) {
            sentence += " That is the longest of %d such gaps.".formatted(count);
        }
        return List.of(sentence);
    }

    /** Witnesses that the log itself cannot be true: told as such, since no write sentence covers them. */
    private static List<String> contradictions(Verdict verdict) {
        List<Witness> found = verdict.witnesses().stream().filter(w -> switch (w.invariant()) {
            case UNISSUED_TOKEN, CONTRADICTORY_REPLACED_TOKEN -> true;
            case NON_MONOTONIC_GRANT, NON_MONOTONIC_COUNTER, STALE_OVERWRITE, FINAL_STATE_MISMATCH,
                 OUTCOME_CONTRADICTED -> false;
        }).toList();
        List<String> out = new ArrayList<>();
        found.stream().limit(EXAMPLES).forEach(w -> out.add("The log contradicts itself (" + name(w.invariant())
                + "): " + w.summary() + "."));
        more(out, found.size(), "contradiction is", "contradictions are", "in the witnesses");
        return out;
    }

    /** A user's fence whose statement said one thing while its row held another. */
    private static List<String> falseAnswers(Verdict verdict) {
        List<Witness> found = verdict.witnesses().stream()
                .filter(w -> w.invariant() == Invariant.OUTCOME_CONTRADICTED).toList();
        List<String> out = new ArrayList<>();
        found.stream().limit(EXAMPLES).forEach(w -> out.add("Unsafe: the fence's answer was false. " + w.summary()
                + "."));
        more(out, found.size(), "false answer is", "false answers are", "in the witnesses");
        return out;
    }

    private static void more(List<String> out, int count, String one, String many, String how) {
        int rest = count - EXAMPLES;
        if (rest > 0) {
            out.add("%d more %s %s.".formatted(rest, rest == 1 ? one : many, how));
        }
    }

    /** {@code 2 violations: 1 stale overwrite, 1 final state mismatch}. */
    static String violations(Verdict verdict) {
        Map<Invariant, Integer> counts = new EnumMap<>(Invariant.class);
        for (Witness w : verdict.witnesses()) {
            counts.merge(w.invariant(), 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((invariant, n) -> parts.add(n + " " + name(invariant)));
        int total = verdict.witnesses().size();
        return total + (total == 1 ? " violation" : " violations") + " found (" + String.join(", ", parts) + ")";
    }

    /** {@code STALE_OVERWRITE} as {@code stale overwrite}. */
    static String name(Invariant invariant) {
        return EventText.words(invariant.name());
    }

    private static ResourceId idOf(Event.WriteAccepted w) {
        return new ResourceId(w.target(), w.scope(), w.key());
    }
}

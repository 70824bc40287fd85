package io.fencelab.engine.check;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.Event.WriteAccepted;
import io.fencelab.engine.resource.ResourceId;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the checker concluded from a run's history, kept beside it, never written into it: the
 * verdict with its witnesses, the class of every write outcome (keyed by the outcome's seq), and per
 * resource the write it must hold. Everything that shows a verdict or marks a write reads this.
 *
 * @param kept             per resource, the last write accepted under its highest grant: what its
 *                         final state must hold
 * @param finalStateJudged whether the database's final state was compared (false while a run goes
 *                         on, for a log judged offline, or when the database was gone at the end)
 * @param end              how the judged history ends: with {@code RunEnded}, or
 *                         {@linkplain LogEnd.Incomplete incomplete}
 */
public record Judgement(Verdict verdict, WriteClasses writes, Map<ResourceId, WriteAccepted> kept,
                        boolean finalStateJudged, LogEnd end) {

    /** Before any event. */
    public static final Judgement EMPTY = new Judgement(Verdict.of(java.util.List.of()), WriteClasses.NONE, Map.of(),
            false, LogEnd.NOTHING);

    public Judgement {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(writes, "writes");
        Objects.requireNonNull(end, "end");
        kept = Collections.unmodifiableMap(new TreeMap<>(kept));
    }

    /**
     * A judgement that has only a verdict, classifies no write and ends with {@code RunEnded} (a
     * fixture for callers' tests).
     */
    public static Judgement of(Verdict verdict, boolean finalStateJudged) {
        return new Judgement(verdict, WriteClasses.NONE, Map.of(), finalStateJudged,
                new LogEnd.Ended(0, 0, RunEnded.Reason.COMPLETED));
    }

    /**
     * This judgement as it stood after event {@code last}: the witnesses every event of which is at
     * or before it, and the writes kept by then. A view that shows only the first events of a run (the
     * console, while later ones wait for the screen) renders this, so its badge, its words and its
     * marks read one judgement of exactly what is shown. The write classes are kept whole: a class,
     * once given, never changes, and nobody asks for a write not shown.
     */
    public Judgement upTo(Event last) {
        long seq = last.seq();
        if (end.lastSeq() <= seq) {
            return this;
        }
        List<Witness> shown = verdict.witnesses().stream()
                .filter(w -> w.eventSeqs().stream().allMatch(s -> s <= seq)).toList();
        Map<ResourceId, WriteAccepted> keptThen = new TreeMap<>();
        kept.forEach((id, w) -> {
            if (w.seq() <= seq) {
                keptThen.put(id, w);
            }
        });
        return new Judgement(Verdict.of(shown), writes, keptThen, false, new LogEnd.Incomplete(seq, last.atMicros()));
    }

    /** The history's cut, when it has no {@code RunEnded}. */
    public java.util.Optional<LogEnd.Incomplete> incomplete() {
        return end instanceof LogEnd.Incomplete cut ? java.util.Optional.of(cut) : java.util.Optional.empty();
    }

    public boolean isSafe() {
        return verdict.isSafe();
    }

    /** The class of write outcome {@code seq}, or null if that event is not a write outcome. */
    public WriteClass classOf(long seq) {
        return writes.classOf(seq);
    }
}

package io.fencelab.report;

import io.fencelab.engine.check.Witness;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The witnesses a timeline shows, numbered from 1 in verdict order, and which event seqs belong to
 * which of them, so a renderer can outline a span or mark and label it with its witness numbers.
 *
 * @param sameWrite an event that speaks of a write drawn under another seq: a user fence's
 *                  {@code WriteContradicted} (no mark of its own) to its write's outcome, whose mark
 *                  is outlined when the contradiction is a witness
 */
public record Highlights(List<Witness> witnesses, Map<Long, List<Integer>> witnessNumbersBySeq,
                         Map<Long, Long> sameWrite) {

    public static final Highlights NONE = new Highlights(List.of(), Map.of(), Map.of());

    public Highlights {
        witnesses = List.copyOf(witnesses);
        witnessNumbersBySeq = Collections.unmodifiableMap(new TreeMap<>(witnessNumbersBySeq));
        sameWrite = Map.copyOf(sameWrite);
    }

    public static Highlights of(List<Witness> witnesses) {
        return of(witnesses, Map.of());
    }

    /** {@code witnesses}, each also on the write mark its events speak of ({@code sameWrite}). */
    public static Highlights of(List<Witness> witnesses, Map<Long, Long> sameWrite) {
        TreeMap<Long, List<Integer>> bySeq = new TreeMap<>();
        for (int i = 0; i < witnesses.size(); i++) {
            for (long seq : witnesses.get(i).eventSeqs()) {
                bySeq.computeIfAbsent(seq, s -> new ArrayList<>()).add(i + 1);
                Long write = sameWrite.get(seq);
                if (write != null && !bySeq.getOrDefault(write, List.of()).contains(i + 1)) {
                    bySeq.computeIfAbsent(write, s -> new ArrayList<>()).add(i + 1);
                }
            }
        }
        bySeq.replaceAll((seq, numbers) -> List.copyOf(numbers));
        return new Highlights(witnesses, bySeq, sameWrite);
    }

    /** Other witnesses on the same timeline: its events' ties to their writes kept. */
    public Highlights with(List<Witness> others) {
        return of(others, sameWrite);
    }

    public boolean isEmpty() {
        return witnesses.isEmpty();
    }

    public boolean contains(long seq) {
        return witnessNumbersBySeq.containsKey(seq);
    }

    /** The numbers (1-based) of the witnesses that include event {@code seq}; empty if none. */
    public List<Integer> numbersOf(long seq) {
        return witnessNumbersBySeq.getOrDefault(seq, List.of());
    }

    /** True if any event bounding {@code span} is in a witness. */
    public boolean contains(Span span) {
        for (long seq : span.seqs()) {
            if (contains(seq)) {
                return true;
            }
        }
        return false;
    }

    /** True if {@code mark} is a single write that is in a witness. */
    public boolean contains(Mark mark) {
        return mark instanceof Mark.Write w && contains(w.seq());
    }

    /** The witness numbers of the events bounding {@code span}, ascending, without repeats. */
    public List<Integer> numbersOf(Span span) {
        return span.seqs().stream().flatMap(s -> numbersOf(s).stream()).distinct().sorted().toList();
    }
}

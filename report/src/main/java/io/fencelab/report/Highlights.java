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
 */
public record Highlights(List<Witness> witnesses, Map<Long, List<Integer>> witnessNumbersBySeq) {

    public static final Highlights NONE = new Highlights(List.of(), Map.of());

    public Highlights {
        witnesses = List.copyOf(witnesses);
        witnessNumbersBySeq = Collections.unmodifiableMap(new TreeMap<>(witnessNumbersBySeq));
    }

    public static Highlights of(List<Witness> witnesses) {
        TreeMap<Long, List<Integer>> bySeq = new TreeMap<>();
        for (int i = 0; i < witnesses.size(); i++) {
            for (long seq : witnesses.get(i).eventSeqs()) {
                bySeq.computeIfAbsent(seq, s -> new ArrayList<>()).add(i + 1);
            }
        }
        bySeq.replaceAll((seq, numbers) -> List.copyOf(numbers));
        return new Highlights(witnesses, bySeq);
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

package io.fencelab.engine.check;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * Every write outcome judged so far, in seq order: an immutable view of an append-only ledger, so a
 * {@link Judgement} taken while a run goes on costs nothing to make and never changes afterwards.
 */
public final class WriteClasses {

    static final WriteClasses NONE = new WriteClasses(new long[0], new WriteJudgement[0], 0);

    private final long[] seqs;
    private final WriteJudgement[] entries;
    private final int size;

    private WriteClasses(long[] seqs, WriteJudgement[] entries, int size) {
        this.seqs = seqs;
        this.entries = entries;
        this.size = size;
    }

    /** The judgement of write outcome {@code seq}, or null if that event is not one (or not judged yet). */
    public WriteJudgement of(long seq) {
        int i = Arrays.binarySearch(seqs, 0, size, seq);
        return i >= 0 ? entries[i] : null;
    }

    /** The class of write outcome {@code seq}, or null as in {@link #of}. */
    public WriteClass classOf(long seq) {
        WriteJudgement j = of(seq);
        return j == null ? null : j.kind();
    }

    public int size() {
        return size;
    }

    /** All of them, in seq order. */
    public List<WriteJudgement> all() {
        return new AbstractList<>() {
            @Override
            public WriteJudgement get(int index) {
                if (index >= size) {
                    throw new IndexOutOfBoundsException(index);
                }
                return entries[index];
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /**
     * The ledger the checker appends to. Entries below a snapshot's size are never written again
     * and a growing ledger copies into new arrays, so a snapshot stays valid without copying.
     */
    static final class Ledger {
        private long[] seqs = new long[64];
        private WriteJudgement[] entries = new WriteJudgement[64];
        private int size;

        void add(WriteJudgement judgement) {
            if (size == seqs.length) {
                seqs = Arrays.copyOf(seqs, size * 2);
                entries = Arrays.copyOf(entries, size * 2);
            }
            seqs[size] = judgement.seq();
            entries[size] = judgement;
            size++;
        }

        WriteClasses snapshot() {
            return new WriteClasses(seqs, entries, size);
        }
    }
}

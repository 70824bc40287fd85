package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Shrinks a {@link Timeline}'s crowded lanes to what can usefully be drawn (see {@link Timeline#aggregated}). */
final class TimelineAggregator {

    /** Within the detail windows, a lane keeps up to this many times its limit of marks (and of spans per kind) one by one. */
    static final int DETAIL_FACTOR = 4;

    private final Highlights highlights;
    private final int max;
    private final long bucketMicros;
    private final List<TimelineZoom.Window> detail;
    private boolean changed;

    private TimelineAggregator(Highlights highlights, int max, long bucketMicros, List<TimelineZoom.Window> detail) {
        this.highlights = highlights;
        this.max = max;
        this.bucketMicros = bucketMicros;
        this.detail = List.copyOf(detail);
    }

    static Timeline aggregate(Timeline t, int maxMarksPerLane) {
        return aggregate(t, maxMarksPerLane, List.of());
    }

    /**
     * As {@link #aggregate(Timeline, int)}, but marks, spans and steps within the {@code detail} windows
     * (the report's zoom windows) stay one by one, so a zoomed view shows them as they were.
     */
    static Timeline aggregate(Timeline t, int maxMarksPerLane, List<TimelineZoom.Window> detail) {
        if (maxMarksPerLane < 1) {
            throw new IllegalArgumentException("a lane must be allowed at least one mark, not " + maxMarksPerLane);
        }
        long bucket = Math.max(1, Math.ceilDiv(Math.max(1, t.runMicros()), maxMarksPerLane));
        TimelineAggregator a = new TimelineAggregator(t.highlights(), maxMarksPerLane, bucket, detail);
        List<HolderLane> holders = t.holders().stream()
                .map(l -> new HolderLane(l.holder(), a.spans(l.spans()), a.marks(l.marks()), l.agent()))
                .toList();
        List<ResourceLane> resources = t.resources().stream()
                .map(l -> new ResourceLane(l.resource(), a.steps(l.steps()), a.marks(l.marks())))
                .toList();
        if (!a.changed) {
            return t;
        }
        return new Timeline(t.runMicros(), holders, resources, t.globalFaults(), t.changes(), t.highlights(), bucket);
    }

    /**
     * Highlighted writes stay individual (up to half the limit, so a lane stays bounded even in a run
     * with a witness per write); the rest are counted per kind per bucket.
     */
    private List<Mark> marks(List<Mark> marks) {
        if (marks.size() <= max) {
            return marks;
        }
        changed = true;
        List<Mark> out = new ArrayList<>();
        TreeMap<Long, long[]> counts = new TreeMap<>();
        int keptHighlighted = 0;
        int keptInDetail = 0;
        for (Mark m : marks) {
            switch (m) {
                case Mark.Write w -> {
                    if (highlights.contains(w) && keptHighlighted < max / 2) {
                        out.add(w);
                        keptHighlighted++;
                    } else if (inDetail(w.atMicros(), w.atMicros()) && keptInDetail < max * DETAIL_FACTOR) {
                        out.add(w);
                        keptInDetail++;
                    } else {
                        counts.computeIfAbsent(bucketOf(w.atMicros()), b -> new long[WriteClass.values().length])
                                [w.kind().ordinal()]++;
                    }
                }
                case Mark.Bucket b -> {
                    long[] c = counts.computeIfAbsent(bucketOf(b.startMicros()), k -> new long[WriteClass.values().length]);
                    for (WriteClass kind : WriteClass.values()) {
                        c[kind.ordinal()] += b.count(kind);
                    }
                }
            }
        }
        counts.forEach((index, c) -> out.add(new Mark.Bucket(index * bucketMicros, (index + 1) * bucketMicros,
                c[WriteClass.ACCEPTED.ordinal()], c[WriteClass.REJECTED_STALE.ordinal()], c[WriteClass.MISSING.ordinal()],
                c[WriteClass.OUT_OF_ORDER.ordinal()], c[WriteClass.STALE_OVERWRITE.ordinal()])));
        out.sort(Comparator.comparingLong(Mark::startMicros));
        return out;
    }

    /**
     * Per kind beyond the limit: spans closer than a bucket are merged into one {@link Span.Coalesced};
     * highlighted spans stay individual, drawn over the merged ones.
     */
    private List<Span> spans(List<Span> spans) {
        Map<Span.Kind, List<Span>> byKind = new EnumMap<>(Span.Kind.class);
        for (Span s : spans) {
            byKind.computeIfAbsent(s.kind(), k -> new ArrayList<>()).add(s);
        }
        if (byKind.values().stream().allMatch(list -> list.size() <= max)) {
            return spans;
        }
        changed = true;
        List<Span> out = new ArrayList<>();
        byKind.forEach((kind, list) -> out.addAll(list.size() <= max ? list : coalesce(kind, list)));
        return out;
    }

    private List<Span> coalesce(Span.Kind kind, List<Span> spans) {
        List<Span> kept = new ArrayList<>();
        List<Span> merged = new ArrayList<>();
        long start = 0;
        long end = 0;
        int count = 0;
        int keptInDetail = 0;
        for (Span s : spans.stream().sorted(Comparator.comparingLong(Span::startMicros)).toList()) {
            if (!(s instanceof Span.Coalesced) && inDetail(s.startMicros(), s.endMicros()) && keptInDetail < max * DETAIL_FACTOR) {
                // Drawn as it was; the group before it ends here, so none is drawn over it.
                merged.add(s);
                keptInDetail++;
                if (count > 0) {
                    merged.add(new Span.Coalesced(kind, start, end, count));
                    count = 0;
                }
                continue;
            }
            if (highlights.contains(s) && kept.size() < max / 2) {
                kept.add(s);
            }
            int n = s instanceof Span.Coalesced c ? c.count() : 1;
            if (count > 0 && s.startMicros() <= end + bucketMicros) {
                end = Math.max(end, s.endMicros());
                count += n;
            } else {
                if (count > 0) {
                    merged.add(new Span.Coalesced(kind, start, end, count));
                }
                start = s.startMicros();
                end = s.endMicros();
                count = n;
            }
        }
        if (count > 0) {
            merged.add(new Span.Coalesced(kind, start, end, count));
        }
        merged.addAll(kept);
        return merged;
    }

    /** The last step in each bucket: the series only rises, so this keeps its shape and its end. */
    private List<TokenStep> steps(List<TokenStep> steps) {
        if (steps.size() <= max) {
            return steps;
        }
        changed = true;
        TreeMap<Long, TokenStep> last = new TreeMap<>();
        List<TokenStep> inDetail = new ArrayList<>();
        for (TokenStep s : steps) {
            if (inDetail(s.atMicros(), s.atMicros()) && inDetail.size() < max * DETAIL_FACTOR) {
                inDetail.add(s);
            } else {
                last.put(bucketOf(s.atMicros()), s);
            }
        }
        List<TokenStep> out = new ArrayList<>(last.values());
        out.addAll(inDetail);
        out.sort(Comparator.comparingLong(TokenStep::atMicros).thenComparingLong(TokenStep::seq));
        return out;
    }

    /** Whether {@code startMicros}–{@code endMicros} meets a detail window. */
    private boolean inDetail(long startMicros, long endMicros) {
        for (TimelineZoom.Window w : detail) {
            if (startMicros <= w.toMicros() && endMicros >= w.fromMicros()) {
                return true;
            }
        }
        return false;
    }

    private long bucketOf(long micros) {
        return Math.floorDiv(micros, bucketMicros);
    }
}

package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.clock.RunTimes;
import java.util.List;
import java.util.TreeSet;

/** The timeline's words: hover tips and short labels for its spans and write marks, apart from where they are drawn. */
final class TimelineTips {

    private TimelineTips() {
    }

    static String endText(Span.HeldEnd end) {
        return switch (end) {
            case EXPIRED -> "expired";
            case RELEASED -> "released";
            case RUN_END -> "held at the end";
        };
    }

    static String coalescedTip(Span.Coalesced c, String holder) {
        String what = switch (c.kind()) {
            case HELD -> "leases held";
            case BELIEVED -> "beliefs";
            case GAP -> "gaps (believed, not held)";
            case PAUSE -> "pauses";
            case FAULT -> "faults";
        };
        return "%s: %d %s between %s (grouped; every one is in events.jsonl)".formatted(holder, c.count(), what,
                RunTimes.range(c.startMicros(), c.endMicros()));
    }

    /** What a write mark says when there is room for words. */
    static String wordedLabel(Mark.Write w, boolean holderLane) {
        String who = holderLane ? "" : w.holder() + ": ";
        return who + switch (w.kind()) {
            case ACCEPTED -> w.token() + " accepted";
            case REJECTED_STALE -> w.highestBefore() == null ? w.token() + " rejected as stale"
                    : w.token() + " rejected: " + w.highestBefore() + " is newer";
            case MISSING -> w.token() + ": missing";
            case OUT_OF_ORDER -> w.token() + ": out of order";
            case STALE_OVERWRITE -> w.token() + " overwrote " + w.highestBefore();
        };
    }

    static String writeTip(Mark.Write w, boolean holderLane) {
        String tip = holderLane
                ? "%s: %s's write with token %d to %s: %s".formatted(RunTimes.seconds(w.atMicros()), w.holder(), w.token(),
                        w.resource(), Palette.describe(w.kind()))
                : "%s: %s's write with token %d: %s".formatted(RunTimes.seconds(w.atMicros()), w.holder(), w.token(),
                        Palette.describe(w.kind()));
        if (w.highestBefore() != null && (w.kind() == WriteClass.REJECTED_STALE || w.kind() == WriteClass.STALE_OVERWRITE)) {
            tip += " (the resource had accepted token " + w.highestBefore() + ")";
        }
        return tip + " [seq " + w.seq() + "]";
    }

    /** {@code witness 1, 2} when the lane holds events of witnesses 1 and 2; null when none. */
    static String witnessTag(Timeline t, HolderLane lane) {
        if (t.highlights().isEmpty()) {
            return null;
        }
        TreeSet<Integer> numbers = new TreeSet<>();
        for (Span s : lane.spans()) {
            numbers.addAll(t.highlights().numbersOf(s));
        }
        for (Mark m : lane.marks()) {
            if (m instanceof Mark.Write w) {
                numbers.addAll(t.highlights().numbersOf(w.seq()));
            }
        }
        if (numbers.isEmpty()) {
            return null;
        }
        // Short enough for the label column: "witness 3", "witnesses 1, 2", "witnesses 82–84", "witnesses 7, 90…".
        List<Integer> n = List.copyOf(numbers);
        if (n.size() == 1) {
            return "witness " + n.getFirst();
        }
        if (n.getLast() - n.getFirst() == n.size() - 1 && n.size() > 2) {
            return "witnesses " + n.getFirst() + "–" + n.getLast();
        }
        return "witnesses " + n.get(0) + ", " + n.get(1) + (n.size() > 2 ? "…" : "");
    }
}

package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The lanes a report draws when a run has more than a page can show: lanes with witness events
 * first, then lanes with refused or stale writes, then the rest, each group in timeline order, and
 * the chosen lanes shown in timeline order. What is left out is counted, and stays in the event log.
 */
record LaneSelection(Timeline shown, int hiddenHolders, int hiddenResources) {

    static LaneSelection of(Timeline t, int maxHolders, int maxResources) {
        List<HolderLane> holders = pick(t.holders(), maxHolders,
                lane -> lane.marks().stream().anyMatch(t.highlights()::contains)
                        || lane.spans().stream().anyMatch(t.highlights()::contains),
                lane -> lane.writes().stream().anyMatch(w -> w.kind() != WriteClass.ACCEPTED));
        List<ResourceLane> resources = pick(t.resources(), maxResources,
                lane -> lane.marks().stream().anyMatch(t.highlights()::contains),
                lane -> lane.writes().stream().anyMatch(w -> w.kind() != WriteClass.ACCEPTED));
        Timeline shown = new Timeline(t.runMicros(), holders, resources, t.globalFaults(), t.changes(), t.highlights(),
                t.bucketMicros());
        return new LaneSelection(shown, t.holders().size() - holders.size(), t.resources().size() - resources.size());
    }

    @SafeVarargs
    private static <L> List<L> pick(List<L> lanes, int max, Predicate<L>... priorities) {
        if (lanes.size() <= max) {
            return lanes;
        }
        // By identity: lanes are unique, and hashing a lane would walk all its spans.
        Set<L> chosen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Predicate<L> p : priorities) {
            for (L lane : lanes) {
                if (chosen.size() < max && p.test(lane)) {
                    chosen.add(lane);
                }
            }
        }
        for (L lane : lanes) {
            if (chosen.size() < max) {
                chosen.add(lane);
            }
        }
        List<L> inOrder = new ArrayList<>(max);
        for (L lane : lanes) {
            if (chosen.contains(lane)) {
                inOrder.add(lane);
            }
        }
        return inOrder;
    }
}

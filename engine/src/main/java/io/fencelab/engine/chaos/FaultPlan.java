package io.fencelab.engine.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Expands fault specs into concrete occurrences for a run, before it starts. The same specs, holders,
 * duration and seed always give the same plan, which is what makes simulated runs replayable and
 * lets live runs inject the same faults.
 */
public final class FaultPlan {

    private FaultPlan() {
    }

    /** One occurrence and the spec it came from (a live run cancels a spec's occurrences when it is removed). */
    public record Planned(FaultSpec spec, FaultOccurrence occurrence) {}

    public static List<FaultOccurrence> expand(List<FaultSpec> specs, List<String> holders, Duration runLength,
                                               long seed) {
        return expandTagged(specs, holders, runLength, seed).stream().map(Planned::occurrence).toList();
    }

    /** {@link #expand}, each occurrence with its spec. */
    public static List<Planned> expandTagged(List<FaultSpec> specs, List<String> holders, Duration runLength,
                                             long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        List<Planned> plan = new ArrayList<>();
        for (FaultSpec spec : specs) {
            List<String> targets = FaultSpec.ALL.equals(spec.target()) ? holders : List.of(spec.target());
            for (String target : targets) {
                // One generator per (spec, target) so adding a holder does not reshuffle the others.
                SplittableRandom forTarget = random.split();
                switch (spec.start()) {
                    case FaultStart.At at -> plan.add(new Planned(spec, new FaultOccurrence(spec.kind(), target,
                            at.at(), spec.duration().sample(forTarget), spec.amount())));
                    case FaultStart.Every every -> {
                        Duration t = every.gap().sample(forTarget);
                        while (t.compareTo(runLength) < 0) {
                            Duration length = spec.duration().sample(forTarget);
                            plan.add(new Planned(spec, new FaultOccurrence(spec.kind(), target, t, length,
                                    spec.amount())));
                            Duration gap = every.gap().sample(forTarget);
                            t = t.plus(length).plus(gap.isZero() ? Duration.ofMillis(1) : gap);
                        }
                    }
                }
            }
        }
        plan.sort(Comparator.comparing((Planned p) -> p.occurrence().start())
                .thenComparing(p -> p.occurrence().target()).thenComparing(p -> p.occurrence().kind()));
        return List.copyOf(plan);
    }
}

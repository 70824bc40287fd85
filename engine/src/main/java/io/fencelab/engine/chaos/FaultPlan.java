package io.fencelab.engine.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Expands fault specs into concrete occurrences for a run, before it starts (or, for a spec a live
 * change adds, from the run time it is added: {@link #expandFrom}). The same specs, holders,
 * duration and seed always give the same plan, which is what makes simulated runs replayable and
 * lets live runs inject the same faults.
 */
public final class FaultPlan {

    /** The smallest gap between two occurrences of a repeating fault: a zero gap drawn becomes this. */
    public static final Duration SMALLEST_GAP = Duration.ofMillis(1);

    private FaultPlan() {
    }

    /** One occurrence and the spec it came from (a live run cancels a spec's occurrences when it is removed). */
    public record Planned(FaultSpec spec, FaultOccurrence occurrence) {}

    public static List<FaultOccurrence> expand(List<FaultSpec> specs, List<String> holders, Duration runLength,
                                               long seed) {
        return expandTagged(specs, holders, runLength, seed).stream().map(Planned::occurrence).toList();
    }

    /**
     * The occurrences of {@code spec} when it is added to a run already at run time {@code from}:
     * scripted ones keep their times, clipped to start no earlier than {@code from} (one that has
     * healed by then is left out; a connection kill due exactly now still happens), and repeating
     * ones are drawn afresh from {@code from} to the end of the run.
     */
    public static List<FaultOccurrence> expandFrom(FaultSpec spec, List<String> holders, Duration from,
                                                   Duration runLength, long seed) {
        List<FaultOccurrence> plan = new ArrayList<>();
        switch (spec.start()) {
            case FaultStart.At at -> {
                for (FaultOccurrence o : expand(List.of(spec), holders, runLength, seed)) {
                    boolean killNow = o.kind() == FaultKind.CONNECTION_KILL && o.start().equals(from);
                    if (o.end().compareTo(from) <= 0 && !killNow) {
                        continue; // its time has passed
                    }
                    Duration start = o.start().compareTo(from) < 0 ? from : o.start();
                    plan.add(new FaultOccurrence(o.kind(), o.target(), start, o.end().minus(start), o.amount()));
                }
            }
            case FaultStart.Every every -> {
                for (FaultOccurrence o : expand(List.of(spec), holders, runLength.minus(from), seed)) {
                    plan.add(new FaultOccurrence(o.kind(), o.target(), o.start().plus(from), o.length(), o.amount()));
                }
            }
        }
        return List.copyOf(plan);
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
                            t = t.plus(length).plus(gap.isZero() ? SMALLEST_GAP : gap);
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

package io.fencelab.engine.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Expands fault specs into concrete occurrences for a run: as {@link Sequence}s that a run draws from
 * as it goes, or whole ({@link #expand}; for a spec a live change adds, from the run time it is
 * added: {@link #expandFrom}). The same specs, holders,
 * duration and seed always give the same plan, which is what makes simulated runs replayable and
 * lets live runs inject the same faults.
 */
public final class FaultPlan {

    /** The smallest gap between two occurrences of a repeating fault: a zero gap drawn becomes this. */
    public static final Duration SMALLEST_GAP = Duration.ofMillis(1);

    private FaultPlan() {
    }

    /**
     * One occurrence, the spec it came from (a live run cancels a spec's occurrences when it is
     * removed) and its place in the plan.
     */
    public record Planned(FaultSpec spec, FaultOccurrence occurrence, Place place) {}

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
            case FaultStart.OnGrant onGrant -> {
                // no time: the run pauses the holder at its grant (io.fencelab.engine.run.GrantPauses)
            }
        }
        return List.copyOf(plan);
    }

    /** {@link #expand}, each occurrence with its spec, in plan order. */
    public static List<Planned> expandTagged(List<FaultSpec> specs, List<String> holders, Duration runLength,
                                             long seed) {
        List<Planned> plan = new ArrayList<>();
        for (Sequence s : sequences(specs, holders, runLength, seed)) {
            while (s.hasNext()) {
                plan.add(s.next());
            }
        }
        plan.sort(Comparator.comparing(Planned::place));
        return List.copyOf(plan);
    }

    /**
     * The plan as one {@link Sequence} per spec and target, each to be drawn as the run goes: the
     * occurrences they give, put in {@link Place} order, are exactly {@link #expandTagged}'s. A run
     * keeps one pending occurrence per sequence instead of the whole plan.
     */
    public static List<Sequence> sequences(List<FaultSpec> specs, List<String> holders, Duration runLength,
                                           long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        List<Sequence> sequences = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            FaultSpec spec = specs.get(i);
            List<String> targets = FaultSpec.ALL.equals(spec.target()) ? holders : List.of(spec.target());
            for (int j = 0; j < targets.size(); j++) {
                // One generator per (spec, target) so adding a holder does not reshuffle the others.
                sequences.add(new Sequence(spec, targets.get(j), i, j, random.split(), runLength));
            }
        }
        return List.copyOf(sequences);
    }

    /**
     * Where an occurrence stands in a run's plan: by start, then target and kind, then the order the
     * specs and their targets are written in, then (within one spec and target) by number. Two
     * occurrences due at the same instant act in this order, however late the second was drawn.
     */
    public record Place(Duration start, String target, FaultKind kind, int spec, int targetIndex, long number)
            implements Comparable<Place> {

        private static final Comparator<Place> ORDER = Comparator.comparing(Place::start)
                .thenComparing(Place::target).thenComparing(Place::kind).thenComparingInt(Place::spec)
                .thenComparingInt(Place::targetIndex).thenComparingLong(Place::number);

        @Override
        public int compareTo(Place other) {
            return ORDER.compare(this, other);
        }
    }

    /**
     * The occurrences of one spec on one target, in start order, drawn one at a time from their own
     * generator: a length when one is taken, then the gap to the next.
     */
    public static final class Sequence {
        private final FaultSpec spec;
        private final String target;
        private final int specIndex;
        private final int targetIndex;
        private final SplittableRandom random;
        private final Duration runLength;
        /** When the next occurrence starts; null when there is none. */
        private Duration next;
        private long taken;

        private Sequence(FaultSpec spec, String target, int specIndex, int targetIndex, SplittableRandom random,
                         Duration runLength) {
            this.spec = spec;
            this.target = target;
            this.specIndex = specIndex;
            this.targetIndex = targetIndex;
            this.random = random;
            this.runLength = runLength;
            this.next = switch (spec.start()) {
                case FaultStart.At at -> at.at();
                case FaultStart.Every every -> before(every.gap().sample(random));
                case FaultStart.OnGrant onGrant -> null; // timed by the grant, not by the plan
            };
        }

        public FaultSpec spec() {
            return spec;
        }

        public String target() {
            return target;
        }

        public boolean hasNext() {
            return next != null;
        }

        /** The next occurrence; the one after it is drawn at once, so {@link #hasNext} knows. */
        public Planned next() {
            if (next == null) {
                throw new java.util.NoSuchElementException("no more occurrences of " + spec.describe() + " on " + target);
            }
            Duration start = next;
            Duration length = spec.duration().sample(random);
            Planned planned = new Planned(spec, new FaultOccurrence(spec.kind(), target, start, length, spec.amount()),
                    new Place(start, target, spec.kind(), specIndex, targetIndex, taken++));
            next = switch (spec.start()) {
                case FaultStart.At at -> null;
                case FaultStart.OnGrant onGrant -> null;
                case FaultStart.Every every -> {
                    Duration gap = every.gap().sample(random);
                    yield before(start.plus(length).plus(gap.isZero() ? SMALLEST_GAP : gap));
                }
            };
            return planned;
        }

        private Duration before(Duration t) {
            return t.compareTo(runLength) < 0 ? t : null;
        }
    }
}

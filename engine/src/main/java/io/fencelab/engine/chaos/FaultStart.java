package io.fencelab.engine.chaos;

import java.time.Duration;

/**
 * When a fault happens: at a scripted time, repeatedly on a seeded random schedule, or (a pause only)
 * at the moment its holder is next granted a lease.
 */
public sealed interface FaultStart {

    /** Once, at run time {@code at}. */
    record At(Duration at) implements FaultStart {}

    /**
     * Again and again: the first after a gap drawn from {@code gap}, each next one a fresh gap after
     * the previous one healed, until the run ends.
     */
    record Every(Distribution gap) implements FaultStart {}

    /**
     * Once, when the holder is next granted a lease: where the service grants and counts in two steps
     * (Redis's lock, then {@code INCR}), between the two; elsewhere just after the grant, before the
     * holder does anything else. A {@code PAUSE} of one named holder only: no time can aim there.
     */
    record OnGrant() implements FaultStart {}
}

package io.fencelab.engine.chaos;

import java.time.Duration;

/** When a fault happens: at a scripted time, or repeatedly on a seeded random schedule. */
public sealed interface FaultStart {

    /** Once, at run time {@code at}. */
    record At(Duration at) implements FaultStart {}

    /**
     * Again and again: the first after a gap drawn from {@code gap}, each next one a fresh gap after
     * the previous one healed, until the run ends.
     */
    record Every(Distribution gap) implements FaultStart {}
}

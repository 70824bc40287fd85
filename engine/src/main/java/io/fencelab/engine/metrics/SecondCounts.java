package io.fencelab.engine.metrics;

/** The counts of one second of run time: events with {@code atMicros / 1_000_000 == second}. */
public record SecondCounts(long second, EventCounts counts) {}

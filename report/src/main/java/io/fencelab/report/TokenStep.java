package io.fencelab.report;

/** The highest token a resource has accepted rose to {@code token} with {@code holder}'s write at {@code atMicros}. */
public record TokenStep(long atMicros, long seq, long token, String holder) {}

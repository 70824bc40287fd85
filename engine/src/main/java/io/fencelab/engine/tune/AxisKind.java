package io.fencelab.engine.tune;

/** What a varied parameter counts: a duration (held in seconds), a whole number, or a plain number. */
public enum AxisKind {
    DURATION,
    INTEGER,
    NUMBER
}

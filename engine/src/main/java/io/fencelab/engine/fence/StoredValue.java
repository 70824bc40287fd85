package io.fencelab.engine.fence;

/** A resource as stored: its value, the greatest token accepted and the last sequence under it (or null). */
public record StoredValue<V>(V value, long token, Long seq) {}

package io.fencelab.engine.resource;

/**
 * A resource as the database holds it at the end of a run: its greatest stored token and the
 * {@code check.ValueDigest} of its value (never the value itself).
 */
public record ResourceState(TargetKind target, String scope, String key, long token, String valueDigest) {

    public ResourceId id() {
        return new ResourceId(target, scope, key);
    }
}

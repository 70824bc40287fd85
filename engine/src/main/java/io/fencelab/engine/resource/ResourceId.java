package io.fencelab.engine.resource;

import java.util.Comparator;
import java.util.Objects;

/** A fenced resource: tokens are compared only within one of these. */
public record ResourceId(TargetKind target, String scope, String key) implements Comparable<ResourceId> {

    private static final Comparator<ResourceId> ORDER = Comparator.comparing(ResourceId::target)
            .thenComparing(ResourceId::scope).thenComparing(ResourceId::key);

    public ResourceId {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(key, "key");
    }

    @Override
    public int compareTo(ResourceId other) {
        return ORDER.compare(this, other);
    }

    /** As reports print it: {@code ROW report/report-1}. */
    @Override
    public String toString() {
        return target + " " + scope + "/" + key;
    }
}

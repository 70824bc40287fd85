package io.fencelab.engine.resource;

/**
 * The key of a resource in a user's SQL fence: {@code <fence name>:<key>}, so one run's fences keep
 * their resources apart while events and reports carry a target and a key as for any other target
 * ({@code SQL report:17}). The key bound as {@code :key} is the part after the first colon.
 */
public final class SqlKey {

    private SqlKey() {
    }

    /** {@code report} and {@code 17} give {@code report:17}. */
    public static String of(String fence, String key) {
        return fence + ":" + key;
    }

    /** The fence's name: what comes before the first colon. */
    public static String fence(String resourceKey) {
        int colon = resourceKey.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not a SQL fence key (fence:key): " + resourceKey);
        }
        return resourceKey.substring(0, colon);
    }

    /** The user's key, bound as {@code :key}: what comes after the first colon. */
    public static String key(String resourceKey) {
        return resourceKey.substring(fence(resourceKey).length() + 1);
    }
}

package io.fencelab.engine.fence;

/**
 * What the user's {@code read} statement found just after a write, in the write's own transaction:
 * the stored token exactly as the column holds it (a decimal string: a {@code text} or {@code float8}
 * column must show what it really stores) and the body. {@link #ABSENT} when the row does not exist.
 */
public record ReadBack(String token, String body) {

    public static final ReadBack ABSENT = new ReadBack(null, null);

    public boolean exists() {
        return this != ABSENT && (token != null || body != null);
    }
}

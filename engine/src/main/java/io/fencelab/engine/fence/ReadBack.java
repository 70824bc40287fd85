package io.fencelab.engine.fence;

import java.math.BigDecimal;
import java.math.RoundingMode;

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

    /** Whether the stored token is numerically {@code expected} (a float8 column reads 2^53 + 1 back as 2^53). */
    public boolean holdsToken(long expected) {
        try {
            return token != null && new BigDecimal(token.strip()).compareTo(BigDecimal.valueOf(expected)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The stored token as a long: exact when it is an integer in range, else the nearest (clamped to the
     * long range); 0 when there is none or it is not a number at all (a {@code text} column holding
     * something else).
     */
    public long tokenAsLong() {
        if (token == null) {
            return 0;
        }
        try {
            BigDecimal value = new BigDecimal(token.strip()).setScale(0, RoundingMode.HALF_EVEN);
            if (value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                return Long.MAX_VALUE;
            }
            return value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 ? Long.MIN_VALUE : value.longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            return 0;
        }
    }
}

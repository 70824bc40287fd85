package io.fencelab.engine.lease;

/**
 * A scope issued {@link Long#MAX_VALUE} and can issue no further token. Wrapping to a low value
 * would let every old holder outrank the new ones, so acquisition fails instead.
 */
public final class TokenExhaustedException extends RuntimeException {
    private final String scope;

    public TokenExhaustedException(String scope) {
        super("scope '" + scope + "' has issued token " + Long.MAX_VALUE
                + ", the largest possible; it cannot grant another lease (tokens never wrap)");
        this.scope = scope;
    }

    public String scope() {
        return scope;
    }
}

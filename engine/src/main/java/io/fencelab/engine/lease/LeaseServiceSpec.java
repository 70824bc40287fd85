package io.fencelab.engine.lease;

import java.util.Objects;

/**
 * A run's lease service: which one, where its tokens come from, and where it is.
 *
 * @param endpoints where the service answers ({@code http://10.0.0.5:2379,http://10.0.0.6:2379},
 *                  {@code zk1:2181,zk2:2181}, {@code redis://:secret@cache:6379}); null: Fencelab
 *                  starts a server of its own for the run and fills this in. A machine's setting,
 *                  never written to a scenario file, a report or a log.
 */
public record LeaseServiceSpec(ServiceKind kind, TokenRecipe token, String endpoints) {

    /** The engine's own PostgreSQL lease table. */
    public static final LeaseServiceSpec POSTGRES = new LeaseServiceSpec(ServiceKind.POSTGRES, TokenRecipe.COUNTER, null);

    public LeaseServiceSpec {
        Objects.requireNonNull(kind, "kind");
        token = token == null ? kind.defaultToken() : token;
        if (token.service() != kind) {
            throw new IllegalArgumentException("token '" + token.key() + "' is not one of " + kind.key()
                    + "'s (its tokens: " + kind.tokens().stream().map(TokenRecipe::key).toList() + ")");
        }
        endpoints = endpoints == null || endpoints.isBlank() || kind == ServiceKind.POSTGRES ? null : endpoints.strip();
    }

    public boolean real() {
        return kind != ServiceKind.POSTGRES;
    }

    /** Whether Fencelab must start a server for the run. */
    public boolean needsServer() {
        return real() && endpoints == null;
    }

    public LeaseServiceSpec withEndpoints(String value) {
        return new LeaseServiceSpec(kind, token, value);
    }

    /** Never the endpoints: they may hold a password. */
    @Override
    public String toString() {
        return kind.key() + " (token: " + token.key() + (endpoints == null ? "" : ", at the given endpoints") + ")";
    }
}

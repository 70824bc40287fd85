package io.fencelab.engine.lease;

import java.util.Objects;
import java.util.Optional;

/**
 * A run's lease service: which one, where its tokens come from, where it is, and how many members
 * the server Fencelab starts has.
 *
 * @param endpoints where the service answers ({@code http://10.0.0.5:2379,http://10.0.0.6:2379},
 *                  {@code zk1:2181,zk2:2181}, {@code redis://:secret@cache:6379}); null: Fencelab
 *                  starts a server of its own for the run and fills this in. A machine's setting,
 *                  never written to a scenario file, a report or a log.
 * @param members   1, or 3 for an etcd or ZooKeeper ensemble that Fencelab starts ({@link #ENSEMBLE})
 */
public record LeaseServiceSpec(ServiceKind kind, TokenRecipe token, String endpoints, int members) {

    /** The engine's own PostgreSQL lease table. */
    public static final LeaseServiceSpec POSTGRES = new LeaseServiceSpec(ServiceKind.POSTGRES, TokenRecipe.COUNTER, null);

    /** The members of an ensemble Fencelab starts: the smallest that outlives one member's loss. */
    public static final int ENSEMBLE = 3;

    public LeaseServiceSpec {
        Objects.requireNonNull(kind, "kind");
        token = token == null ? kind.defaultToken() : token;
        if (token.service() != kind) {
            throw new IllegalArgumentException("token '" + token.key() + "' is not one of " + kind.key()
                    + "'s (its tokens: " + kind.tokens().stream().map(TokenRecipe::key).toList() + ")");
        }
        endpoints = endpoints == null || endpoints.isBlank() || kind == ServiceKind.POSTGRES ? null : endpoints.strip();
        membersProblem(kind, members).ifPresent(why -> {
            throw new IllegalArgumentException("lease.members: " + why);
        });
    }

    /** A single server (or the user's own, at {@code endpoints}). */
    public LeaseServiceSpec(ServiceKind kind, TokenRecipe token, String endpoints) {
        this(kind, token, endpoints, 1);
    }

    /** What is wrong with {@code members} members of {@code kind}, or empty: the one rule the compiler and the CLI share. */
    public static Optional<String> membersProblem(ServiceKind kind, long members) {
        if (members != 1 && members != ENSEMBLE) {
            return Optional.of(members + " is not a number of members (allowed: 1 or " + ENSEMBLE + ")");
        }
        if (members == ENSEMBLE && !kind.ensembles()) {
            return Optional.of(ENSEMBLE + " members is for etcd and zookeeper, not " + kind.key());
        }
        return Optional.empty();
    }

    public boolean real() {
        return kind != ServiceKind.POSTGRES;
    }

    /** Whether Fencelab must start a server for the run. */
    public boolean needsServer() {
        return real() && endpoints == null;
    }

    /** Whether the run's service is an ensemble with a leader to stop. */
    public boolean ensemble() {
        return members == ENSEMBLE;
    }

    public LeaseServiceSpec withEndpoints(String value) {
        return new LeaseServiceSpec(kind, token, value, members);
    }

    /** Never the endpoints: they may hold a password. */
    @Override
    public String toString() {
        return kind.key() + " (token: " + token.key() + (members == 1 ? "" : ", " + members + " members")
                + (endpoints == null ? "" : ", at the given endpoints") + ")";
    }
}

package io.fencelab.app.cli;

import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.lease.TokenRecipe;
import io.fencelab.engine.run.RunSpec;
import picocli.CommandLine.Option;

/**
 * Which lease service a run uses and where it is: the scenario's {@code lease.service} unless
 * overridden, and the user's own cluster instead of a server Fencelab starts.
 */
final class ServiceOptions {

    /** A Redis URL may hold a password: it can come from the environment rather than the command line. */
    static final String ENV_REDIS_URL = "FENCELAB_REDIS_URL";

    @Option(names = "--lease-service", paramLabel = "SERVICE",
            description = "Which service grants the leases: postgres, etcd, zookeeper or redis (default: the "
                    + "scenario's lease.service). A real one runs its own client (the profile etcd, zookeeper or "
                    + "redisson; another profile becomes that one with the same lease lifetime) in a live or process run.")
    String service;

    @Option(names = "--lease-members", paramLabel = "N",
            description = "How many members the etcd or ZooKeeper Fencelab starts has: 1, or 3 for an ensemble whose "
                    + "leader SERVICE_LEADER_STOP stops (default: the scenario's lease.members).")
    Integer members;

    @Option(names = "--lease-token", paramLabel = "RECIPE",
            description = "Where a real service's token comes from: create-revision (etcd), czxid or sequence "
                    + "(zookeeper), incr-after-lock or lua (redis).")
    String token;

    @Option(names = "--etcd-endpoints", paramLabel = "URLS",
            description = "Your etcd cluster (http://10.0.0.5:2379,http://10.0.0.6:2379) instead of one Fencelab starts.")
    String etcdEndpoints;

    @Option(names = "--zookeeper", paramLabel = "HOSTS",
            description = "Your ZooKeeper ensemble (zk1:2181,zk2:2181) instead of one Fencelab starts.")
    String zookeeper;

    @Option(names = "--redis-url", paramLabel = "URL",
            description = "Your Redis (redis://cache:6379) instead of one Fencelab starts; with a password, set "
                    + ENV_REDIS_URL + " instead so that it is not on the command line.")
    String redisUrl;

    /** {@code spec} on the service these options choose. */
    RunSpec apply(RunSpec spec) {
        LeaseServiceSpec current = spec.service();
        ServiceKind kind = current.kind();
        if (service != null) {
            kind = ServiceKind.named(service).orElseThrow(() -> new IllegalArgumentException("--lease-service must be "
                    + String.join(", ", ServiceKind.keys()) + ", was '" + service + "'"));
        }
        TokenRecipe recipe = kind == current.kind() ? current.token() : kind.defaultToken();
        if (token != null) {
            ServiceKind k = kind;
            recipe = TokenRecipe.named(token).filter(t -> t.service() == k).orElseThrow(() -> new IllegalArgumentException(
                    "--lease-token '" + token + "' is not a token of " + k.key() + " (its tokens: "
                            + String.join(", ", k.tokens().stream().map(TokenRecipe::key).toList()) + ")"));
        }
        String endpoints = switch (kind) {
            case POSTGRES -> null;
            case ETCD -> etcdEndpoints;
            case ZOOKEEPER -> zookeeper;
            case REDIS -> redisUrl != null ? redisUrl : System.getenv(ENV_REDIS_URL);
        };
        int size = members != null ? members : kind == current.kind() ? current.members() : 1;
        ServiceKind k = kind;
        LeaseServiceSpec.membersProblem(kind, size).ifPresent(why -> {
            throw new IllegalArgumentException("--lease-members: " + why + (members == null ? " (the scenario's "
                    + "lease.members, with --lease-service " + k.key() + ")" : ""));
        });
        LeaseServiceSpec chosen = new LeaseServiceSpec(kind, recipe, endpoints, size);
        if (chosen.equals(current)) {
            return spec;
        }
        return spec.toBuilder().lease(kind.clientOf(spec.lease())).service(chosen).build();
    }
}

package io.fencelab.services.spi;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.store.RealServices;
import io.fencelab.services.ServiceLeases;
import io.fencelab.services.ServiceServer;
import io.fencelab.services.etcd.EtcdLeases;
import io.fencelab.services.etcd.EtcdServer;
import io.fencelab.services.redis.RedisLeases;
import io.fencelab.services.redis.RedisServer;
import io.fencelab.services.zookeeper.ZooKeeperLeases;
import io.fencelab.services.zookeeper.ZooKeeperServer;
import java.time.Duration;

/** The real lease services, as the engine finds them ({@link java.util.ServiceLoader}): one class per service. */
public final class Services implements RealServices {

    @Override
    public ServiceServer start(ServiceKind kind, int members) {
        LeaseServiceSpec.membersProblem(kind, members).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        boolean ensemble = members > 1;
        return switch (kind) {
            case ETCD -> ensemble ? EtcdServer.ensemble(members) : EtcdServer.start();
            case ZOOKEEPER -> ensemble ? ZooKeeperServer.ensemble(members) : ZooKeeperServer.start();
            case REDIS -> RedisServer.start();
            case POSTGRES -> throw new IllegalArgumentException("PostgreSQL's leases are the run's own database's");
        };
    }

    @Override
    public ServiceLeases open(LeaseServiceSpec service, Duration lifetime, long runId, RunClock clock) {
        String at = service.endpoints();
        return switch (service.kind()) {
            case ETCD -> new EtcdLeases(at, runId, lifetime, clock);
            case ZOOKEEPER -> new ZooKeeperLeases(at, runId, lifetime, clock, switch (service.token()) {
                case SEQUENCE -> ZooKeeperLeases.TokenSource.SEQUENCE;
                default -> ZooKeeperLeases.TokenSource.CZXID;
            });
            case REDIS -> new RedisLeases(at, runId, lifetime, clock, switch (service.token()) {
                case LUA -> RedisLeases.TokenStep.LUA;
                default -> RedisLeases.TokenStep.INCR_AFTER_LOCK;
            });
            case POSTGRES -> throw new IllegalArgumentException("PostgreSQL's leases are the run's own store's");
        };
    }
}

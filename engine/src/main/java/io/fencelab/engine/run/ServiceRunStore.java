package io.fencelab.engine.run;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.store.LeaseStore;
import io.fencelab.engine.store.RealServices;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import java.util.List;
import java.util.Optional;

/**
 * A run whose leases a real service grants while its fenced resources stay in PostgreSQL: the token
 * the service gave goes into the fenced write, as it would in the user's system.
 */
final class ServiceRunStore implements RunStore {

    private final RunStore resources;
    private final RealServices.Leases leases;

    private ServiceRunStore(RunStore resources, RealServices.Leases leases) {
        this.resources = resources;
        this.leases = leases;
    }

    /** {@code store} itself for PostgreSQL's leases; with a real service, its leases on that service. */
    static RunStore over(RunStore store, RunSpec spec, RunClock clock) {
        if (!spec.service().real()) {
            return store;
        }
        if (spec.service().endpoints() == null) {
            store.close();
            throw new IllegalStateException("no address for the run's " + spec.service().kind().key()
                    + ": the run starts its server before it opens its store");
        }
        try {
            // The service's clock is real: a run played faster asks it for a shorter lifetime, as it does the table.
            java.time.Duration lifetime = spec.executor() == ExecutorKind.SIMULATED ? spec.leaseTtl()
                    : java.time.Duration.ofNanos(Math.round(spec.leaseTtl().toNanos() * spec.timeScale()));
            return new ServiceRunStore(store, RealServices.require().open(spec.service(), lifetime, store.runId(), clock));
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    @Override
    public long runId() {
        return resources.runId();
    }

    @Override
    public Optional<RunContext> runContext() {
        return resources.runContext();
    }

    @Override
    public String semantics() {
        return resources.semantics();
    }

    @Override
    public String describe() {
        return resources.describe() + "; leases from " + leases.describe() + ", tokens: " + leases.tokenSource();
    }

    @Override
    public LeaseStore leases() {
        return leases;
    }

    @Override
    public TargetStore<?> target(TargetKind kind, FencingMode mode, FirstWritePolicy firstWrite) {
        return resources.target(kind, mode, firstWrite);
    }

    @Override
    public TargetStore<String> userTarget(String fence) {
        return resources.userTarget(fence);
    }

    @Override
    public List<ResourceState> finalState() {
        return resources.finalState();
    }

    @Override
    public StoreSession openSession() {
        return resources.openSession();
    }

    @Override
    public void kill(StoreSession session) {
        resources.kill(session);
    }

    @Override
    public void stop() {
        resources.stop();
    }

    @Override
    public void start() {
        resources.start();
    }

    @Override
    public boolean isReachable() {
        return resources.isReachable();
    }

    @Override
    public Optional<String> restartRefusal() {
        return resources.restartRefusal();
    }

    @Override
    public void failpoints(io.fencelab.engine.failpoint.Failpoints<StoreSession> installed) {
        resources.failpoints(installed);
    }

    @Override
    public void close() {
        try {
            leases.close();
        } finally {
            resources.close();
        }
    }
}

package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.store.LeaseStore;
import io.fencelab.engine.store.StoreSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The one home of {@code PAUSE at: grant} ({@link FaultStart.OnGrant}): the holder stops at its next grant,
 * on the thread that acquires, between the grant and its token where the store takes them in two steps
 * ({@link LeaseStore#betweenGrantAndToken}); elsewhere once the grant is logged ({@link #told}), before the
 * holder does anything else, so the log keeps the grant at the time it was made. Its client's keep-alive
 * freezes with it ({@link LeaseStore#freeze}). The pause is published as a timed pause's is
 * ({@code PauseStarted}, {@code PauseEnded}). Every executor whose workers run in it uses this, each with its
 * own way to hold a thread.
 */
final class GrantPauses {

    /** How an executor holds a holder on its own thread until a run time while the rest of the run goes on. */
    @FunctionalInterface
    interface Stall {
        void until(String holder, long untilMicros);
    }

    static final String CAUSE = "pause fault at its grant";

    private final LeaseStore leases;
    /** The pauses not yet taken, by holder: each is taken once, at that holder's next grant. */
    private final Map<String, FaultSpec> armed = new ConcurrentHashMap<>();
    private final EventSink sink;
    private final LongSupplier nowMicros;
    private final Stall stall;
    private final SplittableRandom random;
    /** Where the store grants in one step: holders granted whose grant is not logged yet. */
    private final Set<String> granted = ConcurrentHashMap.newKeySet();
    /** The store the workers use: the run's, noting one-step grants. */
    private LeaseStore workersStore;

    private GrantPauses(LeaseStore leases, List<FaultSpec> pauses, EventSink sink, LongSupplier nowMicros, Stall stall,
                        long seed) {
        this.leases = leases;
        pauses.forEach(p -> armed.putIfAbsent(p.target(), p));
        this.sink = sink;
        this.nowMicros = nowMicros;
        this.stall = stall;
        this.random = new SplittableRandom(seed);
    }

    /** The pauses at a grant among {@code faults}. */
    static List<FaultSpec> of(List<FaultSpec> faults) {
        return faults.stream().filter(f -> f.kind() == FaultKind.PAUSE && f.start() instanceof FaultStart.OnGrant)
                .toList();
    }

    /** The pauses at a grant that {@code faults} hold for {@code leases}; null when they hold none. */
    static GrantPauses over(LeaseStore leases, List<FaultSpec> faults, EventSink sink, LongSupplier nowMicros,
                            Stall stall, long seed) {
        List<FaultSpec> pauses = of(faults);
        if (pauses.isEmpty()) {
            return null;
        }
        GrantPauses grants = new GrantPauses(leases, pauses, sink, nowMicros, stall, seed);
        boolean inside = leases.betweenGrantAndToken(grants::pause);
        grants.workersStore = inside ? leases : new NotingGrants(leases, grants.granted);
        return grants;
    }

    /** The lease store the workers use. */
    LeaseStore leases() {
        return workersStore;
    }

    /**
     * {@code holder}'s worker has logged its new lease or renewal: after a one-step grant, its pause (if it has
     * one) is now.
     */
    void told(String holder) {
        if (granted.remove(holder)) {
            pause(holder);
        }
    }

    /** {@code holder} was granted a lease and has not taken its token or acted yet: its pause, if it has one, is now. */
    private void pause(String holder) {
        FaultSpec pause = armed.remove(holder);
        if (pause == null) {
            return;
        }
        long length;
        synchronized (random) {
            length = RunCore.micros(pause.duration().sample(random));
        }
        long at = nowMicros.getAsLong();
        leases.freeze(holder);
        sink.publish(seq -> new Event.PauseStarted(seq, at, holder, length, CAUSE));
        try {
            stall.until(holder, at + length);
        } finally {
            leases.thaw(holder);
            sink.publish(seq -> new Event.PauseEnded(seq, nowMicros.getAsLong(), holder));
        }
    }

    /** A one-step store, noting each holder it grants a lease to, for {@link #told}. */
    private record NotingGrants(LeaseStore leases, Set<String> granted) implements LeaseStore {

        @Override
        public boolean startScope(String scope, long firstToken) {
            return leases.startScope(scope, firstToken);
        }

        @Override
        public AcquireResult acquire(StoreSession session, String scope, String holder, Duration ttl) {
            AcquireResult result = leases.acquire(session, scope, holder, ttl);
            if (result instanceof AcquireResult.Acquired) {
                granted.add(holder);
            }
            return result;
        }

        @Override
        public RenewResult renew(StoreSession session, Lease lease, Duration ttl) {
            return leases.renew(session, lease, ttl);
        }

        @Override
        public boolean release(StoreSession session, Lease lease) {
            return leases.release(session, lease);
        }

        @Override
        public void connect(String holder) {
            leases.connect(holder);
        }

        @Override
        public void freeze(String holder) {
            leases.freeze(holder);
        }

        @Override
        public void thaw(String holder) {
            leases.thaw(holder);
        }
    }
}

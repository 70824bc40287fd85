package io.fencelab.engine.store;

import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.failpoint.Failpoints;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import java.util.List;
import java.util.Optional;

/**
 * Where one run keeps its leases and fenced resources: everything an executor needs of storage.
 * Two adapters implement it: {@code postgres.PostgresRunStore}, the real thing, and
 * {@code memory.MemoryRunStore}, a model of it for simulated sweeps, allowed only because a test
 * proves the two give byte-identical event logs (see {@code docs/ARCHITECTURE.md}, "Storage
 * backends"). Which one a run gets is chosen above the store ({@code run.Backend}).
 */
public interface RunStore {

    /** The run's id (the database's {@code run_id}, or the model's own counter). */
    long runId();

    /** The run's database slice; empty for a store that is not PostgreSQL. */
    Optional<RunContext> runContext();

    /** The storage semantics, as the {@code RunStarted} event names them ({@code PostgreSQL 17.6}). */
    String semantics();

    /** The backend in words, for reports: which store actually answered. */
    String describe();

    LeaseStore leases();

    /** A target of this kind written in this mode (the executor keeps one per kind and mode). */
    TargetStore<?> target(TargetKind kind, FencingMode mode, FirstWritePolicy firstWrite);

    /**
     * The user's SQL fence named {@code fence} ({@code RunSpec.userFences}), in the run's scratch
     * schema; its values are the text bodies the workers write.
     *
     * @throws UnsupportedOperationException for a store that cannot run the user's SQL (the in-memory model)
     */
    default TargetStore<String> userTarget(String fence) {
        throw new UnsupportedOperationException("a user's SQL fence runs on PostgreSQL only, not on " + describe());
    }

    /** Every row, object and pointer of the run (and every resource of its user fences), ordered by target, scope and key. */
    List<ResourceState> finalState();

    /** A session for one worker to keep. */
    StoreSession openSession();

    /** A connection-kill fault: the session's next statement fails, as a terminated backend's does. */
    void kill(StoreSession session);

    /** A database-restart fault begins. */
    void stop();

    /** A database-restart fault heals: everything stored before the stop is there again. */
    void start();

    /** Whether a fresh statement gets through now. */
    boolean isReachable();

    /**
     * Why a database-restart fault cannot be run on this store, or empty if it can (checked before
     * such a fault is planned or injected, rather than failing at its time).
     */
    Optional<String> restartRefusal();

    /**
     * Installs the failpoint seam on every statement of the run (tests only; see {@link Failpoints}),
     * before the run starts.
     *
     * @throws UnsupportedOperationException for a store without real statements (the in-memory model)
     */
    default void failpoints(Failpoints<StoreSession> installed) {
        throw new UnsupportedOperationException("failpoints are reached by real statements: " + describe()
                + " has none; run on PostgreSQL");
    }

    /** The run is over and its sessions are closed: lets go of whatever the store still holds. */
    void close();
}

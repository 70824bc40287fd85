package io.fencelab.engine.run;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.memory.MemoryRunStore;
import io.fencelab.engine.postgres.PostgresRunStore;
import io.fencelab.engine.store.RunStore;
import java.util.Optional;

/**
 * Where a run keeps its leases and fenced resources. PostgreSQL always; the in-memory model only
 * for simulated runs, where the outcome does not depend on how long a statement takes, and only
 * because {@code BackendEquivalenceProperties} proves both give byte-identical event logs for every
 * catalog scenario and thousands of random schedules (see {@code docs/TUNING.md}, "Speed and the
 * in-memory backend").
 */
public enum Backend {
    /** The real database: every statement a round trip to PostgreSQL. */
    POSTGRES,
    /** The in-memory model of PostgreSQL's statements, for fast simulated sweeps. */
    MEMORY;

    /** The fastest backend allowed for {@code spec}: memory for simulated runs, PostgreSQL otherwise. */
    public static Backend fastestFor(RunSpec spec) {
        return MEMORY.refusal(spec).isEmpty() ? MEMORY : POSTGRES;
    }

    /** Why this backend cannot run {@code spec}, or empty if it can. PostgreSQL runs everything. */
    public Optional<String> refusal(RunSpec spec) {
        if (this == MEMORY && spec.executor() != ExecutorKind.SIMULATED) {
            return Optional.of("the in-memory backend runs simulated runs only: a live run's lease expiry is judged "
                    + "by PostgreSQL's clock and its statements race for real; run it with the postgres backend");
        }
        if (spec.service().real() && spec.executor() == ExecutorKind.SIMULATED) {
            return Optional.of("a real lease service (" + spec.service().kind().key() + ") runs in real time: its "
                    + "leases expire by its own clock, not a simulated one; run it with executor live or process");
        }
        if (this == MEMORY && !spec.userFences().isEmpty()) {
            return Optional.of("the in-memory backend cannot run the user's own SQL fences (targets:); "
                    + "run it with the postgres backend");
        }
        return Optional.empty();
    }

    /** Creates a run's store; {@code db} names the semantics a memory store models. */
    RunStore open(Database db, RunSpec spec, RunClock clock) {
        refusal(spec).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        RunStore store = switch (this) {
            case POSTGRES -> PostgresRunStore.open(db, spec.name(), clock, spec.userFences().fences(),
                    spec.userFences().keep());
            case MEMORY -> new MemoryRunStore("PostgreSQL " + db.serverVersion(), clock);
        };
        return ServiceRunStore.over(store, spec, clock);
    }
}

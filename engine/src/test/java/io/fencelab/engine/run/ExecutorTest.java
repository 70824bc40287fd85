package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.memory.MemoryRunStore;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import io.fencelab.testing.Specs;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The executor's seams: one {@link Executor} per run, and every database operation through the run's store. */
@ExtendWith(EmbeddedDatabase.class)
class ExecutorTest {

    @Test
    void aRunHoldsOneExecutorOfTheKindItsSpecNames(Database db, @TempDir Path dir) throws Exception {
        RunSpec simulated = Specs.staleHolder(FencingMode.FENCED);
        RunSpec live = simulated.withExecutor(ExecutorKind.LIVE);

        try (Run run = Run.prepare(db, simulated, dir.resolve("simulated.jsonl"))) {
            assertThat(run.executor()).as("a simulated spec's executor").isInstanceOf(SimulatedExecutor.class);
            assertThat(run.simulatedExecutor()).as("offered for stepping").get().isSameAs(run.executor());
            assertThat(run.liveExecutor()).as("a simulated run has no live executor").isEmpty();
            assertThat(run.executor().spec()).isSameAs(simulated);
        }
        try (Run run = Run.prepare(db, live, dir.resolve("live.jsonl"))) {
            run.bus().start(); // closing a live run that never ran flushes its asynchronous bus, which must be started
            assertThat(run.executor()).as("a live spec's executor").isInstanceOf(LiveExecutor.class);
            assertThat(run.liveExecutor()).as("offered for changes by hand").get().isSameAs(run.executor());
            assertThat(run.simulatedExecutor()).as("a live run has no simulated executor").isEmpty();
        }
    }

    @Test
    void aLiveRunsDatabaseRestartStopsAndStartsTheStoresDatabase(Database db) throws Exception {
        RunSpec spec = Specs.storm(4, 2, FencingMode.FENCED, 5, Duration.ofSeconds(3)).withExecutor(ExecutorKind.LIVE);
        RecordingSink sink = new RecordingSink();
        boolean reachableAfter;
        try (LiveExecutor run = new LiveExecutor(db, spec, sink, 8)) {
            run.start();
            while (run.nowMicros() < 500_000) {
                Thread.sleep(20);
            }
            run.inject(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE, Duration.ofMillis(500), Duration.ZERO);
            assertThat(run.awaitEnd().words()).as("a planned restart does not end the run").isEqualTo("completed");
            reachableAfter = run.store().isReachable();
        }

        assertThat(sink.ofType(Event.FaultInjected.class)).as("the restart began")
                .anySatisfy(f -> assertThat(f.fault()).isEqualTo("DATABASE_RESTART"));
        assertThat(sink.ofType(Event.FaultHealed.class)).as("and healed")
                .anySatisfy(f -> assertThat(f.fault()).isEqualTo("DATABASE_RESTART"));
        assertThat(reachableAfter).as("the store's database is back after the run").isTrue();
    }

    @Test
    void theInMemoryStoreSaysItsModelledDatabaseCanAlwaysRestart() {
        MemoryRunStore store = new MemoryRunStore("PostgreSQL 17", new io.fencelab.engine.clock.VirtualClock());

        assertThat(store.restartRefusal()).as("nothing outside the model to restart").isEmpty();
        store.stop();
        assertThat(store.isReachable()).as("down while stopped").isFalse();
        store.start();
        assertThat(store.isReachable()).as("back once started").isTrue();
    }
}

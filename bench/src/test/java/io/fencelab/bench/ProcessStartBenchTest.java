package io.fencelab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.bench.ProcessStartBench.Measurement;
import io.fencelab.bench.ProcessStartBench.Start;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The process section of bench-runs on a tiny scale: two real agent JVMs against two live threads. */
@ExtendWith(EmbeddedDatabase.class)
class ProcessStartBenchTest {

    @Test
    void theMeasuredSpecGivesEveryWorkerItsOwnScopeAndNoFaults() {
        RunSpec spec = ProcessStartBench.spec(3, Duration.ofSeconds(1), ExecutorKind.PROCESS);

        assertThat(spec.workers()).extracting(WorkerSpec::scope).as("one scope per worker: no waiting on a lease")
                .doesNotHaveDuplicates().hasSize(3);
        assertThat(spec.faults()).as("the start is measured, not faults").isEmpty();
        assertThat(spec.executor()).isEqualTo(ExecutorKind.PROCESS);
    }

    @Test
    void aProcessRunIsReadyOnceEveryAgentIsUpAndIsComparedWithTheLiveRun(Database db) throws Exception {
        Measurement live = ProcessStartBench.measure(db, Start.LIVE_THREADS, 2, Duration.ofSeconds(1));
        Measurement processes = ProcessStartBench.measure(db, Start.PROCESSES_NO_CACHE, 2, Duration.ofSeconds(1));

        assertThat(live.endReason()).isEqualTo("completed");
        assertThat(live.readyMillis()).as("the live run published RunStarted").isPositive()
                .isLessThanOrEqualTo(live.totalMillis());
        assertThat(processes.endReason()).isEqualTo("completed");
        assertThat(processes.agentsUp()).as("the database saw both agents up").isEqualTo(2);
        assertThat(processes.readyMillis()).as("ready comes before the run's end")
                .isPositive().isLessThanOrEqualTo(processes.totalMillis());
        assertThat(processes.readyMillis()).as("two JVMs start slower than two threads")
                .isGreaterThan(live.readyMillis());
        assertThat(ProcessStartBench.line(processes, live)).contains("2 agents up").contains("÷ live = ")
                .contains("target 10 s");
    }
}

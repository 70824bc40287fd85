package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FenceAudit;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import io.fencelab.testing.Specs;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedDatabase.class)
class LiveExecutorTest {

    @Test
    void aThousandConcurrentWorkersRunAndNoStaleWriteIsApplied(Database db) throws Exception {
        RunSpec spec = Specs.storm(1_000, 50, FencingMode.FENCED, 9, Duration.ofSeconds(4))
                .withExecutor(ExecutorKind.LIVE);
        RecordingSink sink = new RecordingSink();
        try (LiveExecutor run = new LiveExecutor(db, spec, sink, 32)) {
            String end = run.runToEnd().words();

            assertThat(end).isEqualTo("completed");
            assertThat(sink.ofType(Event.LeaseAcquired.class)).as("acquisitions").hasSizeGreaterThan(50);
            assertThat(sink.ofType(Event.WriteAccepted.class)).as("accepted writes").isNotEmpty();
            assertThat(sink.ofType(Event.LeaseBusy.class).stream().map(Event::holder).distinct().count())
                    .as("distinct workers that reached the lease service").isGreaterThan(900);
            assertThat(new FenceAudit(run.runContext()).regressions()).isEmpty();
            // Threads report accepted writes in any order; the database's word on what each replaced
            // keeps a reordered report from reading as a stale overwrite.
            assertThat(io.fencelab.engine.check.SafetyChecker.judge(sink.events()).witnesses())
                    .as("a fenced live run is judged safe").isEmpty();
        }
    }

    @Test
    void theLiveStoryRejectsThePausedHolderAtAFasterTimeScale(Database db) throws Exception {
        // A holder paused past its lease, in real time, about 33 times faster: 40 run seconds take 1.2 s.
        RunSpec spec = Specs.staleHolder(FencingMode.FENCED).toBuilder()
                .executor(ExecutorKind.LIVE).timeScale(0.03).build();
        RecordingSink sink = new RecordingSink();
        try (LiveExecutor run = new LiveExecutor(db, spec, sink, 4)) {
            run.runToEnd();
        }

        assertThat(sink.ofType(Event.WriteRejectedStale.class)).singleElement()
                .satisfies(e -> assertThat(e.holder()).isEqualTo("A"))
                .satisfies(e -> assertThat(e.token()).isEqualTo(1))
                .satisfies(e -> assertThat(e.highest()).isEqualTo(2));
    }

    @Test
    void stoppingALiveRunEndsItAndKeepsItsEvents(Database db) throws Exception {
        RunSpec spec = Specs.storm(20, 2, FencingMode.FENCED, 4, Duration.ofSeconds(60)).withExecutor(ExecutorKind.LIVE);
        RecordingSink sink = new RecordingSink();
        try (LiveExecutor run = new LiveExecutor(db, spec, sink, 8)) {
            run.start();
            Thread.sleep(500);
            run.stop();

            assertThat(run.awaitEnd().words()).isEqualTo("stopped");
        }
        assertThat(sink.ofType(Event.RunEnded.class)).singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo("stopped"));
        assertThat(sink.ofType(Event.LeaseAcquired.class)).isNotEmpty();
    }
}

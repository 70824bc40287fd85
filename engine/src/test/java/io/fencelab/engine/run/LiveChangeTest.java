package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.Specs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults injected by hand and settings changed while a live run runs, judged from the run's own
 * event log on real PostgreSQL.
 */
@ExtendWith(EmbeddedDatabase.class)
class LiveChangeTest {

    @TempDir
    Path dir;

    /** Two holders and no scripted pause, live, about 13 times faster (40 run seconds in 3 s). */
    private static RunSpec twoHoldersLive(FencingMode fencing) {
        return Specs.twoHolders(fencing).toBuilder().executor(ExecutorKind.LIVE).timeScale(0.075).build();
    }

    /** Two holders on two scopes, writing all the time, no faults; 8 run seconds in 2 real seconds. */
    private static RunSpec steady() {
        return Specs.storm(2, 2, FencingMode.FENCED, 3, Duration.ofSeconds(8)).toBuilder().faults(List.of())
                .executor(ExecutorKind.LIVE).timeScale(0.25).build();
    }

    private record Outcome(RunResult result, List<Event> events) {
        <T extends Event> List<T> of(Class<T> type) {
            return events.stream().filter(type::isInstance).map(type::cast).toList();
        }

        <T extends Event> T first(Class<T> type, Predicate<T> which) {
            return of(type).stream().filter(which).findFirst().orElseThrow(
                    () -> new AssertionError("no " + type.getSimpleName() + " as expected in " + events));
        }
    }

    /** Runs {@code spec} live; {@code during} acts on the running executor from this thread. */
    private Outcome run(Database db, RunSpec spec, Consumer<LiveExecutor> during) throws Exception {
        try (Run run = Run.prepare(db, spec, dir.resolve(spec.name() + "-" + System.nanoTime() + ".jsonl"))) {
            CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> {
                try {
                    return run.runToEnd();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            during.accept(run.liveExecutor().orElseThrow());
            RunResult r = result.get(60, TimeUnit.SECONDS);
            return new Outcome(r, EventLogReader.read(r.eventLog()));
        }
    }

    private static void awaitRunTime(LiveExecutor live, Duration t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (live.nowMicros() < t.toNanos() / 1_000 || !live.started()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the run never reached " + t);
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void aPauseInjectedByHandMakesAStaleHolderAndTheFenceRejectsItsWrite(Database db) throws Exception {
        Outcome o = run(db, twoHoldersLive(FencingMode.FENCED), live -> {
            awaitRunTime(live, Duration.ofSeconds(2));
            live.inject(FaultKind.PAUSE, "A", Duration.ofSeconds(25), Duration.ZERO);
        });

        // The stale-holder sequence, in log order: suspend, expire, newer write, resume, reject.
        Event.PauseStarted pause = o.first(Event.PauseStarted.class, e -> e.holder().equals("A"));
        Event.LeaseExpired expired = o.first(Event.LeaseExpired.class, e -> e.holder().equals("A"));
        Event.WriteAccepted newer = o.first(Event.WriteAccepted.class, e -> e.holder().equals("B"));
        Event.PauseEnded resumed = o.first(Event.PauseEnded.class, e -> e.holder().equals("A"));
        Event.WriteRejectedStale rejected = o.first(Event.WriteRejectedStale.class, e -> e.holder().equals("A"));
        assertThat(pause.cause()).isEqualTo("pause by hand");
        assertThat(List.of(pause.seq(), expired.seq(), newer.seq(), resumed.seq(), rejected.seq())).isSorted();
        assertThat(newer.token()).isEqualTo(2);
        assertThat(rejected.token()).isEqualTo(1);
        assertThat(rejected.highest()).isEqualTo(2);
        assertThat(o.of(Event.WriteAccepted.class)).as("A never wrote").allMatch(e -> e.holder().equals("B"));
        // Newer state intact: the database's final state is judged as well.
        assertThat(o.result().finalStateJudged()).isTrue();
        assertThat(o.result().verdict().isSafe()).isTrue();
    }

    @Test
    void turningFencingOffMidRunLetsTheHandPausedHolderOverwriteTheNewerState(Database db) throws Exception {
        Outcome o = run(db, twoHoldersLive(FencingMode.FENCED), live -> {
            awaitRunTime(live, Duration.ofSeconds(1));
            live.change(live.spec().toBuilder().fencing(FencingMode.UNFENCED).build());
            awaitRunTime(live, Duration.ofSeconds(2));
            live.inject(FaultKind.PAUSE, "A", Duration.ofSeconds(25), Duration.ZERO);
        });

        Event.SettingChanged change = o.first(Event.SettingChanged.class, e -> true);
        assertThat(change.setting()).isEqualTo("fencing");
        assertThat(change.from()).isEqualTo("FENCED");
        assertThat(change.to()).isEqualTo("UNFENCED");
        assertThat(o.first(Event.WriteAccepted.class, e -> e.holder().equals("A")).token()).isEqualTo(1);
        assertThat(o.result().verdict().isSafe()).isFalse();
        assertThat(o.result().verdict().witnesses()).anyMatch(w -> w.invariant() == Invariant.STALE_OVERWRITE);
    }

    @Test
    void aNewLeaseTtlAppliesToTheGrantsAfterTheChange(Database db) throws Exception {
        Outcome o = run(db, steady(), live -> {
            awaitRunTime(live, Duration.ofSeconds(3));
            live.change(live.spec().toBuilder().leaseTtl(Duration.ofSeconds(5)).build());
        });

        Event.SettingChanged change = o.first(Event.SettingChanged.class, e -> e.setting().equals("leaseTtl"));
        assertThat(change.from()).isEqualTo("1s");
        assertThat(change.to()).isEqualTo("5s");
        List<Long> before = new ArrayList<>();
        List<Long> after = new ArrayList<>();
        for (Event.LeaseAcquired a : o.of(Event.LeaseAcquired.class)) {
            (a.seq() < change.seq() ? before : after).add(a.expiresAtMicros() - a.atMicros());
        }
        // The expiry is set by the database's clock when the grant is made; the event is stamped when
        // the reply is back, a statement later (slow on a cold connection, and run time is 4x real).
        assertThat(before).isNotEmpty().allMatch(ttl -> ttl > 500_000 && ttl <= 1_050_000);
        assertThat(after).isNotEmpty().allMatch(ttl -> ttl > 4_500_000 && ttl <= 5_050_000);
    }

    @Test
    void workersJoinAndLeaveARunningRun(Database db) throws Exception {
        Outcome o = run(db, steady(), live -> {
            awaitRunTime(live, Duration.ofSeconds(3));
            RunSpec spec = live.spec();
            List<WorkerSpec> workers = new ArrayList<>(List.of(spec.workers().get(0)));
            WorkerSpec model = spec.workers().get(1);
            for (String name : List.of("x1", "x2")) {
                workers.add(new WorkerSpec(name, model.scope(), Duration.ZERO, model.workTime(), model.writes(),
                        model.jobs(), model.idleTime(), model.onStale(), model.checkDeadline(),
                        model.sequenceWrites(), model.pipelineWrites()));
            }
            live.change(spec.toBuilder().workers(workers).build());
        });

        Event.SettingChanged change = o.first(Event.SettingChanged.class, e -> e.setting().equals("workers"));
        assertThat(change.from()).isEqualTo("2");
        assertThat(change.to()).isEqualTo("3");
        assertThat(o.events()).filteredOn(e -> "x1".equals(e.holder()) || "x2".equals(e.holder()))
                .isNotEmpty().allMatch(e -> e.seq() > change.seq());
        assertThat(o.of(Event.LeaseAcquired.class)).filteredOn(e -> e.holder().equals("x1")).isNotEmpty();
        // w1 left: at most the grant already on its way when it was told.
        assertThat(o.of(Event.LeaseAcquired.class)).filteredOn(e -> e.holder().equals("w1") && e.seq() > change.seq())
                .hasSizeLessThanOrEqualTo(1);
        assertThat(o.of(Event.LeaseAcquired.class)).filteredOn(e -> e.holder().equals("w0") && e.seq() > change.seq())
                .hasSizeGreaterThan(1);
    }

    @Test
    void anAddedFaultStartsNowAndARemovedOneHealsNow(Database db) throws Exception {
        FaultSpec delay = new FaultSpec(FaultKind.REQUEST_DELAY, FaultSpec.ALL, new FaultStart.At(Duration.ZERO),
                new Distribution.Fixed(Duration.ofSeconds(8)), Duration.ofMillis(50));
        Outcome o = run(db, steady(), live -> {
            awaitRunTime(live, Duration.ofSeconds(2));
            RunSpec plain = live.spec();
            live.change(plain.toBuilder().faults(List.of(delay)).build());
            awaitRunTime(live, Duration.ofSeconds(5));
            live.change(plain);
        });

        List<Event.SettingChanged> changes = o.of(Event.SettingChanged.class);
        assertThat(changes).hasSize(2);
        assertThat(changes.get(0).to()).isEqualTo("REQUEST_DELAY on all at 0s for 8s, amount 50ms");
        assertThat(changes.get(1).from()).isEqualTo(changes.get(0).to());
        assertThat(o.of(Event.FaultInjected.class)).extracting(Event.FaultInjected::appliesTo)
                .containsExactlyInAnyOrder("w0", "w1");
        assertThat(o.of(Event.FaultInjected.class)).allMatch(e -> e.seq() > changes.get(0).seq()
                && e.atMicros() >= 2_000_000 && e.atMicros() < 3_000_000);
        assertThat(o.of(Event.FaultHealed.class)).extracting(Event.FaultHealed::appliesTo)
                .containsExactlyInAnyOrder("w0", "w1");
        assertThat(o.of(Event.FaultHealed.class)).allMatch(e -> e.seq() > changes.get(1).seq()
                && e.atMicros() < 6_000_000);
    }

    @Test
    void whatCannotChangeMidRunIsRefusedByName(Database db) throws Exception {
        List<String> refusals = new ArrayList<>();
        run(db, steady(), live -> {
            awaitRunTime(live, Duration.ofMillis(500));
            for (Runnable attempt : List.<Runnable>of(
                    () -> live.change(live.spec().toBuilder().seed(99).duration(Duration.ofSeconds(9)).build()),
                    () -> live.inject(FaultKind.PAUSE, "nobody", Duration.ofSeconds(1), Duration.ZERO),
                    () -> live.inject(FaultKind.DATABASE_RESTART, "w0", Duration.ofSeconds(1), Duration.ZERO))) {
                try {
                    attempt.run();
                } catch (IllegalArgumentException e) {
                    refusals.add(e.getMessage());
                }
            }
        });

        assertThat(refusals).containsExactly("cannot change during a live run: seed, duration",
                "no holder named 'nobody' in this run",
                "a database restart targets 'database'; other faults target a holder");
    }

    @Test
    void nothingIsPublishedAfterTheRunEnds(Database db) throws Exception {
        RunSpec spec = Specs.storm(300, 30, FencingMode.FENCED, 5, Duration.ofSeconds(3)).withExecutor(ExecutorKind.LIVE);
        Outcome o = run(db, spec, live -> { });

        assertThat(o.events().getLast()).isInstanceOf(Event.RunEnded.class);
        assertThat(o.of(Event.RunEnded.class)).hasSize(1);
    }

    @Test
    void aChangeOrAFaultAfterTheEndIsRefused(Database db) throws Exception {
        RunSpec spec = steady().toBuilder().duration(Duration.ofSeconds(1)).build();
        LiveExecutor[] executor = new LiveExecutor[1];
        run(db, spec, live -> executor[0] = live);

        assertThatThrownBy(() -> executor[0].inject(FaultKind.PAUSE, "w0", Duration.ofSeconds(1), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class).hasMessage("the run is over");
        assertThatThrownBy(() -> executor[0].change(spec.toBuilder().leaseTtl(Duration.ofSeconds(2)).build()))
                .isInstanceOf(IllegalStateException.class).hasMessage("the run is over");
    }
}

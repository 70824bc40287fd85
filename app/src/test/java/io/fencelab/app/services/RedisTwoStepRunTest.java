package io.fencelab.app.services;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioLoader;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PAUSE at: grant} in live runs: on Redis with {@code incr-after-lock} the pause lands between the lock and
 * its {@code INCR} (the example {@code examples/redis-two-step.yaml}), with {@code lua} after the one-step grant, and on
 * PostgreSQL's lease table right after the grant.
 */
class RedisTwoStepRunTest {

    private static final long SLACK_MICROS = 300_000;

    static String exampleText() throws IOException {
        return Files.readString(Path.of("..", "examples", "redis-two-step.yaml"));
    }

    private record Ran(RunResult result, List<Event> events, List<String> mismatches) {
        Event.PauseStarted pauseOf(String holder) {
            return events.stream().filter(e -> e instanceof Event.PauseStarted p && p.holder().equals(holder))
                    .map(Event.PauseStarted.class::cast).findFirst().orElseThrow();
        }

        /** {@code holder}'s first grant logged after {@code micros}. */
        Event.LeaseAcquired grantAfter(String holder, long micros) {
            return grants(holder).filter(a -> a.atMicros() > micros).findFirst().orElseThrow();
        }

        /** {@code holder}'s last grant logged at or before {@code micros}. */
        Event.LeaseAcquired grantAtOrBefore(String holder, long micros) {
            return grants(holder).filter(a -> a.atMicros() <= micros).reduce((x, y) -> y).orElseThrow();
        }

        private java.util.stream.Stream<Event.LeaseAcquired> grants(String holder) {
            return events.stream().filter(e -> e instanceof Event.LeaseAcquired a && a.holder().equals(holder))
                    .map(Event.LeaseAcquired.class::cast);
        }
    }

    private static Ran run(String yaml, Path dir) throws Exception {
        Scenario scenario = ScenarioLoader.load("redis-two-step.yaml", yaml);
        try (Database db = EmbeddedDatabase.startThrowaway(16);
             Run run = Run.prepare(db, scenario.spec(), dir.resolve("e.jsonl"))) {
            RunResult result = run.runToEnd();
            List<Event> events = EventLogReader.read(result.eventLog());
            return new Ran(result, events, scenario.expectation().mismatches(result, events));
        }
    }

    /**
     * A is granted first (its pause starts at its grant), B after A's lock ran out, yet A counts the larger token.
     * A logs its grant late, after B's, but with the time Redis granted it: the checker orders the two by that and
     * finds the earlier grant holding the larger token (VIOLATED); B, the lock's real holder, is refused as stale.
     */
    @Test
    void incrAfterLockGivesTheEarlierGrantTheLargerToken(@TempDir Path dir) throws Exception {
        Ran ran = run(exampleText(), dir);

        Event.PauseStarted aFrozen = ran.pauseOf("A");
        Event.LeaseAcquired a = ran.grantAfter("A", aFrozen.atMicros());
        Event.LeaseAcquired b = ran.grantAfter("B", aFrozen.atMicros());
        assertThat(b.atMicros()).as("B's grant, after A's (its pause starts there)").isLessThan(a.atMicros());
        assertThat(a.token()).as("A's token, counted after B's").isGreaterThan(b.token());
        assertThat(a.atMicros()).as("A tells its grant when it wakes, 5 s on")
                .isGreaterThanOrEqualTo(aFrozen.atMicros() + 5_000_000);
        assertThat(a.grantedAtMicros()).as("A's grant, made as its pause began")
                .isBetween(aFrozen.atMicros() - SLACK_MICROS, aFrozen.atMicros()).isLessThan(b.atMicros());
        assertThat(ran.events()).as("B, the lock's holder, is refused by the fence")
                .anyMatch(e -> e instanceof Event.WriteRejectedStale s && s.holder().equals("B"));
        assertThat(ran.result().verdict().kind()).isEqualTo(Verdict.Kind.VIOLATED);
        assertThat(ran.result().verdict().witnesses()).extracting(Witness::invariant)
                .contains(Invariant.NON_MONOTONIC_GRANT);
        assertThat(ran.mismatches()).as("the example's own expectation").isEmpty();
    }

    @Test
    void luaTokensFollowTheGrantOrder(@TempDir Path dir) throws Exception {
        Ran ran = run(exampleText().replace("token: incr-after-lock", "token: lua")
                .replace("verdict: VIOLATED", "verdict: SAFE").replace("  invariants: [NON_MONOTONIC_GRANT]\n", ""), dir);

        Event.PauseStarted aFrozen = ran.pauseOf("A");
        Event.LeaseAcquired a = ran.grantAtOrBefore("A", aFrozen.atMicros());
        Event.LeaseAcquired b = ran.grantAfter("B", aFrozen.atMicros());
        assertThat(a.atMicros()).as("A's grant is logged as it is made, before its pause")
                .isBetween(aFrozen.atMicros() - SLACK_MICROS, aFrozen.atMicros());
        assertThat(a.token()).as("A's token, counted with its grant").isLessThan(b.token());
        assertThat(ran.events()).as("B's writes stand")
                .noneMatch(e -> e instanceof Event.WriteRejectedStale s && s.holder().equals("B"));
        assertThat(ran.result().verdict().kind()).as(ran.result().verdict().witnesses().toString())
                .isEqualTo(Verdict.Kind.SAFE);
        RealServiceRunTest.assertTokensRisePerScope(ran.events());
    }

    /** On PostgreSQL's table the grant is one statement: the pause starts as it returns, before anything else. */
    @Test
    void onTheLeaseTableThePauseStartsRightAfterTheGrant(@TempDir Path dir) throws Exception {
        Ran ran = run("""
                title: A pause at the grant
                summary: A is paused as soon as it is granted the lease.
                story: [A is granted the lease and pauses.]
                executor: live
                duration: 5s
                lease: {ttl: 10s}
                workers:
                  - {name: A, scope: report, startAt: 500ms, workTime: 200ms, jobs: 1, writes: [{key: report-1}]}
                faults:
                  - {kind: PAUSE, target: A, at: grant, duration: 2s}
                expect: {verdict: SAFE}
                """, dir);

        Event.PauseStarted paused = ran.pauseOf("A");
        Event.LeaseAcquired a = ran.grantAtOrBefore("A", paused.atMicros());
        long grantedAt = a.expiresAtMicros() - 10_000_000;
        assertThat(paused.atMicros()).as("the pause starts at the grant (expiry − ttl) and as it is logged")
                .isBetween(grantedAt, grantedAt + SLACK_MICROS)
                .isBetween(a.atMicros(), a.atMicros() + SLACK_MICROS);
        assertThat(paused.durationMicros()).isEqualTo(2_000_000);
        assertThat(ran.events()).as("A does nothing while paused").noneMatch(e -> e.atMicros() > paused.atMicros()
                && e.atMicros() < paused.atMicros() + 2_000_000 && e instanceof Event.WriteAttempted w
                && w.holder().equals("A"));
        assertThat(ran.events()).filteredOn(e -> e instanceof Event.PauseEnded p && p.holder().equals("A")).hasSize(1);
        assertThat(ran.result().verdict().kind()).isEqualTo(Verdict.Kind.SAFE);
    }
}

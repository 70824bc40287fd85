package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.DurationSummary;
import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningFigures;
import io.fencelab.engine.run.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpectationTest {

    static RunResult result(Event.RunEnded.Reason end, Verdict verdict, EventCounts totals) {
        return new RunResult(Catalog.shipped().load("paused-holder").spec(), 1, end, Judgement.of(verdict, true),
                new MetricsSnapshot(totals, List.of(), List.of(), DurationSummary.EMPTY, DurationSummary.EMPTY),
                TuningFigures.NONE, Path.of("events.jsonl"), 0, "PostgreSQL 17");
    }

    static final Verdict SAFE = Verdict.of(List.of());
    static final Verdict STALE = Verdict.of(List.of(new Witness(Invariant.STALE_OVERWRITE, "A wrote with 41", List.of(1L))));

    @Test
    void aMetExpectationHasNoMismatches() {
        Expectation e = new Expectation(Verdict.Kind.SAFE, "completed",
                Map.of(Expectation.Total.STALE_REJECTIONS, 1L), Map.of(Expectation.Total.ACCEPTED_WRITES, 1L),
                Map.of("LeaseExpired", 1L), List.of());
        List<Event> events = List.of(new Event.LeaseExpired(1, 0, "A", "report", 41));

        assertThat(e.mismatches(result(Event.RunEnded.Reason.COMPLETED, SAFE, new EventCounts(2, 0, 0, 1, 1)), events)).isEmpty();
    }

    @Test
    void eachMissIsOnePlainLine() {
        Expectation e = new Expectation(Verdict.Kind.VIOLATED, "completed",
                Map.of(Expectation.Total.STALE_REJECTIONS, 1L), Map.of(Expectation.Total.ACCEPTED_WRITES, 1L),
                Map.of("LeaseExhausted", 1L), List.of(Invariant.STALE_OVERWRITE));

        assertThat(e.mismatches(result(Event.RunEnded.Reason.failed("database unreachable"), SAFE, new EventCounts(2, 0, 0, 0, 3)), List.of()))
                .containsExactly(
                        "expected verdict VIOLATED, got SAFE",
                        "expected the run to end 'completed', got 'failed: database unreachable'",
                        "expected at least 1 staleRejections, got 0",
                        "expected at most 1 acceptedWrites, got 3",
                        "expected at least 1 LeaseExhausted events, got 0",
                        "expected a STALE_OVERWRITE witness, found none");
    }

    @Test
    void failedMatchesAnyFailure() {
        Expectation e = new Expectation(Verdict.Kind.VIOLATED, "failed", Map.of(), Map.of(), Map.of(), List.of());

        assertThat(e.mismatches(result(Event.RunEnded.Reason.failed("database unreachable"), STALE, EventCounts.ZERO), List.of())).isEmpty();
    }

    /** The "expected: SAFE -> met" on a run whose database broke at 5 s. */
    @Test
    void aFailedRunMissesAnExpectationThatDoesNotNameFailure() {
        assertThat(Expectation.verdict(Verdict.Kind.SAFE).mismatches(
                result(Event.RunEnded.Reason.failed("permission denied for table lease"), SAFE, EventCounts.ZERO), List.of()))
                .as("SAFE up to the failure is not the SAFE the scenario expects")
                .containsExactly("the run failed: permission denied for table lease, so its verdict covers only what "
                        + "happened before the failure");
    }

    @Test
    void describeReadsAsASentence() {
        assertThat(Expectation.verdict(Verdict.Kind.SAFE).describe()).isEqualTo("SAFE");
        assertThat(new Expectation(Verdict.Kind.VIOLATED, null,
                Map.of(Expectation.Total.STALE_REJECTIONS, 1L, Expectation.Total.ACCEPTED_WRITES, 2L),
                Map.of(Expectation.Total.ACCEPTED_WRITES, 5L), Map.of("LeaseExhausted", 1L),
                List.of(Invariant.STALE_OVERWRITE)).describe())
                .isEqualTo("VIOLATED with at least 1 stale rejection, between 2 and 5 accepted writes, "
                        + "at least 1 LeaseExhausted event and a STALE_OVERWRITE witness");
    }
}

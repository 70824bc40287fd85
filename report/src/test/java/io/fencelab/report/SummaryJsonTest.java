package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryJsonTest {

    /** A stale overwrite with a token above 2^53, where a number would be rounded. */
    private static final long BIG = 9_007_199_254_740_993L;

    private static List<Event> overwrite() {
        return List.of(
                new Event.RunStarted(1, 0, "big", "simulated", "UNFENCED", "MONOTONIC", -7, "PostgreSQL 17.6"),
                new Event.LeaseAcquired(2, 0, "A", "s", BIG, BIG, 1_000_000),
                new Event.LeaseExpired(3, 1_000_000, "A", "s", BIG),
                new Event.LeaseAcquired(4, 1_000_000, "B", "s", BIG + 1, BIG + 1, 2_000_000),
                new Event.WriteAccepted(5, 1_500_000, "B", "s", BIG + 1, TargetKind.ROW, "k", "1"),
                new Event.WriteAccepted(6, 1_600_000, "A", "s", BIG, TargetKind.ROW, "k", "2"),
                new Event.RunEnded(7, 3_000_000, Event.RunEnded.Reason.COMPLETED));
    }

    @Test
    void hasExactlyTheDocumentedFieldsInOrder(@TempDir Path dir) throws Exception {
        JsonNode json = new ObjectMapper().readTree(SummaryJson.render(Inputs.of(overwrite(), dir.resolve("e"), "Big tokens")));

        List<String> fields = new ArrayList<>();
        for (Iterator<String> it = json.fieldNames(); it.hasNext(); ) {
            fields.add(it.next());
        }
        assertThat(fields).containsExactly("scenario", "title", "seed", "executor", "fencing", "tokenScheme", "lease", "verdict",
                "expected", "expectationMet", "mismatches", "endReason", "witnesses", "settingChanges", "totals", "tuning", "events",
                "database");
        assertThat(json.get("totals").size()).isEqualTo(6);
        assertThat(json.get("totals").get("staleOverwrites").asLong()).as("from the judgement").isEqualTo(1);
        assertThat(json.get("verdict").asText()).isEqualTo("VIOLATED");
        assertThat(json.get("expectationMet").isBoolean()).isTrue();
        assertThat(json.get("events").asInt()).isEqualTo(7);
        assertThat(json.get("witnesses").get(0).get("invariant").asText()).isEqualTo(Invariant.STALE_OVERWRITE.name());
        assertThat(json.get("witnesses").get(0).get("eventSeqs").get(0).isIntegralNumber()).isTrue();
    }

    @Test
    void leaseNamesTheProfileAndEachOfItsSettingsAsTheScenarioWritesThem(@TempDir Path dir) throws Exception {
        ReportInput generic = Inputs.of(overwrite(), dir.resolve("e"), "t");
        RunSpec kubernetes = generic.result().spec().toBuilder().lease(LeaseProfile.Kubernetes.DEFAULT).build();
        ReportInput input = new ReportInput(generic.scenario(), generic.title(), generic.summary(), generic.story(),
                new RunResult(kubernetes, 1, Event.RunEnded.Reason.COMPLETED, generic.result().judgement(),
                        generic.result().metrics(), generic.result().tuning(), dir.resolve("e"), 7, "PostgreSQL 17.6"),
                generic.events(), generic.configuration(), generic.expected(), true, List.of());

        JsonNode lease = new ObjectMapper().readTree(SummaryJson.render(input)).get("lease");

        assertThat(lease.get("profile").asText()).isEqualTo("kubernetes");
        assertThat(lease.get("leaseDuration").asText()).as("a duration as a scenario file writes it").isEqualTo("15s");
        assertThat(lease.get("renewDeadline").asText()).isEqualTo("10s");
        assertThat(lease.get("retryPeriod").asText()).isEqualTo("2s");
        List<String> fields = new ArrayList<>();
        lease.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).as("the profile, then every setting the profile has, in its order")
                .isEqualTo(java.util.stream.Stream.concat(java.util.stream.Stream.of("profile"),
                        LeaseProfile.settings(LeaseProfile.Kubernetes.class).stream()).toList());
    }

    @Test
    void tuningHoldsTheRunsTuningFiguresUnderTheirStableNames(@TempDir Path dir) throws Exception {
        JsonNode tuning = new ObjectMapper().readTree(SummaryJson.render(Inputs.of(overwrite(), dir.resolve("e"), "t")))
                .get("tuning");

        List<String> fields = new ArrayList<>();
        tuning.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactlyElementsOf(TuningMetrics.NAMES);
        assertThat(tuning.get("failoverP50Seconds").isNull()).as("no crash, so no failover time").isTrue();
        assertThat(tuning.get("failovers").isIntegralNumber()).isTrue();
        assertThat(tuning.get("failovers").asLong()).isZero();
        assertThat(tuning.get("transitionsPerHour").asDouble()).as("A then B in 3 s").isEqualTo(1200.0);
        assertThat(tuning.get("staleWritesPerHour").asDouble()).as("A's write accepted over B's, judged stale")
                .isEqualTo(1200.0);
        assertThat(tuning.get("unavailability").asDouble()).isZero();
        assertThat(tuning.get("leaseLoadPerSecond").asDouble()).as("two grants in 3 s").isEqualTo(2.0 / 3);
    }

    @Test
    void settingsChangedDuringALiveRunAreListedAndShownOnTheTimeline(@TempDir Path dir) throws Exception {
        List<Event> renumbered = List.of(
                new Event.RunStarted(1, 0, "changed", "live", "FENCED", "MONOTONIC", 1, "PostgreSQL 17.6"),
                new Event.LeaseAcquired(2, 0, "A", "s", 1, 1, 1_000_000),
                new Event.SettingChanged(3, 900_000, "fencing", "FENCED", "UNFENCED"),
                new Event.SettingChanged(4, 950_000, "fault", null, "PAUSE on A at 0s for 40s"),
                new Event.RunEnded(5, 3_000_000, Event.RunEnded.Reason.COMPLETED));
        ReportInput input = Inputs.of(renumbered, dir.resolve("e"), "Changed");

        JsonNode changes = new ObjectMapper().readTree(SummaryJson.render(input)).get("settingChanges");
        assertThat(changes).hasSize(2);
        assertThat(changes.get(0).get("setting").asText()).isEqualTo("fencing");
        assertThat(changes.get(0).get("from").asText()).isEqualTo("FENCED");
        assertThat(changes.get(0).get("to").asText()).isEqualTo("UNFENCED");
        assertThat(changes.get(1).get("from").isNull()).as("nothing before a fault was added").isTrue();

        Timeline timeline = Judged.timeline(renumbered);
        assertThat(timeline.changes()).extracting(Timeline.Change::text)
                .containsExactly("fencing FENCED \u2192 UNFENCED", "fault added: PAUSE on A at 0s for 40s");
        String html = HtmlReport.render(input);
        assertThat(html).contains("<h3>Changed during the run</h3>").contains("fencing FENCED \u2192 UNFENCED")
                .contains("<g class=\"change\"><title>changed at 0.9s: fencing FENCED \u2192 UNFENCED</title>");
    }

    @Test
    void theSeedAndEveryTokenAreDecimalStrings(@TempDir Path dir) throws Exception {
        String text = SummaryJson.render(Inputs.of(overwrite(), dir.resolve("e"), "Big tokens"));
        JsonNode json = new ObjectMapper().readTree(text);

        assertThat(json.get("seed").isTextual()).as("seed is a string").isTrue();
        assertThat(json.get("seed").asText()).isEqualTo("-7");
        assertThat(json.get("witnesses").get(0).get("summary").asText()).as("tokens exact in the summary")
                .contains(Long.toString(BIG)).contains(Long.toString(BIG + 1));
        assertThat(text).as("no token appears as a JSON number").doesNotContainPattern("[:\\[,]\\s*" + BIG);
    }

    @Test
    void listsEveryWitnessWithItsSeqs(@TempDir Path dir) {
        ReportInput input = Inputs.of(overwrite(), dir.resolve("e"), "t");
        Witness w = input.result().verdict().witnesses().getFirst();

        assertThat(SummaryJson.tree(input).get("witnesses").get(0).get("eventSeqs").toString())
                .isEqualTo(w.eventSeqs().toString().replace(" ", ""));
    }
}

package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RandomSchedules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Everything that marks a write or tells the verdict reads the one judgement: for every catalog
 * scenario and for random schedules under every fencing mode and token scheme, the timeline's write
 * marks, the verdict text and summary.json agree with the {@link Judgement} on every write.
 */
class JudgementAgreementProperties {

    private static Database db;
    private static Path dir;

    @BeforeContainer
    static void start() throws Exception {
        db = EmbeddedDatabase.startThrowaway();
        dir = Files.createTempDirectory("fencelab-agreement");
    }

    @AfterContainer
    static void stop() {
        db.close();
    }

    @Property(tries = 1000)
    void everyReaderAgreesWithTheJudgementOnEveryWrite(@ForAll long seed, @ForAll FencingMode fencing,
                                                        @ForAll TokenScheme scheme) throws Exception {
        RunSpec spec = RandomSchedules.of(seed, fencing, scheme);
        Ran ran = run(spec, "random-" + seed);
        ReportInput input = new ReportInput("random-schedule", "random", "", List.of(), ran.result, ran.events,
                ReportInput.configurationOf(spec), "anything", true, List.of());

        Statistics.label("verdict").collect(ran.result.verdict().kind());
        Statistics.label("stale overwrites").collect(overwrites(ran.result.judgement()).isEmpty() ? "none" : "some");
        agreeOnEveryWrite(ran, input, "seed " + seed + ", " + fencing + ", " + scheme);
    }

    @Example
    void everyCatalogScenarioAgreesWithItsJudgement() throws Exception {
        for (String name : Catalog.shipped().names()) {
            Scenario scenario = Catalog.shipped().resolve(name);
            Ran ran = run(scenario.spec(), name);
            agreeOnEveryWrite(ran, ReportInput.of(scenario, scenario.spec(), ran.result, ran.events, Map.of()), name);
        }
    }

    @Example
    void lessonsOnBrokenTokensShowTheWitnessWriteAsAStaleWriteAcceptedOverNewerWork() throws Exception {
        for (String name : List.of("json-precision", "wall-clock-tokens-skew", "token-goes-backwards")) {
            Scenario scenario = Catalog.shipped().resolve(name);
            Ran ran = run(scenario.spec(), name);
            Judgement judgement = ran.result.judgement();
            List<WriteJudgement> stale = overwrites(judgement);
            assertThat(stale).as("%s: the checker finds a stale write accepted over newer work", name).isNotEmpty();

            Timeline timeline = Timeline.from(ran.events, judgement);
            for (WriteJudgement w : stale) {
                assertThat(marksBySeq(timeline).get(w.seq())).as("%s: the timeline mark of write %d", name, w.seq())
                        .extracting(Mark.Write::kind).isEqualTo(WriteClass.STALE_OVERWRITE);
            }
            String html = HtmlReport.render(ReportInput.of(scenario, scenario.spec(), ran.result, ran.events, Map.of()));
            Mark.Write witnessWrite = marksBySeq(timeline).get(stale.getFirst().seq());
            assertThat(html).as("%s: the report's SVG tooltip of the witness write", name).contains(Html.esc(
                    "%s: %s's write with token %d to %s: %s".formatted(RunTimes.seconds(witnessWrite.atMicros()),
                            witnessWrite.holder(), witnessWrite.token(), witnessWrite.resource(),
                            Palette.describe(WriteClass.STALE_OVERWRITE))));
        }
    }

    private record Ran(RunResult result, List<Event> events) {}

    private static Ran run(RunSpec spec, String name) throws Exception {
        RunResult result;
        try (Run run = Run.prepare(db, spec, dir.resolve(name + ".jsonl"))) {
            result = run.runToEnd();
        }
        return new Ran(result, EventLogReader.read(result.eventLog()));
    }

    private static void agreeOnEveryWrite(Ran ran, ReportInput input, String what) throws Exception {
        Judgement judgement = ran.result.judgement();
        Map<Long, Mark.Write> marks = marksBySeq(Timeline.from(ran.events, judgement));
        int outcomes = 0;
        for (Event e : ran.events) {
            WriteClass expected = judgement.classOf(e.seq());
            boolean outcome = e instanceof Event.WriteAccepted || e instanceof Event.WriteRejectedStale
                    || e instanceof Event.WriteMissing || e instanceof Event.WriteOutOfOrder;
            assertThat(expected != null).as("%s: event %d is classified exactly when it is a write outcome", what, e.seq())
                    .isEqualTo(outcome);
            if (outcome) {
                outcomes++;
                assertThat(marks.get(e.seq())).as("%s: the timeline's mark of write %d", what, e.seq())
                        .extracting(Mark.Write::kind).isEqualTo(expected);
            }
        }
        assertThat(marks).as("%s: one mark per write outcome", what).hasSize(outcomes);

        List<WriteJudgement> stale = overwrites(judgement);
        List<String> text = VerdictText.of(ran.events, judgement);
        long told = text.stream().filter(s -> s.endsWith("stale work overwrote newer work.")).count();
        assertThat(told).as("%s: the verdict text tells each stale overwrite (up to %d)", what, VerdictText.EXAMPLES)
                .isEqualTo(Math.min(stale.size(), VerdictText.EXAMPLES));
        if (stale.size() > VerdictText.EXAMPLES) {
            int rest = stale.size() - VerdictText.EXAMPLES;
            assertThat(text).as("%s: and counts the rest", what)
                    .contains("%d more %s accepted over newer ones.".formatted(rest,
                            rest == 1 ? "stale write was" : "stale writes were"));
        }
        assertThat(text).as("%s: the verdict sentence", what).anyMatch(judgement.isSafe()
                ? s -> s.startsWith("Safe")
                : s -> s.equals("Unsafe: " + VerdictText.violations(judgement.verdict()) + "."));

        JsonNode summary = new ObjectMapper().readTree(SummaryJson.render(input));
        assertThat(summary.get("verdict").asText()).as("%s: summary.json's verdict", what)
                .isEqualTo(judgement.verdict().kind().name());
        assertThat(summary.get("totals").get("staleOverwrites").asLong()).as("%s: summary.json's stale overwrites", what)
                .isEqualTo(stale.size());
        assertThat(summary.get("witnesses")).as("%s: summary.json's witnesses", what)
                .hasSize(judgement.verdict().witnesses().size());
    }

    private static List<WriteJudgement> overwrites(Judgement judgement) {
        List<WriteJudgement> stale = new ArrayList<>();
        for (WriteJudgement w : judgement.writes().all()) {
            if (w.isStaleOverwrite()) {
                stale.add(w);
            }
        }
        return stale;
    }

    /** Each write's mark on its resource lane (a holder lane shows the same marks again). */
    private static Map<Long, Mark.Write> marksBySeq(Timeline timeline) {
        Map<Long, Mark.Write> bySeq = new HashMap<>();
        for (ResourceLane lane : timeline.resources()) {
            for (Mark m : lane.marks()) {
                if (m instanceof Mark.Write w) {
                    assertThat(bySeq.put(w.seq(), w)).as("write %d marked once", w.seq()).isNull();
                }
            }
        }
        return bySeq;
    }
}

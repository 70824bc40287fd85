package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A process run's lanes carry each holder's host and pid, and a lost host's holders are marked from then on. */
class ProcessTimelineTest {

    private static final long S = 1_000_000L;

    /**
     * A on host a (pid 41234), B on host b (pid 41300); A holds 41 and writes, host a stops answering at
     * 20 s, A's lease expires at 30 s, B takes 42 and writes; B's agent is crashed at 45 s and restarted
     * as pid 41377.
     */
    static List<Event> processRun() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.agentStarted(0.2, "A", "a", 41234);
        log.agentStarted(0.3, "B", "b", 41300);
        log.acquired(1, "A", "report", 41, 30);
        log.beliefStarted(1, "A", "report", 41);
        log.attempted(5, "A", "report", 41, TargetKind.ROW, "report-1");
        log.accepted(5.1, "A", "report", 41, TargetKind.ROW, "report-1", "d41");
        log.hostLost(20, "a");
        log.expired(30, "A", "report", 41);
        log.acquired(31, "B", "report", 42, 60);
        log.beliefStarted(31, "B", "report", 42);
        log.attempted(35, "B", "report", 42, TargetKind.ROW, "report-1");
        log.accepted(35.1, "B", "report", 42, TargetKind.ROW, "report-1", "d42");
        log.agentExited(45, "B", "b", 41300, "killed (CRASH)");
        log.agentStarted(46, "B", "b", 41377);
        log.runEnded(50);
        return log.events();
    }

    @Test
    void eachHoldersLaneNamesItsHostAndItsLatestPid() {
        Timeline t = Judged.timeline(processRun());

        assertThat(t.holders()).extracting(HolderLane::holder, l -> l.agent().host(), l -> l.agent().pid())
                .containsExactly(tuple("A", "a", 41234L), tuple("B", "b", 41377L));
        assertThat(t.holder("B").orElseThrow().agent().exitedAtMicros())
                .as("the restarted process runs: the old one's exit is not the new one's").isNull();
        assertThat(t.holder("A").orElseThrow().agent().label()).isEqualTo("host a \u00b7 pid 41234");
    }

    @Test
    void aLostHostMarksItsHoldersFromThenOnAndKeepsWhatTheyDidBefore() {
        Timeline t = Judged.timeline(processRun());

        HolderLane a = t.holder("A").orElseThrow();
        assertThat(a.agent().lostAtMicros()).isEqualTo(20 * S);
        assertThat(a.writes()).as("A's write before its host was lost stays").extracting(Mark.Write::atMicros)
                .containsExactly(5_100_000L);
        assertThat(a.held()).extracting(Span::startMicros, Span::endMicros).containsExactly(tuple(S, 30 * S));
        assertThat(t.holder("B").orElseThrow().agent().lost()).as("B's host answers").isFalse();
    }

    @Test
    void anExitWithoutARestartIsKeptOnTheLane() {
        List<Event> events = processRun().subList(0, 14);

        HolderLane b = Judged.timeline(events).holder("B").orElseThrow();

        assertThat(b.agent().pid()).isEqualTo(41300L);
        assertThat(b.agent().exitedAtMicros()).isEqualTo(45 * S);
    }

    @Test
    void fedBatchByBatchTheLanesAreTheSameAsFromTheWholeLog() {
        List<Event> events = processRun();
        TimelineBuilder b = new TimelineBuilder();
        for (int i = 0; i < events.size(); i += 3) {
            List<Event> batch = events.subList(i, Math.min(events.size(), i + 3));
            b.accept(batch, SafetyChecker.judgement(events.subList(0, Math.min(events.size(), i + 3))));
            b.timeline(SafetyChecker.judgement(events.subList(0, Math.min(events.size(), i + 3))));
        }

        assertThat(b.timeline(SafetyChecker.judgement(events)).holders()).isEqualTo(Judged.timeline(events).holders());
    }

    @Test
    void aRunWithoutAgentsHasNoAgentOnItsLanes() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(1, "A", "report", 41, 30);
        log.runEnded(10);

        assertThat(Judged.timeline(log.events()).holder("A").orElseThrow().agent()).isNull();
    }

    @Test
    void theReportShowsHostPidAndTheLostBand(@TempDir Path dir) {
        List<Event> events = processRun();

        String svg = TimelineSvg.render(Judged.timeline(events));
        String html = HtmlReport.render(Inputs.of(events, dir.resolve("events.jsonl"), "A process run"));
        HtmlReportTest.save("report-process-run.html", html);

        assertThat(svg).contains(">host a lost</text>").contains(">host b</text>").contains(">pid 41234</text>")
                .contains(">pid 41377</text>");
        assertThat(svg).as("one band, for A, from 20 s to the end of the run").containsOnlyOnce("class=\"host-lost\"")
                .contains("data-t=\"20000000 50000000\"")
                .contains("host a stopped answering at 20.0s: nothing A did after that reached the log");
        assertThat(html).contains("class=\"host-lost\"").contains("host lost (process runs)</li>");
        HtmlReportTest.assertWellFormedEnough(html);
    }

    @Test
    void aRunWithoutAgentsDrawsNoHostLines() {
        String svg = TimelineSvg.render(Judged.timeline(processRun().stream()
                .filter(e -> !(e instanceof Event.AgentReport)).toList()));

        assertThat(svg).doesNotContain("host ").doesNotContain("pid ").doesNotContain("host-lost");
    }

    @Test
    void whileEveryHostAnswersNothingIsMarkedLost(@TempDir Path dir) {
        List<Event> beforeTheLoss = processRun().subList(0, 7);

        assertThat(HtmlReport.render(Inputs.of(beforeTheLoss, dir.resolve("e.jsonl"), "not lost yet")))
                .as("no band, no legend entry").doesNotContain("host-lost").doesNotContain("host lost")
                .contains(">pid 41234</text>");
    }
}

package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.Failover;
import io.fencelab.engine.metrics.LeaseLoss;
import io.fencelab.engine.metrics.TuningEpisodes;
import io.fencelab.engine.resource.TargetKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's tables of failovers and lease losses, on a hand-built log of three replicas of a
 * leader: A is frozen past its lease (B takes over), B steps down at its renew deadline with its lease
 * still valid (C waits for it to expire), C crashes and nobody follows before the run ends. The
 * episodes are built by hand too, so these tests pin the rendering, not the collector.
 */
class EpisodeTablesTest {

    private static final long S = 1_000_000;
    private static final long RUN = 120 * S;

    static final Failover FROZEN = new Failover("leader", 20 * S, 41 * S, "A", "B", Failover.Cause.LEASE_LOST,
            "pause 25.0s (gc)");
    static final Failover STEPPED_DOWN = new Failover("leader", 60 * S, 75 * S, "B", "C", Failover.Cause.STEP_DOWN,
            "pause 12.0s (gc)");
    static final Failover CRASHED = new Failover("leader", 100 * S, null, "C", null, Failover.Cause.CRASH,
            "fault CRASH on C");
    static final LeaseLoss A_LOST = new LeaseLoss(35 * S, "leader", "A", 1, LeaseLoss.Kind.PAUSE,
            LeaseLoss.Reason.EXPIRED, 25 * S, 6 * S);
    static final LeaseLoss B_STEPPED_DOWN = new LeaseLoss(72 * S, "leader", "B", 2, LeaseLoss.Kind.PAUSE,
            LeaseLoss.Reason.RENEW_DEADLINE, 12 * S, 3 * S);
    static final LeaseLoss C_REFUSED = new LeaseLoss(90 * S, "leader", "C", 3, LeaseLoss.Kind.RENEWAL,
            LeaseLoss.Reason.RENEWAL_REFUSED, null, null);

    @Test
    void everyFailoverIsListedWithItsCauseItsNextHolderAndWhatWasBehindIt(@TempDir Path dir) {
        String html = render(dir, new TuningEpisodes(List.of(FROZEN, STEPPED_DOWN, CRASHED), List.of()));
        save("report-episodes.html", html);

        List<String> rows = rows(html, "failovers");
        assertThat(rows).as("one row per failover, in order").hasSize(3);
        assertThat(rows.get(0)).as("A, frozen past its lease")
                .contains("<td class=\"num\">20 s</td><td>leader</td><td>A</td><td>its lease expired while it believed it held it</td>")
                .contains("<td class=\"num\">21 s</td><td>B</td><td>pause 25.0s (gc)</td>");
        assertThat(rows.get(1)).as("B, stepping down with its lease still valid")
                .contains("<td>B</td><td>stepped down, its lease still valid</td><td class=\"num\">15 s</td><td>C</td>");
        assertThat(rows.get(2)).as("C crashed and nobody followed before the end")
                .contains("<td>C</td><td>crashed</td><td class=\"num\">not before the run ended</td><td>none</td>")
                .contains("<td>fault CRASH on C</td>");
    }

    @Test
    void everyLeaseLossIsListedWithItsHolderTokenKindReasonAndPause(@TempDir Path dir) {
        String html = render(dir, new TuningEpisodes(List.of(), List.of(A_LOST, B_STEPPED_DOWN, C_REFUSED)));

        List<String> rows = rows(html, "lease-losses");
        assertThat(rows).as("one row per lease loss, in order").hasSize(3);
        assertThat(rows.get(0)).as("A's lease expired during its pause")
                .contains("<td class=\"num\">35 s</td><td>leader</td><td>A</td><td class=\"num\">1</td><td>a pause</td>"
                        + "<td>expired while it believed it held it</td><td class=\"num\">25 s</td><td class=\"num\">6 s</td>");
        assertThat(rows.get(1)).as("B gave up at its renew deadline")
                .contains("<td>B</td><td class=\"num\">2</td><td>a pause</td><td>stepped down at its renew deadline, its lease still valid</td>");
        assertThat(rows.get(2)).as("C's renewal was refused, no pause, nobody next")
                .contains("<td>C</td><td class=\"num\">3</td><td>renewals</td><td>renewal refused</td><td class=\"num\">none</td>"
                        + "<td class=\"num\">not before the run ended</td>");
    }

    @Test
    void aRunWithoutFailoversOrLeaseLossesSaysSoInALine(@TempDir Path dir) {
        String html = render(dir, TuningEpisodes.NONE);

        assertThat(html).contains("<h2>Failovers and lease losses</h2>")
                .contains("<p>No failover in this run.</p>")
                .contains("<p>No lease lost in this run.</p>")
                .doesNotContain("<table class=\"episodes\"");
    }

    @Test
    void episodesTheCollectorCountedButDidNotListAreCountedToo(@TempDir Path dir) {
        String html = render(dir, new TuningEpisodes(List.of(FROZEN), List.of(), 2_500, 0));

        assertThat(rows(html, "failovers")).as("the one listed").hasSize(1);
        assertThat(html).as("the collector's own left-out count, said")
                .contains("… and 2500 failovers more, counted in the figures above but not listed here");
    }

    @Test
    void aLongListShowsEveryRowUpToTheCapAndCountsTheRest(@TempDir Path dir) {
        List<LeaseLoss> many = new ArrayList<>();
        for (int i = 0; i < EpisodeTables.MAX_ROWS + 7; i++) {
            many.add(new LeaseLoss(i * S / 2, "leader", "A", i + 1, LeaseLoss.Kind.RENEWAL, LeaseLoss.Reason.EXPIRED, null,
                    S / 10));
        }

        String html = render(dir, new TuningEpisodes(List.of(FROZEN), many));

        assertThat(rows(html, "lease-losses")).as("rows shown").hasSize(EpisodeTables.MAX_ROWS);
        assertThat(html).as("the rest counted, not dropped in silence")
                .contains("… and 7 lease losses more, counted in the figures above but not listed here")
                .as("a list within the cap has no such line").doesNotContain("failovers more");
    }

    @Test
    void everyRowLinksToTheTimelineZoomedToAWindowAroundItsEpisode(@TempDir Path dir) {
        TuningEpisodes episodes = new TuningEpisodes(List.of(FROZEN, STEPPED_DOWN, CRASHED),
                List.of(A_LOST, B_STEPPED_DOWN, C_REFUSED));
        String html = render(dir, episodes);

        Matcher links = Pattern.compile("<a href=\"#([a-z-]+)\" data-zoom=\"(\\d+) (\\d+)\" data-mark=\"(\\d+) (\\d+)\""
                + " title=\"[^\"]*\">([^<]*)</a>").matcher(html);
        List<long[]> windows = new ArrayList<>();
        while (links.find()) {
            assertThat(html).as("the link's anchor #%s is on the page", links.group(1))
                    .contains("<section id=\"" + links.group(1) + "\" aria-label=\"Timeline\">");
            long from = Long.parseLong(links.group(2));
            long to = Long.parseLong(links.group(3));
            long markFrom = Long.parseLong(links.group(4));
            long markTo = Long.parseLong(links.group(5));
            assertThat(new long[] {0, from, markFrom, markTo, to, RUN}).as("window %s–%s around %s–%s, within the run",
                    from, to, markFrom, markTo).isSorted();
            assertThat(links.group(6)).as("the link names its window")
                    .isEqualTo(new TimelineZoom.Window(from, to).words());
            windows.add(new long[] {markFrom, markTo});
        }
        assertThat(windows).as("one link per row").hasSize(6);
        assertThat(windows.get(0)).as("A's failover: from its start to B's grant").containsExactly(20 * S, 41 * S);
        assertThat(windows.get(2)).as("C's failover, nobody next: to the run's end").containsExactly(100 * S, RUN);
        assertThat(windows.get(3)).as("A's loss: from the pause's earliest start to the pause's latest end")
                .containsExactly(10 * S, 60 * S);
        assertThat(html).contains("zoomed to")
                .as("the zoom buttons, hidden until the script shows them").contains("<div class=\"zoom\" id=\"timeline-zoom\"");
    }

    @Test
    void holderAndScopeNamesFromTheScenarioAreEscapedInTheTables(@TempDir Path dir) {
        String evil = "<img src=x onerror=alert(1)>";
        TuningEpisodes episodes = new TuningEpisodes(
                List.of(new Failover(evil, 20 * S, 41 * S, evil, evil, Failover.Cause.CRASH, evil)),
                List.of(new LeaseLoss(35 * S, evil, evil, 1, LeaseLoss.Kind.PAUSE, LeaseLoss.Reason.EXPIRED, S, S)));

        String html = render(dir, episodes);

        assertThat(html).doesNotContain("<img").contains("<td>&lt;img src=x onerror=alert(1)&gt;</td>");
        HtmlReportTest.assertWellFormedEnough(html);
    }

    @Test
    void theZoomWindowPadsItsEpisodeAFifthEachSideAndStaysInTheRun() {
        assertThat(TimelineZoom.around(50 * S, 60 * S, RUN)).as("padded")
                .isEqualTo(new TimelineZoom.Window(48 * S, 62 * S));
        assertThat(TimelineZoom.around(0, 10 * S, RUN)).as("kept in the run, its width kept")
                .isEqualTo(new TimelineZoom.Window(0, 14 * S));
        assertThat(TimelineZoom.around(70 * S, 70 * S, RUN)).as("an instant: the narrowest window, centred")
                .isEqualTo(new TimelineZoom.Window(70 * S - S / 2, 70 * S + S / 2));
        assertThat(TimelineZoom.around(0, 600 * S, 600 * S)).as("the whole run").isEqualTo(new TimelineZoom.Window(0, 600 * S));
        assertThat(TimelineZoom.minWindow(3_000 * S)).as("at most %d times zoomed", TimelineZoom.MAX_ZOOM)
                .isEqualTo(6 * S);
        assertThat(new TimelineZoom.Window(447_750_000, 477_940_000).words()).isEqualTo("447.8–477.9 s");
    }

    /** The report of the three replicas' log, carrying {@code episodes}. */
    static String render(Path dir, TuningEpisodes episodes) {
        return HtmlReport.render(Inputs.withEpisodes(Inputs.of(threeReplicas(), dir.resolve("events.jsonl"),
                "Three replicas of a leader"), episodes));
    }

    /** The rows of the table with id {@code table}. */
    static List<String> rows(String html, String table) {
        int start = html.indexOf("<table class=\"episodes\" id=\"" + table + "\">");
        assertThat(start).as("table %s on the page", table).isNotNegative();
        String body = html.substring(html.indexOf("<tbody>", start), html.indexOf("</tbody>", start));
        List<String> rows = new ArrayList<>();
        for (Matcher m = Pattern.compile("<tr>(.*?)</tr>").matcher(body); m.find(); ) {
            rows.add(m.group(1));
        }
        return rows;
    }

    /** The story the episodes above tell, as events. */
    static List<Event> threeReplicas() {
        List<Event> e = new ArrayList<>();
        e.add(new Event.RunStarted(e.size() + 1, 0, "three-replicas", "simulated", "FENCED", "MONOTONIC", 1, "PostgreSQL 17.6"));
        e.add(new Event.LeaseAcquired(e.size() + 1, 0, "A", "leader", 1, 1, 15 * S));
        e.add(new Event.BeliefStarted(e.size() + 1, 0, "A", "leader", 1));
        e.add(new Event.WriteAccepted(e.size() + 1, 5 * S, "A", "leader", 1, TargetKind.ROW, "state", "0123456789abcdef"));
        e.add(new Event.LeaseRenewed(e.size() + 1, 10 * S, "A", "leader", 1, 35 * S));
        e.add(new Event.PauseStarted(e.size() + 1, 20 * S, "A", 25 * S, "gc"));
        e.add(new Event.LeaseExpired(e.size() + 1, 35 * S, "A", "leader", 1));
        e.add(new Event.LeaseAcquired(e.size() + 1, 41 * S, "B", "leader", 2, 2, 56 * S));
        e.add(new Event.BeliefStarted(e.size() + 1, 41 * S, "B", "leader", 2));
        e.add(new Event.PauseEnded(e.size() + 1, 45 * S, "A"));
        e.add(new Event.WriteRejectedStale(e.size() + 1, 45 * S + 1000, "A", "leader", 1, TargetKind.ROW, "state", 2L));
        e.add(new Event.BeliefEnded(e.size() + 1, 45 * S + 1000, "A", "leader", 1, Event.BeliefEnded.Cause.STALE_ANSWER, "stale"));
        e.add(new Event.WriteAccepted(e.size() + 1, 50 * S, "B", "leader", 2, TargetKind.ROW, "state", "0123456789abcdef"));
        e.add(new Event.LeaseRenewed(e.size() + 1, 55 * S, "B", "leader", 2, 75 * S));
        e.add(new Event.PauseStarted(e.size() + 1, 60 * S, "B", 12 * S, "gc"));
        e.add(new Event.PauseEnded(e.size() + 1, 72 * S, "B"));
        e.add(new Event.BeliefEnded(e.size() + 1, 72 * S, "B", "leader", 2, Event.BeliefEnded.Cause.RENEW_DEADLINE,
                "renew deadline"));
        e.add(new Event.LeaseExpired(e.size() + 1, 75 * S, "B", "leader", 2));
        e.add(new Event.LeaseAcquired(e.size() + 1, 75 * S, "C", "leader", 3, 3, 90 * S));
        e.add(new Event.BeliefStarted(e.size() + 1, 75 * S, "C", "leader", 3));
        e.add(new Event.WriteAccepted(e.size() + 1, 80 * S, "C", "leader", 3, TargetKind.ROW, "state", "0123456789abcdef"));
        e.add(new Event.LeaseExpired(e.size() + 1, 90 * S, "C", "leader", 3));
        e.add(new Event.BeliefEnded(e.size() + 1, 90 * S, "C", "leader", 3, Event.BeliefEnded.Cause.RENEWAL_REFUSED,
                "renewal failed"));
        e.add(new Event.LeaseAcquired(e.size() + 1, 90 * S + 500_000, "C", "leader", 4, 4, 105 * S));
        e.add(new Event.BeliefStarted(e.size() + 1, 90 * S + 500_000, "C", "leader", 4));
        e.add(new Event.FaultInjected(e.size() + 1, 100 * S, "CRASH", "C", 0, null));
        e.add(new Event.BeliefEnded(e.size() + 1, 100 * S, "C", "leader", 4, Event.BeliefEnded.Cause.CRASHED, "crashed"));
        e.add(new Event.LeaseExpired(e.size() + 1, 105 * S, "C", "leader", 4));
        e.add(new Event.RunEnded(e.size() + 1, RUN, Event.RunEnded.Reason.COMPLETED));
        return e;
    }

    private static void save(String name, String html) {
        try {
            Path saved = Path.of("target", "reports");
            Files.createDirectories(saved);
            Files.writeString(saved.resolve(name), html, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

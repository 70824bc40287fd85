package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A user's SQL fence gets a resource lane named by its fence and key, with a look of its own. */
class SqlLaneSvgTest {

    /** A refuses a stale write to the user's report 17 after B wrote; a built-in row beside it. */
    static List<Event> sqlLog() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "reports", 41, 5);
        log.accepted(0.5, "A", "reports", 41, TargetKind.SQL, SqlKey.of("report", "17"), "a");
        log.accepted(0.6, "A", "reports", 41, TargetKind.ROW, "report-1", "a");
        log.acquired(6, "B", "reports", 42, 11);
        log.accepted(6.5, "B", "reports", 42, TargetKind.SQL, SqlKey.of("report", "17"), "b");
        log.rejectedStale(7, "A", "reports", 41, TargetKind.SQL, SqlKey.of("report", "17"), 42);
        log.runEnded(10);
        return log.events();
    }

    @Test
    void aSqlFenceLaneIsNamedByItsFenceAndKeyWithItsOwnBand() {
        List<Event> events = sqlLog();
        String svg = TimelineSvg.render(Timeline.from(events, SafetyChecker.judgement(events)));
        assertThat(svg).as("the SQL lane's kind word in the fence colour").contains(
                "style=\"fill:" + Palette.SQL_FENCE + ";font-weight:700\">SQL · scope reports</text>");
        assertThat(svg).as("the lane's name: fence and key").contains(">report 17</text>");
        assertThat(svg).as("its tooltip in words").contains("your SQL fence report, key 17, scope reports");
        assertThat(svg).as("the band down the lane's edge").contains("fill=\"" + Palette.SQL_FENCE + "\"/>");
        assertThat(svg).as("a built-in row keeps its own naming").contains(">ROW</text>")
                .contains(">reports/report-1</text>");
    }

    @Test
    void onlyTheSqlTargetHasABandAndItsColourIsNoWriteColour() {
        for (TargetKind kind : TargetKind.values()) {
            String key = kind == TargetKind.SQL ? SqlKey.of("report", "17") : "report-1";
            Palette.ResourceLook look = Palette.look(new ResourceId(kind, "reports", key));
            assertThat(look.band()).as("%s's band", kind).isEqualTo(kind == TargetKind.SQL ? Palette.SQL_FENCE : null);
            assertThat(look.kind()).as("%s's kind word", kind).isEqualTo(kind.name());
        }
        assertThat(Palette.look(new ResourceId(TargetKind.SQL, "s", "report:17")).name()).isEqualTo("report 17");
        for (io.fencelab.engine.check.WriteClass w : io.fencelab.engine.check.WriteClass.values()) {
            assertThat(Palette.of(w)).as("the SQL band is not the colour of a write outcome").isNotEqualTo(Palette.SQL_FENCE);
        }
    }

    @Test
    void aStatementContradictedByItsRowOutlinesThatWritesMarkAsTheWitness() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "reports", 41, 5);
        Event.WriteAccepted write = log.accepted(0.5, "A", "reports", 41, TargetKind.SQL, SqlKey.of("report", "17"), "a");
        List<Event> events = new java.util.ArrayList<>(log.events());
        // The statement said accepted; the row read back holds token 0: the fence's own word is wrong.
        events.add(new Event.WriteContradicted(write.seq() + 1, write.atMicros(), "A", "reports", 41, TargetKind.SQL,
                SqlKey.of("report", "17"), "ACCEPTED", "0", "said accepted, but the row holds token 0"));
        io.fencelab.engine.check.Judgement judgement = SafetyChecker.judgement(events);
        assertThat(judgement.verdict().witnesses()).as("the checker's witness of a contradicted statement")
                .singleElement().satisfies(w -> assertThat(w.invariant())
                        .isEqualTo(io.fencelab.engine.check.Invariant.OUTCOME_CONTRADICTED));

        Timeline t = Timeline.from(events, judgement);
        assertThat(t.highlights().numbersOf(write.seq())).as("the write's mark carries witness 1").containsExactly(1);
        assertThat(t.highlight(judgement.verdict()).highlights().numbersOf(write.seq()))
                .as("and keeps it when the console highlights the verdict again").containsExactly(1);
        assertThat(TimelineSvg.render(t)).as("the mark is ringed as a witness and its holder's lane says so")
                .contains("class=\"witness\"").contains("witness 1");
    }
}

package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AxisRangeTest {

    @Test
    void aRangeWithStepsReadsItsEndsAndSteps() {
        AxisRange r = AxisRange.parse("lease.ttl=10s..40s:4");
        assertThat(r.path()).isEqualTo("lease.ttl");
        assertThat(r.values()).isEqualTo(new AxisRange.Span("10s", "40s", OptionalInt.of(4), false));
    }

    @Test
    void logIsReadWithOrWithoutAColonAndWithOrWithoutSteps() {
        assertThat(AxisRange.parse("lease.ttl=1s..100s:5log").values())
                .isEqualTo(new AxisRange.Span("1s", "100s", OptionalInt.of(5), true));
        assertThat(AxisRange.parse("lease.ttl=1s..100s:log").values())
                .isEqualTo(new AxisRange.Span("1s", "100s", OptionalInt.empty(), true));
    }

    @Test
    void stepsNotWrittenAreTheDefaultUnlessTheEndsAreEqual() {
        AxisRange.Span span = (AxisRange.Span) AxisRange.parse("lease.ttl=10s..30s").values();
        assertThat(span.steps()).as("not written").isEmpty();
        assertThat(span.stepsBetween(10, 30)).isEqualTo(AxisRange.DEFAULT_STEPS);
        assertThat(span.stepsBetween(1.5, 1.5)).as("a range of one value").isEqualTo(1);
        assertThat(((AxisRange.Span) AxisRange.parse("x=1..2:3").values()).stepsBetween(1, 1))
                .as("written steps win").isEqualTo(3);
    }

    @Test
    void aListKeepsItsItemsInOrderWithoutSurroundingSpace() {
        AxisRange r = AxisRange.parse(" workers[1].count = 1, 2,3 ");
        assertThat(r.path()).isEqualTo("workers[1].count");
        assertThat(r.values()).isEqualTo(new AxisRange.Listed(List.of("1", "2", "3")));
        assertThat(AxisRange.parse("lease.ttl=12s").values()).as("one value is a list of one")
                .isEqualTo(new AxisRange.Listed(List.of("12s")));
    }

    @Test
    void theEndsAreLeftAsWrittenForTheKindToRead() {
        // The syntax does not know what a path counts: a bad number is the caller's to report.
        assertThat(AxisRange.parse("lease.ttl=10..20s").values())
                .isEqualTo(new AxisRange.Span("10", "20s", OptionalInt.empty(), false));
        assertThat(AxisRange.parse("lease.ttl=10s....").values()).as("the second end is '..'")
                .isEqualTo(new AxisRange.Span("10s", "..", OptionalInt.empty(), false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"lease.ttl", "=10s..20s", "lease.ttl=", "lease.ttl=..", "lease.ttl=..20s"})
    void aFormThatIsNeitherARangeNorAListNamesTheSyntax(String vary) {
        assertThatThrownBy(() -> AxisRange.parse(vary)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--vary '" + vary + "': write " + AxisRange.SYNTAX)
                .hasMessageContaining("PATH=FROM..TO[:STEPS][log]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1001", "99999999999"})
    void stepsOutsideTheBoundsAreRefusedWithTheBounds(String steps) {
        String vary = "lease.ttl=10s..20s:" + steps;
        assertThatThrownBy(() -> AxisRange.parse(vary)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--vary '" + vary + "': STEPS must be from 1 to " + AxisRange.MAX_STEPS + ", was " + steps);
    }

    @Test
    void theBoundsThemselvesAreAllowed() {
        assertThat(((AxisRange.Span) AxisRange.parse("x=1..2:1").values()).steps()).hasValue(1);
        assertThat(((AxisRange.Span) AxisRange.parse("x=1..2:" + AxisRange.MAX_STEPS).values()).steps())
                .hasValue(AxisRange.MAX_STEPS);
    }

    @Test
    void anErrorAboutAParsedArgumentQuotesItAsGiven() {
        AxisRange r = AxisRange.parse("lease.ttl=0s..20s:3log");
        assertThat(r.error("a log range needs both ends above 0"))
                .hasMessage("--vary 'lease.ttl=0s..20s:3log': a log range needs both ends above 0");
    }
}

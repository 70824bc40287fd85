package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({"250ms, PT0.25S", "30s, PT30S", "1.5s, PT1.5S", "2m, PT2M", "1h, PT1H", "0s, PT0S", "-5s, PT-5S",
            "0.000001s, PT0.000001S"})
    void theDocumentedFormsParse(String text, Duration expected) {
        assertThat(Durations.parse(text)).isEqualTo(new Durations.Parsed.Ok(expected));
    }

    @Test
    void formattingIsTheShortestFileForm() {
        assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("120s");
        assertThat(Durations.format(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(Durations.format(Duration.ofSeconds(-5))).isEqualTo("-5s");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    }

    @Test
    void finerThanAMicrosecondOrTooLongIsRefused() {
        assertThat(Durations.parse("0.0000001s")).isInstanceOf(Durations.Parsed.Bad.class);
        assertThat(Durations.parse("999999999999h")).isEqualTo(
                new Durations.Parsed.Bad("'999999999999h' is too long for a duration"));
    }
}

package io.fencelab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void oddRoundsGiveTheMiddleOneAsMedian() {
        Spread s = Spread.of(List.of(5.0, 1.0, 3.0));
        assertThat(s).as("min, median, max of 5, 1, 3").isEqualTo(new Spread(1.0, 3.0, 5.0));
        assertThat(s.format(1)).isEqualTo("1.0/3.0/5.0");
    }

    @Test
    void evenRoundsAverageTheTwoMiddleOnes() {
        assertThat(Spread.of(List.of(4.0, 1.0, 2.0, 10.0)).median()).isEqualTo(3.0);
    }

    @Test
    void noRoundsIsRefused() {
        assertThatThrownBy(() -> Spread.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}

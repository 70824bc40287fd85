package io.fencelab.engine.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pacer on a fake ticker: real time moves only when the test moves it, and nothing sleeps. */
class PacerTest {

    private static final long SECOND_NANOS = 1_000_000_000L;
    private static final long SECOND_MICROS = 1_000_000L;

    /** Real time that moves only by hand; as a waiter it "waits" by moving itself on. */
    private static final class FakeTicker implements Ticker, Pacer.Waiter {
        long now = 123_456_789L;
        final List<Long> waits = new ArrayList<>();

        @Override
        public long nanos() {
            return now;
        }

        void advance(long nanos) {
            now += nanos;
        }

        @Override
        public void await(long nanos) {
            waits.add(nanos);
            now += nanos;
        }
    }

    private final FakeTicker ticker = new FakeTicker();
    private final Pacer pacer = new Pacer(ticker);

    @Test
    void runTimeMovesWithRealTimeAtTheChosenSpeed() {
        pacer.play(5 * SECOND_MICROS, 10);
        assertThat(pacer.runMicros()).as("just anchored: run time is where play began").isEqualTo(5 * SECOND_MICROS);

        ticker.advance(SECOND_NANOS / 2);
        assertThat(pacer.runMicros()).as("half a real second at 10x is five run seconds")
                .isEqualTo(10 * SECOND_MICROS);
    }

    @Test
    void anInstantIsDueWhenRealTimeReachesItAtTheSpeed() {
        pacer.play(0, 2);

        assertThat(pacer.nanosUntil(3 * SECOND_MICROS)).as("3 run seconds at 2x take 1.5 real seconds")
                .isEqualTo(3 * SECOND_NANOS / 2);
        assertThat(pacer.isDue(3 * SECOND_MICROS)).isFalse();
        assertThat(pacer.isDue(0)).as("the anchor itself is due at once").isTrue();

        ticker.advance(SECOND_NANOS);
        assertThat(pacer.nanosUntil(3 * SECOND_MICROS)).isEqualTo(SECOND_NANOS / 2);
        ticker.advance(SECOND_NANOS / 2);
        assertThat(pacer.isDue(3 * SECOND_MICROS)).isTrue();
        assertThat(pacer.nanosUntil(SECOND_MICROS)).as("an instant already passed is due, not negative").isZero();
    }

    @Test
    void awaitingWaitsInSlicesThroughTheWaiterUntilTheInstantIsDue() throws InterruptedException {
        pacer.play(0, 0.5);
        long due = 10 * SECOND_MICROS / 1_000; // 10 ms of run time: 20 ms of real time at 0.5x

        while (!pacer.isDue(due)) {
            pacer.awaitDue(due, 8_000_000, ticker);
        }

        assertThat(ticker.waits).as("no wait longer than the slice, and none past the instant")
                .containsExactly(8_000_000L, 8_000_000L, 4_000_000L);
        pacer.awaitDue(due, 8_000_000, ticker);
        assertThat(ticker.waits).as("a due instant is not waited for").hasSize(3);
    }

    @Test
    void aSpeedChangeMidRunKeepsRunTimeAndChangesOnlyHowFastItMoves() {
        pacer.play(0, 1);
        ticker.advance(4 * SECOND_NANOS);
        long reached = pacer.runMicros();
        assertThat(reached).isEqualTo(4 * SECOND_MICROS);

        pacer.play(reached, 10);
        assertThat(pacer.runMicros()).as("the new speed starts where the old one left off").isEqualTo(reached);
        assertThat(pacer.nanosUntil(14 * SECOND_MICROS)).as("ten more run seconds take one real second at 10x")
                .isEqualTo(SECOND_NANOS);
        ticker.advance(SECOND_NANOS);
        assertThat(pacer.runMicros()).isEqualTo(14 * SECOND_MICROS);
    }

    @Test
    void pausedRunTimeStandsStillAndNothingIsDueUntilPlayedAgain() {
        pacer.play(0, 1);
        ticker.advance(3 * SECOND_NANOS);
        pacer.pause();

        ticker.advance(60 * SECOND_NANOS);
        assertThat(pacer.isPlaying()).isFalse();
        assertThat(pacer.runMicros()).as("a minute of real time later, still where it paused")
                .isEqualTo(3 * SECOND_MICROS);
        assertThat(pacer.isDue(3 * SECOND_MICROS + 1)).as("paused, nothing more is due").isFalse();
        assertThat(pacer.nanosUntil(4 * SECOND_MICROS)).isEqualTo(Long.MAX_VALUE);

        pacer.play(pacer.runMicros(), 1);
        assertThat(pacer.nanosUntil(4 * SECOND_MICROS)).as("resumed: the second left takes a second, not less")
                .isEqualTo(SECOND_NANOS);
    }

    @Test
    void asFastAsPossibleEveryInstantIsDueAtOnceAndNothingIsWaitedFor() throws InterruptedException {
        pacer.play(0, Pacer.AS_FAST_AS_POSSIBLE);

        assertThat(pacer.isDue(Long.MAX_VALUE - 1)).isTrue();
        assertThat(pacer.nanosUntil(3_600 * SECOND_MICROS)).isZero();
        pacer.awaitDue(3_600 * SECOND_MICROS, 8_000_000, ticker);
        assertThat(ticker.waits).isEmpty();

        pacer.pause();
        assertThat(pacer.runMicros()).as("a pause after running flat keeps the anchor, not a huge run time")
                .isZero();
    }

    @Test
    void theSpeedLimitsAreEnforcedAtBothEndsAndNamedInTheError() {
        assertThat(Pacer.isAllowed(Pacer.MIN_SPEED)).isTrue();
        assertThat(Pacer.isAllowed(Pacer.MAX_SPEED)).isTrue();
        assertThat(Pacer.isAllowed(Pacer.AS_FAST_AS_POSSIBLE)).isTrue();
        assertThat(Pacer.isAllowed(Pacer.MIN_SPEED / 2)).isFalse();
        assertThat(Pacer.isAllowed(Pacer.MAX_SPEED * 2)).isFalse();
        assertThat(Pacer.isAllowed(0)).isFalse();
        assertThat(Pacer.isAllowed(-1)).isFalse();
        assertThat(Pacer.isAllowed(Double.NaN)).isFalse();

        assertThatThrownBy(() -> pacer.play(0, 1_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("speed must be between 0.01x and 100x, or as fast as possible; was 1000");
        assertThatThrownBy(() -> Pacer.requireAllowed(Double.NaN)).hasMessageEndingWith("was NaN");
        assertThat(pacer.isPlaying()).as("a refused speed does not start anything").isFalse();
    }

    @Test
    void atTheSlowestSpeedARunSecondTakesAHundredRealSeconds() {
        pacer.play(0, Pacer.MIN_SPEED);
        assertThat(pacer.nanosUntil(SECOND_MICROS)).isEqualTo(100 * SECOND_NANOS);
        ticker.advance(100 * SECOND_NANOS);
        assertThat(pacer.isDue(SECOND_MICROS)).isTrue();
        assertThat(pacer.runMicros()).isEqualTo(SECOND_MICROS);
    }
}

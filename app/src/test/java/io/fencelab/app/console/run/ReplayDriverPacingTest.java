package io.fencelab.app.console.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.clock.Ticker;
import io.fencelab.engine.event.Event;
import io.fencelab.testing.LogBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replayed log paced by a fake ticker: real time moves only when the test moves it, so what is
 * handed over at each moment is exact. The test waits only for the driver's thread to act on a
 * command, never for a length of time.
 */
class ReplayDriverPacingTest {

    private static final long SECOND_NANOS = 1_000_000_000L;

    @TempDir
    Path dir;

    private final AtomicLong realNanos = new AtomicLong(42);
    private final AtomicLong reads = new AtomicLong();
    private final Ticker ticker = () -> {
        reads.incrementAndGet();
        return realNanos.get();
    };
    private final EventFeed feed = new EventFeed();
    private final List<Event> handed = new ArrayList<>();
    private final List<RunPhase> phases = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private ReplayDriver driver;

    /** RunStarted at 0 s, then one event at 1, 2, 5 and 10 s, RunEnded at 10 s. */
    private void openLog() throws IOException {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(1, "A", "s", 1, 31);
        log.pauseStarted(2, "A", 3);
        log.pauseEnded(5, "A");
        log.released(10, "A", "s", 1);
        log.runEnded(10);
        Path file = dir.resolve("events.jsonl");
        try (io.fencelab.engine.event.EventLog out = io.fencelab.engine.event.EventLog.create(file)) {
            out.append(log.events());
        }
        driver = new ReplayDriver(file, feed, ticker);
        driver.start();
        waitFor("the replay is prepared, paused at the start", () -> phases.contains(RunPhase.PAUSED));
    }

    /**
     * Plays at {@code speed} from a pause, and waits until the driver's thread has anchored its
     * pacer (its first look at the clock), so real time moved after this counts from here.
     */
    private void playAt(double speed) {
        long before = reads.get();
        driver.setSpeed(speed);
        driver.play();
        waitFor("the pacer is anchored", () -> reads.get() > before);
    }

    @AfterEach
    void close() throws InterruptedException {
        if (driver != null) {
            driver.close();
            assertThat(driver.awaitClosed(5_000)).as("the driver's thread ends").isTrue();
        }
    }

    @Test
    void aPlayingReplayHandsOverEachEventOnlyWhenRealTimeReachesItAtTheSpeed() throws IOException {
        openLog();
        playAt(2);
        waitFor("RunStarted, due at once", () -> handed.size() == 1);

        realNanos.addAndGet(SECOND_NANOS / 4);
        waitFor("the playhead moves on between events", () -> driver.nowMicros() == 500_000);
        assertThat(handed).as("half a run second in, the event at 1 s is held back").hasSize(1);

        realNanos.addAndGet(SECOND_NANOS / 4);
        waitFor("the event at 1 s", () -> handed.size() == 2);
        waitFor("the playhead at 1 s", () -> driver.nowMicros() == 1_000_000);
        assertThat(handed.getLast()).isInstanceOf(Event.LeaseAcquired.class);
    }

    @Test
    void pauseStopsRunTimeAtOnceAndANewSpeedGoesOnFromThere() throws IOException {
        openLog();
        playAt(1);
        realNanos.addAndGet(SECOND_NANOS);
        waitFor("the event at 1 s", () -> handed.size() == 2 && driver.nowMicros() == 1_000_000);

        driver.pause();
        waitFor("the replay pauses", () -> phases.getLast() == RunPhase.PAUSED);
        realNanos.addAndGet(100 * SECOND_NANOS);
        assertThat(handed).as("a hundred real seconds while paused hand over nothing").hasSize(2);
        assertThat(driver.nowMicros()).as("paused, run time stands still").isEqualTo(1_000_000);

        playAt(10);
        realNanos.addAndGet(SECOND_NANOS / 10);
        waitFor("one run second later at 10x: the event at 2 s", () -> handed.size() == 3);
        assertThat(handed.getLast()).isInstanceOf(Event.PauseStarted.class);
        realNanos.addAndGet(SECOND_NANOS / 10);
        waitFor("the playhead at 3 s", () -> driver.nowMicros() == 3_000_000);
        assertThat(handed).as("the event at 5 s is still ahead").hasSize(3);
    }

    @Test
    void asFastAsPossibleTheWholeLogIsHandedOverWithoutRealTimeMoving() throws IOException {
        openLog();
        playAt(Pacer.AS_FAST_AS_POSSIBLE);
        waitFor("the replay ends", () -> phases.contains(RunPhase.ENDED));
        assertThat(handed).hasSize(6);
        assertThat(driver.nowMicros()).isEqualTo(10_000_000);
    }

    @Test
    void aReplayedLogCutShortWithATornTailSaysBothInOneLine() throws IOException {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(1, "A", "s", 1, 31);
        log.pauseStarted(41.2, "A", 3);
        Path file = dir.resolve("cut.jsonl");
        try (io.fencelab.engine.event.EventLog out = io.fencelab.engine.event.EventLog.create(file)) {
            out.append(log.events());
        }
        java.nio.file.Files.writeString(file, "{\"type\":\"PauseEnded\",\"se", java.nio.file.StandardOpenOption.APPEND);
        driver = new ReplayDriver(file, feed, ticker);
        driver.start();
        waitFor("the replay is prepared", () -> phases.contains(RunPhase.PAUSED));

        playAt(Pacer.AS_FAST_AS_POSSIBLE);
        waitFor("the replay ends with its problem told", () -> !problems.isEmpty());

        assertThat(handed).hasSize(3);
        assertThat(problems).containsExactly("the log cut.jsonl is incomplete: it ends at seq 3, 41.2s, without "
                + "RunEnded; its last line (4) was cut off mid-write and dropped");
        assertThat(driver.judgementSoFar().incomplete()).as("the same definition as check and judgement.json")
                .isPresent();
    }

    @Test
    void aStepHandsOverOneEventWhateverTheClock() throws IOException {
        openLog();
        driver.step();
        waitFor("one event", () -> handed.size() == 1);
        driver.step();
        waitFor("one more event", () -> handed.size() == 2);
        assertThat(driver.nowMicros()).as("the playhead at the stepped event").isEqualTo(1_000_000);
    }

    /** Drains the feed (as the frame loop would) until {@code condition} holds; fails after ten seconds. */
    private void waitFor(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + 10 * SECOND_NANOS;
        while (true) {
            feed.drain(new EventFeed.Target() {
                @Override
                public void events(List<Event> batch) {
                    handed.addAll(batch);
                }

                @Override
                public void notice(Notice notice) {
                    if (notice instanceof Notice.Phase p) {
                        phases.add(p.phase());
                    }
                    if (notice instanceof Notice.Failed f) {
                        problems.add(f.message());
                    }
                }
            }, Long.MAX_VALUE);
            if (condition.getAsBoolean()) {
                return;
            }
            assertThat(System.nanoTime()).as("timed out waiting for: %s", what).isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }
}

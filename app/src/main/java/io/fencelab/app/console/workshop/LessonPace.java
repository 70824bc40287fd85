package io.fencelab.app.console.workshop;

import io.fencelab.engine.clock.Pacer;
import java.time.Duration;

/**
 * How fast a workshop lesson's run plays: the one rule, so a long run (the 10-minute
 * k8s-leader-gc) fits the minutes the workshop plans for its lesson. Playing may take a third of
 * the lesson's minutes; the rest is for the stops, the questions and the talk around them. A run
 * that fits already plays in real time (1×); a longer one plays at the smallest speed on
 * {@link #SPEEDS} that makes it fit.
 */
public final class LessonPace {

    /** The share of a lesson's planned minutes the run itself may take to play. */
    public static final double PLAYING_SHARE = 1.0 / 3;

    /** Speeds a lesson is played at (run seconds per real second), easy to read on the speed control. */
    static final double[] SPEEDS = {1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100};

    private LessonPace() {
    }

    /** The speed that plays a run of {@code run} within its share of {@code minutes} planned minutes. */
    public static double speed(Duration run, int minutes) {
        double budgetSeconds = Math.max(1, minutes) * 60 * PLAYING_SHARE;
        double needed = run.toMillis() / 1000.0 / budgetSeconds;
        for (double s : SPEEDS) {
            if (s >= needed) {
                return s;
            }
        }
        return Pacer.MAX_SPEED;
    }
}

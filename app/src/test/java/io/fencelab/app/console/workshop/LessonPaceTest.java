package io.fencelab.app.console.workshop;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.scenarios.Workshop;
import io.fencelab.scenarios.WorkshopLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LessonPaceTest {

    @Test
    void aRunThatFitsItsShareOfTheLessonPlaysInRealTime() {
        assertThat(LessonPace.speed(Duration.ofSeconds(60), 10)).isEqualTo(1.0);
        assertThat(LessonPace.speed(Duration.ofSeconds(6), 7)).isEqualTo(1.0);
    }

    @Test
    void aLongRunPlaysFastEnoughToFitAThirdOfTheLessonsMinutes() {
        // k8s-leader-gc: a 10-minute run in a 10-minute lesson may take 200 s to play.
        double speed = LessonPace.speed(Duration.ofMinutes(10), 10);
        assertThat(speed).isEqualTo(3.0);
        assertThat(600 / speed).as("seconds of playing").isLessThanOrEqualTo(10 * 60 * LessonPace.PLAYING_SHARE);
    }

    @Test
    void everyShippedLessonPlaysWithinItsShareOfItsMinutes() {
        Workshop shipped = WorkshopLoader.shipped();
        for (Workshop.Lesson lesson : shipped.lessons()) {
            double seconds = lesson.scenario().spec().duration().toMillis() / 1000.0;
            double speed = LessonPace.speed(lesson.scenario().spec().duration(), lesson.minutes());
            assertThat(seconds / speed).as("%s played at %s×", lesson.source(), speed)
                    .isLessThanOrEqualTo(lesson.minutes() * 60 * LessonPace.PLAYING_SHARE);
            assertThat(speed).as("%s is not played faster than it needs", lesson.source())
                    .isLessThanOrEqualTo(Math.max(1, 2 * seconds / (lesson.minutes() * 60 * LessonPace.PLAYING_SHARE)));
        }
    }
}

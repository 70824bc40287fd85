package io.fencelab.app.console.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.Test;

class ScreenPlanTest {

    private static final Rectangle2D LAPTOP = new Rectangle2D(0, 0, 1440, 900);
    private static final Rectangle2D PROJECTOR = new Rectangle2D(1440, 0, 1920, 1080);

    @Test
    void withTwoScreensThePresenterGoesOnTheScreenTheConsoleIsNotOnAndTheTeacherStays() {
        ScreenPlan plan = ScreenPlan.of(List.of(LAPTOP, PROJECTOR), new Rectangle2D(100, 50, 1200, 800));
        assertThat(plan.shared()).isFalse();
        assertThat(plan.presenter()).as("the projector").isEqualTo(PROJECTOR);
        assertThat(plan.teacher()).as("the laptop, where the console was").isEqualTo(LAPTOP);
    }

    @Test
    void theConsolesScreenIsTheOneItOverlapsMost() {
        // Dragged mostly onto the projector: the projector is "home", the presenter goes to the laptop.
        ScreenPlan plan = ScreenPlan.of(List.of(LAPTOP, PROJECTOR), new Rectangle2D(1300, 0, 1200, 800));
        assertThat(plan.teacher()).isEqualTo(PROJECTOR);
        assertThat(plan.presenter()).isEqualTo(LAPTOP);
    }

    @Test
    void withOneScreenBothShareItAndThePlanSaysSo() {
        ScreenPlan plan = ScreenPlan.of(List.of(LAPTOP), new Rectangle2D(100, 50, 1200, 800));
        assertThat(plan.shared()).as("the room sees whatever is on the only screen").isTrue();
        assertThat(plan.presenter()).isEqualTo(LAPTOP).isEqualTo(plan.teacher());
    }

    @Test
    void aWindowOffEveryScreenCountsAsOnTheFirst() {
        ScreenPlan plan = ScreenPlan.of(List.of(LAPTOP, PROJECTOR), null);
        assertThat(plan.teacher()).isEqualTo(LAPTOP);
        assertThat(plan.presenter()).isEqualTo(PROJECTOR);
    }
}

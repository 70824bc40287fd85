package io.fencelab.app.console.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.TimeWindow;
import org.junit.jupiter.api.Test;

/** The timeline window as the navigation controller moves it; model only, no window on screen. */
class NavigationControllerTest {

    private static final double SECOND = 1_000_000;

    private final ConsoleModel model = new ConsoleModel();
    private final TimeWindow window = model.window();
    private final NavigationController navigation = new NavigationController(model);

    @Test
    void zoomingKeepsTheRunTimeUnderThePointerInPlaceAndStopsFollowing() {
        window.extentProperty().set(60 * SECOND);
        window.show(0, 60 * SECOND);

        navigation.zoom(0.5, 30 * SECOND);

        assertThat(window.span()).as("half as wide").isEqualTo(30 * SECOND);
        assertThat((30 * SECOND - window.start()) / window.span())
                .as("30 s stays in the middle, where the pointer was").isCloseTo(0.5, within(1e-9));
        assertThat(window.followProperty().get()).as("zooming stops following the playhead").isFalse();
    }

    @Test
    void zoomingStopsAtOneMillisecondAndAtOneAndAHalfRuns() {
        window.extentProperty().set(60 * SECOND);
        navigation.zoom(1e-12, 10 * SECOND);
        assertThat(window.span()).isEqualTo(TimeWindow.MIN_SPAN);

        navigation.zoom(1e12, 10 * SECOND);
        assertThat(window.span()).as("at most one and a half times the run").isEqualTo(90 * SECOND);
    }

    @Test
    void panningStopsBeforeTheWindowLeavesTheRun() {
        window.extentProperty().set(60 * SECOND);
        window.show(0, 20 * SECOND);

        navigation.pan(1e12);
        assertThat(window.start()).as("half a window past the end at most").isEqualTo(50 * SECOND);

        navigation.pan(-1e12);
        assertThat(window.start()).as("a sliver before the start at most").isEqualTo(-0.02 * 20 * SECOND);
        assertThat(window.followProperty().get()).isFalse();
    }

    @Test
    void theWindowFollowsThePlayheadUntilTheUserPansAndFitFollowsAgain() {
        window.extentProperty().set(120 * SECOND);
        window.show(0, 60 * SECOND);
        model.main().nowMicrosProperty().set((long) (59 * SECOND));

        navigation.follow();
        assertThat(window.start()).as("the playhead near the edge moves the window on").isEqualTo(17 * SECOND);

        navigation.pan(0);
        model.main().nowMicrosProperty().set((long) (100 * SECOND));
        navigation.follow();
        assertThat(window.start()).as("after a pan the window stays put").isEqualTo(17 * SECOND);

        navigation.fit();
        assertThat(window.followProperty().get()).isTrue();
        assertThat(window.start() <= 0 && window.end() >= 120 * SECOND).as("fit shows the whole run").isTrue();
    }
}

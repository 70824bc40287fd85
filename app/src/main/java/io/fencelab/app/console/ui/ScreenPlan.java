package io.fencelab.app.console.ui;

import java.util.List;
import javafx.geometry.Rectangle2D;

/**
 * Where the presenter view and the teacher's window go. With two screens or more the presenter
 * view fills a screen other than the console's (the projector) and the teacher's window stays on
 * the console's own (the laptop). With one screen they share it: whatever is on it, the room sees
 * too, so the teacher's window must keep answers to itself. A pure function of the screens'
 * bounds, so it is tested with one screen and with two.
 *
 * @param presenter the screen the presenter view fills
 * @param teacher   the screen the teacher's window goes on
 * @param shared    whether the two are the same, only, screen
 */
public record ScreenPlan(Rectangle2D presenter, Rectangle2D teacher, boolean shared) {

    /**
     * The plan for {@code screens} (their bounds; at least one) with the console's window at
     * {@code console}: its screen is the one it overlaps most (the first if none).
     */
    public static ScreenPlan of(List<Rectangle2D> screens, Rectangle2D console) {
        if (screens.isEmpty()) {
            throw new IllegalArgumentException("no screen");
        }
        Rectangle2D home = screens.getFirst();
        double best = -1;
        for (Rectangle2D s : screens) {
            double overlap = overlap(s, console);
            if (overlap > best) {
                best = overlap;
                home = s;
            }
        }
        for (Rectangle2D s : screens) {
            if (!s.equals(home)) {
                return new ScreenPlan(s, home, false);
            }
        }
        return new ScreenPlan(home, home, true);
    }

    private static double overlap(Rectangle2D a, Rectangle2D b) {
        if (b == null) {
            return 0;
        }
        double w = Math.min(a.getMaxX(), b.getMaxX()) - Math.max(a.getMinX(), b.getMinX());
        double h = Math.min(a.getMaxY(), b.getMaxY()) - Math.max(a.getMinY(), b.getMinY());
        return w <= 0 || h <= 0 ? 0 : w * h;
    }
}

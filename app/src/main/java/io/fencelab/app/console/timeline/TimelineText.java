package io.fencelab.app.console.timeline;

import io.fencelab.app.console.ui.Ink;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * The timeline canvas's fonts and its rough text measure: the canvas has no cheap text metrics, so
 * a label is placed only where its estimated width fits.
 */
final class TimelineText {

    static final Font LABEL = Font.font("DejaVu Sans", FontWeight.BOLD, 14);
    static final Font SMALL = Font.font("DejaVu Sans", 12);
    static final Font SMALL_BOLD = Font.font("DejaVu Sans", FontWeight.BOLD, 12);
    static final Font GAP_FONT = Font.font("DejaVu Sans", FontWeight.BOLD, 13);
    static final Font AXIS_FONT = Font.font("DejaVu Sans", 12);
    static final Font TINY = Font.font("DejaVu Sans", 10);
    static final Font TINY_BOLD = Font.font("DejaVu Sans", FontWeight.BOLD, 10);
    static final Font HINT = Font.font("DejaVu Sans", 18);

    private TimelineText() {
    }

    /** Draws {@code text} only if it fits in {@code room} drawing units. */
    static void ifRoom(Batches b, Ink ink, String text, double x, double y, double room, Font font,
                       TextAlignment align) {
        if (width(text, font) <= room) {
            b.text(ink, text, x, y, font, align);
        }
    }

    /** {@code text}, or its end after an ellipsis, in at most {@code room} drawing units. */
    static String endOf(String text, Font font, double room) {
        if (width(text, font) <= room) {
            return text;
        }
        int keep = Math.max(1, (int) (room / (font.getSize() * 0.62)) - 1);
        return "\u2026" + text.substring(Math.max(0, text.length() - keep));
    }

    /** A text's rough width in drawing units. */
    static double width(String text, Font font) {
        return text.length() * font.getSize() * 0.62;
    }
}

package io.fencelab.app.console;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Node;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;
import org.testfx.util.WaitForAsyncUtils;

/** Helpers for the console's UI tests: run on the FX thread, wait for a condition there, save screenshots. */
public final class ConsoleFx {

    private ConsoleFx() {
    }

    /** Runs {@code action} on the FX thread and returns its result. */
    public static <T> T fx(Callable<T> action) {
        try {
            return WaitForAsyncUtils.asyncFx(action).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("FX action failed: " + e.getMessage(), e);
        }
    }

    public static void fxRun(Runnable action) {
        fx(() -> {
            action.run();
            return null;
        });
    }

    /** Waits until {@code condition}, checked on the FX thread, holds. */
    public static void waitUntil(String what, long seconds, BooleanSupplier condition) {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> fx(condition::getAsBoolean));
        } catch (TimeoutException e) {
            throw new AssertionError("timed out after " + seconds + " s waiting until " + what, e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** As {@link #waitUntil(String, long, BooleanSupplier)}; on time-out the message adds {@code state}. */
    public static void waitUntil(String what, long seconds, BooleanSupplier condition,
                                 java.util.function.Supplier<String> state) {
        try {
            waitUntil(what, seconds, condition);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " (" + fx(state::get) + ")", e.getCause());
        }
    }

    /** Waits for a few frames, so the frame loop has drained and views have redrawn. */
    public static void frames() {
        try {
            Thread.sleep(120);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    /**
     * The presenter view goes full screen, and Monocle's screen is 1920 × 1080: this makes the
     * window what a 1280 × 720 projector shows, the size the presenter view is made for.
     */
    public static void projectorAt1280x720(Console console) {
        fxRun(() -> {
            javafx.stage.Stage stage = (javafx.stage.Stage) console.scene().getWindow();
            stage.setFullScreen(false);
            stage.setWidth(1280);
            stage.setHeight(720);
        });
        frames();
    }

    /**
     * Every visible label and text node under {@code node} whose font is under 18 px, as
     * "text: size": nothing in the presenter view may be smaller (read from the back of a room).
     */
    public static java.util.List<String> textUnder18Px(Node node) {
        java.util.List<String> found = new java.util.ArrayList<>();
        collectSmallText(node, found);
        return found;
    }

    private static void collectSmallText(Node node, java.util.List<String> found) {
        if (!node.isVisible()) {
            return;
        }
        if (node instanceof javafx.scene.control.Labeled l && !l.getText().isEmpty() && l.getFont().getSize() < 18) {
            found.add(l.getText() + ": " + l.getFont().getSize());
        }
        if (node instanceof javafx.scene.text.Text t && !t.getText().isEmpty() && t.getFont().getSize() < 18) {
            found.add(t.getText() + ": " + t.getFont().getSize());
        }
        if (node instanceof javafx.scene.Parent p) {
            for (Node child : p.getChildrenUnmodifiable()) {
                collectSmallText(child, found);
            }
        }
    }

    /** Opens the shipped workshop in a 1280 × 720 window (a projector's size), on the FX thread. */
    public static void openShippedWorkshopAt1280x720(Console console) {
        fxRun(() -> {
            javafx.stage.Stage stage = (javafx.stage.Stage) console.scene().getWindow();
            stage.setWidth(1280);
            stage.setHeight(720);
            console.workshop().openShipped();
        });
    }

    /** Saves a picture of {@code node} as target/screenshots/{@code name}.png and returns its path. */
    public static Path screenshot(Node node, String name) {
        WritableImage image = fx(() -> {
            // A scene's root is taken as the window shows it: what lies past the window's edge is not seen.
            if (node.getScene() != null && node == node.getScene().getRoot()) {
                javafx.scene.SnapshotParameters window = new javafx.scene.SnapshotParameters();
                window.setViewport(new javafx.geometry.Rectangle2D(0, 0, node.getScene().getWidth(),
                        node.getScene().getHeight()));
                return node.snapshot(window, null);
            }
            return node.snapshot(null, null);
        });
        BufferedImage buffered = SwingFXUtils.fromFXImage(image, null);
        Path dir = Path.of(System.getProperty("fencelab.screenshots", "target/screenshots"));
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".png");
            ImageIO.write(buffered, "png", file.toFile());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.fencelab.app.console.ui;

import java.util.List;
import java.util.Objects;
import javafx.collections.ObservableList;
import javafx.scene.Node;

/**
 * The console's look in one place: its stylesheet, and style-class switching that touches a node
 * only when its look really changes (each change re-runs CSS).
 */
public final class Styles {

    /** The console's stylesheet, which every console window (main, presenter, teacher) loads. */
    public static final String STYLESHEET = Objects.requireNonNull(
            Styles.class.getResource("/io/fencelab/app/console/console.css"), "console.css is missing from the build")
            .toExternalForm();

    private Styles() {
    }

    /** Makes {@code wanted} (or none, if null) the one class of {@code choices} that {@code node} has. */
    public static void choose(Node node, List<String> choices, String wanted) {
        ObservableList<String> classes = node.getStyleClass();
        for (String c : choices) {
            if (!c.equals(wanted) && classes.contains(c)) {
                classes.remove(c);
            }
        }
        if (wanted != null && !classes.contains(wanted)) {
            classes.add(wanted);
        }
    }

    public static final List<String> VERDICTS = List.of("verdict-safe", "verdict-violated", "verdict-none");
}

package io.fencelab.app.console.view;

import java.util.List;
import javafx.collections.ObservableList;
import javafx.scene.Node;

/** Style-class switching that touches a node only when its look really changes (each change re-runs CSS). */
final class Styles {

    private Styles() {
    }

    /** Makes {@code wanted} (or none, if null) the one class of {@code choices} that {@code node} has. */
    static void choose(Node node, List<String> choices, String wanted) {
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

    static final List<String> VERDICTS = List.of("verdict-safe", "verdict-violated", "verdict-none");
}

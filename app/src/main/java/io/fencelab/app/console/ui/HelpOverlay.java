package io.fencelab.app.console.ui;

import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/** The {@code ?} overlay: every shortcut of the {@link KeyMap}, read from it. Esc or a click closes it. */
public final class HelpOverlay extends StackPane {

    final GridPane table = new GridPane();

    public HelpOverlay() {
        setId("help");
        getStyleClass().add("help-backdrop");
        Label title = new Label("Keyboard shortcuts");
        title.getStyleClass().add("help-title");
        table.setId("help-table");
        table.setHgap(24);
        table.setVgap(8);
        int row = 0;
        for (KeyMap.Shortcut s : KeyMap.shortcuts()) {
            Label keys = new Label(s.keys());
            keys.getStyleClass().add("help-keys");
            keys.setMinWidth(Region.USE_PREF_SIZE);
            Label does = new Label(s.does());
            does.getStyleClass().add("help-does");
            does.setWrapText(true);
            does.setMaxWidth(620);
            table.addRow(row++, keys, does);
        }
        Label close = new Label("Esc closes this list.");
        close.getStyleClass().add("help-hint");
        close.setWrapText(true);
        VBox panel = new VBox(16, title, table, close);
        panel.getStyleClass().add("help-panel");
        panel.setPadding(new Insets(24, 32, 24, 32));
        panel.setMaxSize(Region.USE_PREF_SIZE, Region.USE_PREF_SIZE);
        StackPane.setAlignment(panel, Pos.CENTER);
        getChildren().add(panel);
        setVisible(false);
        setOnMouseClicked(e -> setVisible(false));
    }

    /** The keys column as shown, row by row (tests). */
    java.util.List<String> keysShown() {
        return table.getChildren().stream().filter(n -> GridPane.getColumnIndex(n) == 0)
                .map(n -> ((Label) n).getText()).toList();
    }
}

package io.fencelab.app.console.compare;

import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.timeline.TimelineView;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.Styles;
import javafx.beans.InvalidationListener;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * The same scenario and seed twice, one above the other, sharing one time window so they stay
 * aligned: fencing on, then fencing off, each with its own verdict.
 */
public final class CompareView extends SplitPane {

    final TimelineView on;
    final TimelineView off;
    final Label onVerdict = new Label();
    final Label offVerdict = new Label();

    public CompareView(ConsoleModel model, Intents.Navigation navigation, FrameLoop loop) {
        setOrientation(Orientation.VERTICAL);
        getStyleClass().add("compare");
        on = new TimelineView(model.first(), model.window(), navigation, loop);
        off = new TimelineView(model.second(), model.window(), navigation, loop);
        on.setId("timeline-first");
        off.setId("timeline-second");
        onVerdict.setId("compare-verdict-first");
        offVerdict.setId("compare-verdict-second");
        getItems().addAll(pane(model, true, on, onVerdict), pane(model, false, off, offVerdict));
    }

    private BorderPane pane(ConsoleModel model, boolean first, TimelineView view, Label verdict) {
        RunModel run = first ? model.first() : model.second();
        Label title = new Label();
        title.setId(first ? "compare-title-first" : "compare-title-second");
        title.getStyleClass().add("compare-title");
        verdict.getStyleClass().add("compare-verdict");
        HBox header = new HBox(12, verdict, title);
        header.setAlignment(Pos.CENTER_LEFT);
        header.setPadding(new Insets(4, 8, 4, 8));
        header.getStyleClass().add("compare-header");
        InvalidationListener refresh = o -> {
            Comparison c = model.comparisonProperty().get();
            String fencing = run.infoProperty().get().fencingInWords();
            String label = c.setting() == Comparison.Setting.FENCING && !fencing.isEmpty() ? fencing
                    : first ? c.firstLabel() : c.secondLabel();
            title.setText(label + "  ·  " + run.eventCountProperty().get() + " events");
            boolean started = run.eventCountProperty().get() > 0;
            if (!started) {
                verdict.setText("—");
                Styles.choose(verdict, Styles.VERDICTS, "verdict-none");
            } else if (run.verdict().isSafe()) {
                verdict.setText("SAFE");
                Styles.choose(verdict, Styles.VERDICTS, "verdict-safe");
            } else {
                verdict.setText("VIOLATED");
                Styles.choose(verdict, Styles.VERDICTS, "verdict-violated");
            }
        };
        run.verdictProperty().addListener(refresh);
        run.infoProperty().addListener(refresh);
        run.phaseProperty().addListener(refresh);
        run.eventCountProperty().addListener(refresh);
        model.comparisonProperty().addListener(refresh);
        refresh.invalidated(null);
        BorderPane p = new BorderPane(view);
        p.setTop(header);
        return p;
    }
}

package io.fencelab.app.console.run;

import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.ui.Dialogs;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.engine.clock.Pacer;
import java.util.Locale;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Separator;
import javafx.scene.control.Slider;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;

/**
 * The transport controls: play or pause, single step, speed (a logarithmic slider over the
 * {@link Pacer}'s speeds, or as fast as possible), restart with the same seed or a new one, compare
 * fencing on and off, export, and open a saved run.
 */
public final class ControlBar extends FlowPane {

    final Button play = new Button("Play");
    final Button step = new Button("Step");
    /** log10 of the speed, so every factor of ten gets the same room. */
    final Slider speed = new Slider(Math.log10(Pacer.MIN_SPEED), Math.log10(Pacer.MAX_SPEED), 0);
    final Label speedLabel = new Label("1x");
    final CheckBox fastest = new CheckBox("max speed");
    final Button restart = new Button("Restart");
    final Button newSeed = new Button("New seed");
    final ToggleButton compare = new ToggleButton("Compare");
    final javafx.scene.control.ChoiceBox<Comparison> comparison = new javafx.scene.control.ChoiceBox<>(
            javafx.collections.FXCollections.observableArrayList(Comparison.PRESETS));
    final Button fit = new Button("Fit");
    final MenuButton export = new MenuButton("Export");
    final Button openRun = new Button("Open run…");
    final Button probe = new Button("Probe");
    final ToggleButton guided = new ToggleButton("Guided");
    final Button help = new Button("?");

    public ControlBar(ConsoleModel model, Intents.Runs runs, Intents.Navigation navigation, Intents.Compare comparing,
               Intents.Lesson lesson, Intents.Probe probing, Runnable toggleHelp, Dialogs dialogs) {
        getStyleClass().add("control-bar");
        setAlignment(Pos.CENTER_LEFT);
        // On a window too narrow for one row (a 1280-pixel projector), the buttons go on a second row
        // rather than off the edge.
        setHgap(6);
        setVgap(6);
        setPadding(new Insets(8, 12, 8, 12));
        setIds();
        wireLessonAndHelp(model, lesson, toggleHelp);
        wireTransport(runs, navigation, lesson);
        wireComparing(model, comparing);
        wireSpeed(model, runs);
        wireFiles(dialogs);
        wireProbe(model, probing);
        followTheRun(model);
        layOut();
    }

    private void setIds() {
        play.setId("play");
        step.setId("step");
        speed.setId("speed");
        fastest.setId("fastest");
        restart.setId("restart");
        newSeed.setId("new-seed");
        compare.setId("compare");
        comparison.setId("comparison");
        export.setId("export");
        openRun.setId("open-run");
        fit.setId("fit");
        play.getStyleClass().add("play-button");
        guided.setId("guided");
        help.setId("help-button");
    }

    /** Guided mode and the shortcuts' help. */
    private void wireLessonAndHelp(ConsoleModel model, Intents.Lesson lesson, Runnable toggleHelp) {
        guided.setTooltip(new Tooltip("Guided mode (G): the run stops at every story step and waits for Continue "
                + "(Space, Page Down or a clicker); Page Up goes back a step"));
        guided.setOnAction(e -> lesson.guided().accept(guided.isSelected()));
        model.lesson().guidedProperty().addListener((o, was, now) -> guided.setSelected(now));
        help.setTooltip(new Tooltip("Keyboard shortcuts (?)"));
        help.setOnAction(e -> toggleHelp.run());
    }

    /** Play (Continue in guided mode), step, restart, new seed, fit. */
    private void wireTransport(Intents.Runs runs, Intents.Navigation navigation, Intents.Lesson lesson) {
        // In guided mode the same button is Continue (it reveals a question's answer first).
        play.setOnAction(e -> lesson.next().run());
        play.setTooltip(new Tooltip("Play or pause (Space); in guided mode, Continue (Space or Page Down)"));
        step.setOnAction(e -> runs.step().run());
        step.setTooltip(new Tooltip("One more event, then pause (right arrow)"));
        restart.setOnAction(e -> runs.restart().run());
        restart.setTooltip(new Tooltip("Run again from the start with the same seed: the same events happen"));
        newSeed.setOnAction(e -> runs.newSeed().run());
        newSeed.setTooltip(new Tooltip("Run again from the start with a different random seed"));
        fit.setOnAction(e -> navigation.fit().run());
        fit.setTooltip(new Tooltip("Show the whole run and follow the playhead (Home)"));
    }

    /** Compare on or off, and what the two runs differ in. */
    private void wireComparing(ConsoleModel model, Intents.Compare comparing) {
        compare.setOnAction(e -> comparing.compare().accept(compare.isSelected()));
        compare.setTooltip(new Tooltip("Run the same scenario and seed twice, one above the other, one setting apart "
                + "(chosen beside this button)"));
        model.compareProperty().addListener((o, was, now) -> compare.setSelected(now));
        comparison.setValue(model.comparisonProperty().get());
        comparison.setTooltip(new Tooltip("What the two compared runs differ in"));
        comparison.valueProperty().addListener((o, was, now) -> {
            if (now != null) {
                comparing.comparison().accept(now);
            }
        });
        model.comparisonProperty().addListener((o, was, now) -> comparison.setValue(now));
    }

    /** The speed slider, its label, and max speed. */
    private void wireSpeed(ConsoleModel model, Intents.Runs runs) {
        speed.setPrefWidth(110);
        speed.setMajorTickUnit(1);
        speed.setShowTickMarks(true);
        speed.setTooltip(new Tooltip("Run seconds per real second, from " + speedText(Pacer.MIN_SPEED) + " to "
                + speedText(Pacer.MAX_SPEED)));
        speed.valueProperty().addListener((o, was, now) -> {
            if (Math.abs(Math.log10(model.speedProperty().get()) - now.doubleValue()) > 1e-9) {
                runs.speed().accept(roundSpeed(Math.pow(10, now.doubleValue())));
            }
        });
        model.speedProperty().addListener((o, was, now) -> {
            double v = Math.log10(now.doubleValue());
            if (Math.abs(speed.getValue() - v) > 1e-9) {
                speed.setValue(v);
            }
        });
        speedLabel.textProperty().bind(Bindings.createStringBinding(() -> model.fastestProperty().get()
                ? "fastest" : speedText(model.speedProperty().get()), model.speedProperty(), model.fastestProperty()));
        speedLabel.setMinWidth(64);
        speedLabel.getStyleClass().add("speed-label");
        fastest.setOnAction(e -> runs.fastest().accept(fastest.isSelected()));
        model.fastestProperty().addListener((o, was, now) -> fastest.setSelected(now));
        fastest.setTooltip(new Tooltip("As fast as possible: no pacing at all"));
    }

    /** Export's menu and Open run…. */
    private void wireFiles(Dialogs dialogs) {
        MenuItem report = new MenuItem("Report (HTML, events, metrics, summary)…");
        report.setOnAction(e -> dialogs.exportReport());
        MenuItem timelinePng = new MenuItem("Timeline as PNG…");
        timelinePng.setOnAction(e -> dialogs.exportPng(Dialogs.Part.TIMELINE));
        MenuItem chartsPng = new MenuItem("Charts as PNG…");
        chartsPng.setOnAction(e -> dialogs.exportPng(Dialogs.Part.CHARTS));
        MenuItem windowPng = new MenuItem("Whole window as PNG…");
        windowPng.setOnAction(e -> dialogs.exportPng(Dialogs.Part.WINDOW));
        MenuItem handout = new MenuItem("Handout (printable HTML per lesson)…");
        handout.setOnAction(e -> dialogs.exportHandout());
        export.getItems().addAll(report, handout, timelinePng, chartsPng, windowPng);
        openRun.setOnAction(e -> dialogs.openSavedRun());
        openRun.setTooltip(new Tooltip("Open a saved run: replay an events.jsonl (no database needed)"));

    }

    /** Probe: the checklist against the scenario's own SQL fences, for a scenario that has some. */
    private void wireProbe(ConsoleModel model, Intents.Probe probing) {
        probe.setId("probe");
        probe.setOnAction(e -> probing.start().run());
        probe.setTooltip(new Tooltip("Probe the scenario's own SQL fences: the design note's checklist, as "
                + "fencelab probe runs it (only for a scenario with a targets: section)"));
        probe.disableProperty().bind(model.probe().availableProperty().not()
                .or(Bindings.createBooleanBinding(() -> model.probe().phaseProperty().get().busy(),
                        model.probe().phaseProperty())));
    }

    /** Play/pause/step only where the run allows it; the label follows the run's phase. */
    private void followTheRun(ConsoleModel model) {
        Runnable refresh = () -> {
            RunPhase phase = model.focused().phase();
            boolean pausable = model.capabilitiesProperty().get().pause();
            boolean playing = phase == RunPhase.PLAYING;
            play.setText(playing ? "Pause" : phase.isOver() ? "Play again"
                    : model.lesson().guidedProperty().get() && pausable ? "Continue" : "Play");
            play.setDisable(phase == RunPhase.IDLE || phase == RunPhase.PREPARING || playing && !pausable);
            step.setDisable(!pausable || phase.isOver() || phase == RunPhase.IDLE || phase == RunPhase.PREPARING);
            speed.setDisable(!pausable || model.fastestProperty().get());
            fastest.setDisable(!pausable);
            // Guided mode works for every run: a live run holds by stopping the clock it is shown on.
            guided.setDisable(false);
        };
        model.main().phaseProperty().addListener(o -> refresh.run());
        model.second().phaseProperty().addListener(o -> refresh.run());
        model.first().phaseProperty().addListener(o -> refresh.run());
        model.capabilitiesProperty().addListener(o -> refresh.run());
        model.compareProperty().addListener(o -> refresh.run());
        model.fastestProperty().addListener(o -> refresh.run());
        model.lesson().guidedProperty().addListener(o -> refresh.run());
        refresh.run();
    }

    /** Buttons keep their words; the speed slider and the gap give way on a narrow window. */
    private void layOut() {
        for (javafx.scene.control.Control c : new javafx.scene.control.Control[] {play, step, fastest, restart,
                newSeed, fit, guided, compare, export, probe, openRun, help}) {
            c.setMinWidth(Region.USE_PREF_SIZE);
        }
        speed.setMinWidth(60);
        comparison.setMinWidth(120);
        Label speedTitle = new Label("Speed");
        speedTitle.setMinWidth(Region.USE_PREF_SIZE);
        getChildren().addAll(play, step, new Separator(javafx.geometry.Orientation.VERTICAL), speedTitle, speed,
                speedLabel, fastest, new Separator(javafx.geometry.Orientation.VERTICAL), restart, newSeed, fit,
                new Separator(javafx.geometry.Orientation.VERTICAL), guided,
                new Separator(javafx.geometry.Orientation.VERTICAL), compare, comparison,
                new Separator(javafx.geometry.Orientation.VERTICAL), export, probe, openRun, help);
    }

    /** Two significant digits: 0.013x, 0.25x, 1.0x, 3.2x, 45x. */
    static double roundSpeed(double speed) {
        double p = Math.pow(10, Math.floor(Math.log10(speed)) - 1);
        return Math.round(speed / p) * p;
    }

    static String speedText(double speed) {
        if (speed >= 10) {
            return String.format(Locale.ROOT, "%.0fx", speed);
        }
        if (speed >= 1) {
            return String.format(Locale.ROOT, "%.1fx", speed);
        }
        return String.format(Locale.ROOT, "%.2fx", speed);
    }
}

package io.fencelab.app.console;

import io.fencelab.app.console.compare.CompareView;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.probe.ProbeView;
import io.fencelab.app.console.probe.SqlTargetsView;
import io.fencelab.app.console.run.CatalogView;
import io.fencelab.app.console.run.ControlBar;
import io.fencelab.app.console.run.EventTableView;
import io.fencelab.app.console.run.RateChart;
import io.fencelab.app.console.run.StatusBar;
import io.fencelab.app.console.run.VerdictView;
import io.fencelab.app.console.timeline.Legend;
import io.fencelab.app.console.timeline.TimelineView;
import io.fencelab.app.console.tune.TuneView;
import io.fencelab.app.console.ui.Dialogs;
import io.fencelab.app.console.ui.Dialogs.Part;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.HelpOverlay;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.KeyMap;
import io.fencelab.app.console.ui.ScreenPlan;
import io.fencelab.app.console.workshop.LessonListView;
import io.fencelab.app.console.workshop.PresenterView;
import io.fencelab.app.console.workshop.QuestionOverlay;
import io.fencelab.app.console.workshop.TeacherWindow;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Path;
import javafx.embed.swing.SwingFXUtils;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The console window's content. Left: the catalog, the scenario's story and parameters. Centre:
 * the timeline (or two, when comparing), and below it the rate charts and the event table. Right:
 * the verdict, what just happened, witnesses, the pinned event, faults by hand. Bottom: status.
 * Views bind to the model and hand what the user asks for to the {@link Intents} they are given.
 */
public final class ConsoleView extends BorderPane {

    private final ConsoleModel model;
    private final Intents intents;
    final ControlBar controls;
    final CatalogView catalog;
    final TimelineView timeline;
    final CompareView compare;
    final StackPane timelineArea = new StackPane();
    final RateChart charts = new RateChart();
    final EventTableView table;
    final VerdictView verdict;
    final StatusBar status;
    final TabPane below = new TabPane();
    final Label databaseProblem = new Label();
    /** The two modes: a run on the timeline, or tuning by sweeps. */
    final TabPane modes = new TabPane();
    final TuneView tune;
    /** The room's view (F5) and the teacher's window; the workshop's lesson list in the left column. */
    final PresenterView presenter;
    final TeacherWindow teacher;
    final LessonListView lessons;
    final MenuButton workshopMenu = new MenuButton("Workshop");
    final SqlTargetsView sql;
    final ProbeView probe;
    /** The console's own layout (top, centre, bottom, left, right) while the presenter view replaces it. */
    private Node[] desk;
    final QuestionOverlay question;
    /** The question's column beside the timeline. */
    private final javafx.scene.control.ScrollPane questionColumn;
    final HelpOverlay help = new HelpOverlay();
    private Dialogs dialogs;
    /** The console window's bounds before the presenter view took the screen (null while not presenting). */
    private javafx.geometry.Rectangle2D home;
    /** Keeps the lesson's screen count; held here, as the screen list holds it weakly. */
    private final javafx.collections.ListChangeListener<javafx.stage.Screen> screensChanged;
    private final VBox centre;
    private final SplitPane middle;

    public ConsoleView(ConsoleModel model, Intents intents, FrameLoop loop) {
        this.model = model;
        this.intents = intents;
        getStyleClass().add("console");
        dialogs = new FileDialogs();
        Dialogs forward = forwardingDialogs();
        controls = new ControlBar(model, intents.runs(), intents.navigation(), intents.compare(), intents.lesson(),
                intents.probe(), this::toggleHelp, forward);
        catalog = new CatalogView(model, intents.scenarios(), intents.runs(), intents.lesson(), forward);
        question = new QuestionOverlay(model.lesson());
        questionColumn = question.column();
        timeline = new TimelineView(model.main(), model.window(), intents.navigation(), loop);
        timeline.setId("timeline");
        compare = new CompareView(model, intents.navigation(), loop);
        table = new EventTableView(intents.navigation());
        verdict = new VerdictView(model, intents.navigation(), intents.faults());
        status = new StatusBar(model);

        bindDatabaseProblem();
        timelineArea.getChildren().setAll(timeline);
        centre = new VBox(timelineArea, new Legend());
        VBox.setVgrow(timelineArea, javafx.scene.layout.Priority.ALWAYS);
        buildBelow();
        middle = new SplitPane(centre, below);
        middle.setOrientation(Orientation.VERTICAL);
        middle.setDividerPositions(0.64);

        // The question takes the verdict's column while it is shown: never over the timeline's lanes it
        // asks about, and the verdict's details do not answer it early.
        StackPane right = new StackPane(verdict, questionColumn);
        SplitPane columns = new SplitPane(catalog, middle, right);
        columns.setDividerPositions(0.21, 0.78);
        SplitPane.setResizableWithParent(catalog, false);
        SplitPane.setResizableWithParent(right, false);
        tune = new TuneView(model, intents.tune(), loop);
        buildModes(columns);
        setTop(new VBox(controls, databaseProblem));
        setCenter(new StackPane(modes, help));
        setBottom(status);

        revealPinnedEvents();
        model.compareProperty().addListener((o, was, now) -> focus());
        focus();

        presenter = new PresenterView(model, loop);
        teacher = new TeacherWindow(model, intents.workshop(), this::screenPlan, this::installShortcuts);
        screensChanged = c -> model.lesson().screensProperty().set(javafx.stage.Screen.getScreens().size());
        javafx.stage.Screen.getScreens().addListener(new javafx.collections.WeakListChangeListener<>(screensChanged));
        model.lesson().screensProperty().set(javafx.stage.Screen.getScreens().size());
        lessons = new LessonListView(model.lesson(), intents.workshop(), "workshop");
        addWorkshopTab();
        // The scenario's own SQL fences: read-only beside the parameters; the probe's checklist under the timeline.
        sql = new SqlTargetsView(model);
        sql.showIn(catalog.tabs);
        probe = new ProbeView(model, intents.probe());
        // The checklist needs more room than the charts: while its tab shows, it takes half the column.
        probe.showIn(below).selectedProperty().addListener((o, was, now) -> middle.setDividerPositions(
                now ? 0.5 : model.compareProperty().get() ? 0.8 : 0.64));
        buildWorkshopMenu();
        controls.getChildren().add(workshopMenu);
        model.lesson().presenterProperty().addListener((o, was, now) -> present(now));
    }

    /** The file dialogs the controls use: whichever {@link #setDialogs} put in place last. */
    private Dialogs forwardingDialogs() {
        return new Dialogs() {
            @Override
            public void openScenarioFile() {
                dialogs.openScenarioFile();
            }

            @Override
            public void openSavedRun() {
                dialogs.openSavedRun();
            }

            @Override
            public void exportReport() {
                dialogs.exportReport();
            }

            @Override
            public void exportPng(Part part) {
                dialogs.exportPng(part);
            }

            @Override
            public void exportHandout() {
                dialogs.exportHandout();
            }
        };
    }

    private void bindDatabaseProblem() {
        databaseProblem.setId("database-problem");
        databaseProblem.getStyleClass().add("problem-banner");
        databaseProblem.setWrapText(true);
        databaseProblem.setMaxWidth(Double.MAX_VALUE);
        databaseProblem.textProperty().bind(model.databaseProblemProperty());
        databaseProblem.visibleProperty().bind(model.databaseProblemProperty().isNotEmpty());
        databaseProblem.managedProperty().bind(databaseProblem.visibleProperty());
    }

    /** Under the timeline: the rate charts and the event table (drawn only while its tab shows). */
    private void buildBelow() {
        Tab chartsTab = new Tab("Rates per second", charts);
        Tab tableTab = new Tab("Events", table);
        chartsTab.setClosable(false);
        tableTab.setClosable(false);
        below.getTabs().addAll(chartsTab, tableTab);
        table.setShowing(false);
        tableTab.selectedProperty().addListener((o, was, now) -> table.setShowing(now));
        below.setId("below");
    }

    /** The two modes, Run and Tune, as tabs that follow the model's choice. */
    private void buildModes(SplitPane columns) {
        Tab runTab = new Tab("Run", columns);
        Tab tuneTab = new Tab("Tune", tune);
        runTab.setClosable(false);
        tuneTab.setClosable(false);
        runTab.setId("run-tab");
        tuneTab.setId("tune-tab");
        modes.getTabs().addAll(runTab, tuneTab);
        modes.setId("modes");
        modes.getStyleClass().add("modes");
        tuneTab.selectedProperty().addListener((o, was, now) -> {
            if (now != model.tune().shownProperty().get()) {
                intents.tune().show().accept(now);
            }
        });
        model.tune().shownProperty().addListener((o, was, now) -> modes.getSelectionModel().select(now ? tuneTab
                : runTab));
    }

    /** A pinned event of the run the table follows is scrolled into view in the table. */
    private void revealPinnedEvents() {
        for (RunModel r : new RunModel[] {model.main(), model.first(), model.second()}) {
            r.pinnedSeqProperty().addListener((o, was, now) -> {
                if (model.focused() == r && now.longValue() > 0) {
                    table.reveal(now.longValue());
                }
            });
        }
    }

    /** The workshop's lesson list, a tab of the left column chosen when a workshop opens. */
    private void addWorkshopTab() {
        Tab workshopTab = new Tab("Workshop", lessons);
        workshopTab.setClosable(false);
        workshopTab.setId("workshop-tab");
        catalog.tabs.getTabs().add(workshopTab);
        model.lesson().workshopProperty().addListener((o, was, now) -> {
            if (now != null) {
                catalog.tabs.getSelectionModel().select(workshopTab);
            }
        });
    }

    /** The Workshop menu: open one, move between lessons, the presenter view and the teacher's window. */
    private void buildWorkshopMenu() {
        Intents.Workshop w = intents.workshop();
        workshopMenu.setId("workshop-menu");
        workshopMenu.setMinWidth(Region.USE_PREF_SIZE);
        MenuItem shipped = new MenuItem("Open the shipped workshop");
        shipped.setOnAction(e -> w.openShipped().run());
        MenuItem file = new MenuItem("Open workshop file…");
        file.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Open a workshop file");
            chooser.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Workshops", "*.yaml", "*.yml"),
                    new FileChooser.ExtensionFilter("All files", "*"));
            File f = chooser.showOpenDialog(getScene() == null ? null : getScene().getWindow());
            if (f != null) {
                w.openFile().accept(f.toPath());
            }
        });
        MenuItem previous = new MenuItem("Previous lesson");
        previous.setOnAction(e -> w.previous().run());
        MenuItem next = new MenuItem("Next lesson");
        next.setOnAction(e -> w.next().run());
        CheckMenuItem present = new CheckMenuItem("Presenter view (F5)");
        present.setOnAction(e -> w.presenter().accept(present.isSelected()));
        model.lesson().presenterProperty().addListener((o, was, now) -> present.setSelected(now));
        CheckMenuItem notes = new CheckMenuItem("Teacher's window (T)");
        notes.setOnAction(e -> w.teacher().accept(notes.isSelected()));
        model.lesson().teacherProperty().addListener((o, was, now) -> notes.setSelected(now));
        workshopMenu.getItems().addAll(shipped, file, new SeparatorMenuItem(), previous, next,
                new SeparatorMenuItem(), present, notes);
    }

    /**
     * Where the presenter view and the teacher's window go, from the screens there are and the
     * screen the console was on before presenting.
     */
    ScreenPlan screenPlan() {
        Window w = getScene() == null ? null : getScene().getWindow();
        javafx.geometry.Rectangle2D console = home != null ? home : w == null ? null
                : new javafx.geometry.Rectangle2D(w.getX(), w.getY(), Math.max(1, w.getWidth()), Math.max(1, w.getHeight()));
        return ScreenPlan.of(javafx.stage.Screen.getScreens().stream().map(javafx.stage.Screen::getVisualBounds)
                .toList(), console);
    }

    /**
     * The window for the presenter view: full screen on the projector (the screen the console is
     * not on) when there are two, full screen on the only one otherwise; back where it was after.
     */
    private void placeWindow(boolean on) {
        if (!(getScene() != null && getScene().getWindow() instanceof javafx.stage.Stage stage)) {
            return;
        }
        if (on) {
            home = new javafx.geometry.Rectangle2D(stage.getX(), stage.getY(), Math.max(1, stage.getWidth()),
                    Math.max(1, stage.getHeight()));
            ScreenPlan plan = screenPlan();
            if (!plan.shared()) {
                stage.setX(plan.presenter().getMinX());
                stage.setY(plan.presenter().getMinY());
            }
            // Esc belongs to the lesson (it takes a question off); F5 leaves the presenter view.
            stage.setFullScreenExitKeyCombination(javafx.scene.input.KeyCombination.NO_MATCH);
            stage.setFullScreenExitHint("");
            stage.setFullScreen(true);
        } else if (home != null) {
            stage.setFullScreen(false);
            stage.setX(home.getMinX());
            stage.setY(home.getMinY());
            stage.setWidth(home.getWidth());
            stage.setHeight(home.getHeight());
            home = null;
        }
    }

    /** The presenter view in place of the whole console, or the console back. */
    private void present(boolean on) {
        placeWindow(on);
        if (on && getCenter() != presenter.screen()) {
            desk = new Node[] {getTop(), getCenter(), getBottom(), getLeft(), getRight()};
            setTop(null);
            setBottom(null);
            setLeft(null);
            setRight(null);
            setCenter(presenter.screen());
        } else if (!on && desk != null) {
            setTop(desk[0]);
            setCenter(desk[1]);
            setBottom(desk[2]);
            setLeft(desk[3]);
            setRight(desk[4]);
            desk = null;
        }
    }

    public PresenterView presenter() {
        return presenter;
    }

    public TeacherWindow teacher() {
        return teacher;
    }

    /** Shows one timeline or two, and points the charts, table, verdict and status at the focused run. */
    private void focus() {
        RunModel run = model.focused();
        boolean comparing = model.compareProperty().get();
        timelineArea.getChildren().setAll(comparing ? compare : timeline);
        // Two timelines need the room more than the charts do.
        middle.setDividerPositions(comparing ? 0.8 : 0.64);
        charts.bind(run);
        table.bind(run);
        verdict.bind(run);
        status.bind(run);
    }

    /**
     * Keyboard: every shortcut of the {@link KeyMap}, the one table the help overlay lists too. Keys
     * typed into a text field, an editable picker or a spinner stay there ({@link KeyMap#typingInto}).
     */
    public void installShortcuts(Scene scene) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, this::shortcut);
        scene.addEventFilter(KeyEvent.KEY_TYPED, this::shortcut);
    }

    private void shortcut(KeyEvent e) {
        if (e.isControlDown() || e.isAltDown() || e.isMetaDown()) {
            return;
        }
        // The clicker's keys move the lesson wherever the focus was left; in the presenter view
        // nothing is typed into, so every key is a shortcut there.
        boolean clicker = e.getEventType() == KeyEvent.KEY_PRESSED && KeyMap.clicker(e.getCode());
        if (KeyMap.typingInto(e.getTarget()) && !clicker && !model.lesson().presenterProperty().get()) {
            return;
        }
        KeyMap.find(e).ifPresent(s -> {
            if (run(s, e)) {
                e.consume();
            }
        });
    }

    /** Does what shortcut {@code s} stands for; false when it does not apply now (the key goes on its way). */
    private boolean run(KeyMap.Shortcut s, KeyEvent e) {
        KeyCode code = e.getCode();
        Intents.Lesson lesson = intents.lesson();
        switch (s.action()) {
            case CONTINUE -> lesson.next().run();
            case BACK -> lesson.back().run();
            case STEP -> intents.runs().step().run();
            case GUIDED -> lesson.toggleGuided().run();
            case FIT -> intents.navigation().fit().run();
            case FAULT -> intents.faults().inject().accept(s.fault(), model.faultHolderProperty().get());
            case PICK -> {
                LessonModel.QuestionState state = model.lesson().questionProperty().get();
                if (e.isShiftDown() && state != LessonModel.QuestionState.NONE) {
                    intents.workshop().raiseHand().accept(KeyMap.pickOf(code));
                } else if (state == LessonModel.QuestionState.ASKING) {
                    lesson.pick().accept(KeyMap.pickOf(code));
                } else {
                    return false;
                }
            }
            case NEXT_LESSON, PREVIOUS_LESSON -> {
                if (model.lesson().workshopProperty().get() == null) {
                    return false;
                }
                (s.action() == KeyMap.Action.NEXT_LESSON ? intents.workshop().next() : intents.workshop().previous()).run();
            }
            case FASTER -> intents.runs().faster().run();
            case SLOWER -> intents.runs().slower().run();
            case PRESENTER -> lesson.togglePresenter().run();
            case TEACHER -> intents.workshop().teacher().accept(!model.lesson().teacherProperty().get());
            case HEATMAP -> intents.workshop().toggleHeatmap().run();
            case HELP -> toggleHelp();
            case PRESS -> {
                // Space is Continue everywhere (a teacher's focus is often left on a button), so Enter presses.
                if (e.getTarget() instanceof MenuButton menu) {
                    menu.show();
                } else if (e.getTarget() instanceof ButtonBase button) {
                    button.fire();
                } else {
                    return false;
                }
            }
            case CLOSE -> {
                if (help.isVisible()) {
                    help.setVisible(false);
                } else if (model.lesson().questionProperty().get() != LessonModel.QuestionState.NONE) {
                    lesson.clearQuestion().run();
                } else {
                    return false;
                }
            }
        }
        return true;
    }

    /** Shows or hides the list of shortcuts. */
    void toggleHelp() {
        help.setVisible(!help.isVisible());
        if (help.isVisible()) {
            help.toFront();
        }
    }

    /** Replaces the file dialogs (tests). */
    public void setDialogs(Dialogs replacement) {
        this.dialogs = replacement;
    }

    /** A picture of part of the window, as it is now. */
    public WritableImage snapshot(Part part) {
        Node node = switch (part) {
            case TIMELINE -> centre;
            case CHARTS -> charts;
            case WINDOW -> this;
        };
        return node.snapshot(null, null);
    }

    /** Saves a picture of part of the window as a PNG file (written off the FX thread). */
    public void savePng(Part part, Path file, java.util.function.Consumer<String> done) {
        BufferedImage image = SwingFXUtils.fromFXImage(snapshot(part), null);
        intents.export().picture().save(image, file, done);
    }

    public TimelineView timeline() {
        return timeline;
    }

    public TuneView tune() {
        return tune;
    }

    /** The real dialogs: file and directory choosers owned by the window. */
    private final class FileDialogs implements Dialogs {
        private File lastDir;

        private Window window() {
            return getScene() == null ? null : getScene().getWindow();
        }

        private void remember(File f) {
            if (f != null) {
                lastDir = f.isDirectory() ? f : f.getParentFile();
            }
        }

        @Override
        public void openScenarioFile() {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Open a scenario file");
            chooser.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Scenarios", "*.yaml", "*.yml",
                    "*.json"), new FileChooser.ExtensionFilter("All files", "*"));
            if (lastDir != null) {
                chooser.setInitialDirectory(lastDir);
            }
            File f = chooser.showOpenDialog(window());
            remember(f);
            if (f != null) {
                intents.scenarios().openFile().accept(f.toPath());
            }
        }

        @Override
        public void openSavedRun() {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Open a saved run (events.jsonl)");
            chooser.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Event logs", "*.jsonl"),
                    new FileChooser.ExtensionFilter("All files", "*"));
            if (lastDir != null) {
                chooser.setInitialDirectory(lastDir);
            }
            File f = chooser.showOpenDialog(window());
            remember(f);
            if (f != null) {
                intents.scenarios().openSavedRun().accept(f.toPath());
            }
        }

        @Override
        public void exportReport() {
            File dir = folder("Export the report into a folder");
            if (dir != null) {
                intents.export().report().accept(dir.toPath(), null);
            }
        }

        @Override
        public void exportHandout() {
            File dir = folder(model.lesson().workshopProperty().get() != null
                    ? "Write the workshop's handouts into a folder" : "Write the handout into a folder");
            if (dir != null) {
                intents.export().handout().accept(dir.toPath(), null);
            }
        }

        /** A folder the user chooses (remembered for the next dialog), or null. */
        private File folder(String title) {
            DirectoryChooser chooser = new DirectoryChooser();
            chooser.setTitle(title);
            if (lastDir != null) {
                chooser.setInitialDirectory(lastDir);
            }
            File dir = chooser.showDialog(window());
            remember(dir);
            return dir;
        }

        @Override
        public void exportPng(Part part) {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Save a picture");
            chooser.setInitialFileName(part.name().toLowerCase() + ".png");
            chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("PNG images", "*.png"));
            if (lastDir != null) {
                chooser.setInitialDirectory(lastDir);
            }
            File f = chooser.showSaveDialog(window());
            remember(f);
            if (f != null) {
                savePng(part, f.toPath(), null);
            }
        }
    }
}

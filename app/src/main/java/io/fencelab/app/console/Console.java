package io.fencelab.app.console;

import io.fencelab.app.console.control.ConsoleController;
import io.fencelab.app.console.control.DatabaseSource;
import io.fencelab.app.console.feed.FrameLoop;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.view.ConsoleView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The console, wired: one model, one controller, one view, one frame loop, in a stage. The
 * application and the tests both build it here.
 */
public final class Console {

    public static final String STYLESHEET = Objects.requireNonNull(
            Console.class.getResource("console.css"), "console.css is missing from the build").toExternalForm();

    private final ConsoleModel model = new ConsoleModel();
    private final FrameLoop loop = new FrameLoop();
    private final ConsoleController controller;
    private final ConsoleView view;
    private final Scene scene;

    private Console(DatabaseSource database, Path runsDir) {
        controller = new ConsoleController(model, loop, database, runsDir);
        view = new ConsoleView(model, controller, loop);
        scene = new Scene(view, 1600, 960);
        scene.getStylesheets().add(STYLESHEET);
        view.installShortcuts(scene);
    }

    /** Builds the console into {@code stage}, shows it, and starts it (database opening in the background). */
    public static Console show(Stage stage, DatabaseSource database) {
        Console console = new Console(database, runsDirectory());
        stage.setTitle("Fencelab console");
        stage.setScene(console.scene);
        stage.setMinWidth(1100);
        stage.setMinHeight(700);
        stage.show();
        console.controller.start();
        return console;
    }

    /** Where the console's runs record their event logs: a fresh temporary directory per console. */
    static Path runsDirectory() {
        try {
            Path dir = Files.createTempDirectory("fencelab-console-runs");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the console's event logs", e);
        }
    }

    public ConsoleModel model() {
        return model;
    }

    public ConsoleController controller() {
        return controller;
    }

    public ConsoleView view() {
        return view;
    }

    public FrameLoop loop() {
        return loop;
    }

    public Scene scene() {
        return scene;
    }

    /** Stops every run and closes the database if the console opened it. */
    public void close() {
        controller.shutdown();
    }
}

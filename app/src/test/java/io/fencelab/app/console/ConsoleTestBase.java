package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.run.DatabaseSource;
import io.fencelab.engine.db.Database;
import io.fencelab.scenarios.Workshop;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.concurrent.TimeoutException;
import java.util.function.IntUnaryOperator;
import javafx.scene.control.Label;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * Where a console UI test starts: before each test, a {@link Console} on the shared embedded
 * PostgreSQL, shown on TestFX's primary stage; after it, the console closed. Tests may still take an
 * {@link org.testfx.api.FxRobot} parameter ({@link ApplicationExtension} gives it).
 *
 * <p>The console opens in a {@code @BeforeEach} method through {@link FxToolkit#setupStage}, not in a
 * TestFX {@code @Start} method: {@link ApplicationExtension} looks for {@code @Start} only among the
 * methods the test class itself declares (TestFX issue #730), so one here would never run.
 */
@ExtendWith({EmbeddedDatabase.class, ApplicationExtension.class})
abstract class ConsoleTestBase {

    /** The console under test; set before each test. */
    Console console;
    /** The embedded PostgreSQL the console uses. */
    Database db;

    @BeforeEach
    final void showConsole(Database database) throws TimeoutException {
        db = database;
        FxToolkit.setupStage(stage -> console = Console.show(stage, DatabaseSource.lent(database)));
    }

    @AfterEach
    final void closeConsole() {
        if (console != null) {
            fxRun(console::close);
        }
    }

    /** The run the console shows (the only one outside compare mode). */
    RunModel main() {
        return console.model().main();
    }

    void waitForDatabase() {
        waitUntil("the database is ready", 60, () -> console.model().databaseReadyProperty().get());
    }

    /** Runs catalog scenario {@code name} as fast as it goes and waits until it has ended. */
    void runToEnd(String name) {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select(name);
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run has ended", 60, () -> console.sessions().allOver());
    }

    /**
     * Chooses each story lesson of {@code workshop} in turn, waits until it is prepared (paused at its
     * start), and hands its index to {@code check}, which says how many things it checked in it;
     * returns their sum.
     */
    int forEachStoryLesson(Workshop workshop, IntUnaryOperator check) {
        int checked = 0;
        for (int l = 0; l < workshop.lessons().size(); l++) {
            if (workshop.lessons().get(l).kind() != Workshop.Kind.STORY) {
                continue;
            }
            int index = l;
            fxRun(() -> console.workshop().choose(index));
            waitUntil("lesson " + (l + 1) + " is prepared", 60, () -> main().phase() == RunPhase.PAUSED);
            checked += check.applyAsInt(index);
        }
        return checked;
    }

    /** The text of the {@link Label} {@code selector} finds in the console ({@code "#verdict-label"}). */
    String labelText(String selector) {
        return fx(() -> ((Label) console.scene().lookup(selector)).getText());
    }

    /** Saves a picture of the whole console as target/screenshots/{@code name}.png and returns its path. */
    Path screenshot(String name) {
        return ConsoleFx.screenshot(console.scene().getRoot(), name);
    }
}

package io.fencelab.app.console;

import io.fencelab.app.console.run.DatabaseSource;
import io.fencelab.engine.db.DatabaseConfig;
import javafx.application.Application;
import javafx.stage.Stage;

/**
 * The JavaFX application. Started by {@link ConsoleLauncher} (JavaFX runs from the class path, so
 * the {@code Application} subclass cannot be the main class), which hands over the database
 * configuration first.
 */
public final class ConsoleApp extends Application {

    private static volatile DatabaseConfig config;
    private static volatile String firstScenario;
    private static volatile String firstWorkshop;
    private Console console;

    /** {@code workshop}: a workshop file to open, empty for the shipped one, null for none. */
    static void configure(DatabaseConfig databaseConfig, String scenario, String workshop) {
        config = databaseConfig;
        firstScenario = scenario;
        firstWorkshop = workshop;
    }

    @Override
    public void start(Stage stage) {
        DatabaseConfig c = config != null ? config : DatabaseConfig.fromEnvironment(System.getenv());
        console = Console.show(stage, DatabaseSource.of(c));
        if (firstWorkshop != null) {
            if (firstWorkshop.isEmpty()) {
                console.workshop().openShipped();
            } else {
                console.workshop().openFile(java.nio.file.Path.of(firstWorkshop));
            }
        } else if (firstScenario != null) {
            console.scenarios().select(firstScenario);
        }
    }

    @Override
    public void stop() {
        if (console != null) {
            console.close();
        }
    }
}

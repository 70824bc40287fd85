package io.fencelab.app.console;

import io.fencelab.app.console.control.DatabaseSource;
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
    private Console console;

    static void configure(DatabaseConfig databaseConfig, String scenario) {
        config = databaseConfig;
        firstScenario = scenario;
    }

    @Override
    public void start(Stage stage) {
        DatabaseConfig c = config != null ? config : DatabaseConfig.fromEnvironment(System.getenv());
        console = Console.show(stage, DatabaseSource.of(c));
        if (firstScenario != null) {
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

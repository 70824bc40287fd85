package io.fencelab.app.console;

import io.fencelab.engine.db.DatabaseConfig;
import java.awt.GraphicsEnvironment;
import java.util.Locale;
import java.util.Map;
import javafx.application.Application;

/** Starts the console: the main class for JavaFX, which must not be the {@code Application} itself. */
public final class ConsoleLauncher {

    private ConsoleLauncher() {
    }

    public static void main(String[] args) {
        launch(DatabaseConfig.fromEnvironment(System.getenv()), args.length > 0 ? args[0] : "paused-holder");
    }

    /** Opens the console on {@code config}, showing {@code scenario} first (null: none); returns when it closes. */
    public static void launch(DatabaseConfig config, String scenario) {
        ConsoleApp.configure(config, scenario);
        Application.launch(ConsoleApp.class);
    }

    /**
     * Whether a window can be shown here: not on a headless JVM, and on Linux only with an X or
     * Wayland display to connect to.
     */
    public static boolean displayAvailable() {
        return displayAvailable(GraphicsEnvironment.isHeadless(), System.getProperty("os.name", ""), System.getenv());
    }

    static boolean displayAvailable(boolean headless, String osName, Map<String, String> env) {
        if (headless) {
            return false;
        }
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.contains("linux") || os.contains("bsd") || os.contains("sunos")) {
            return notBlank(env.get("DISPLAY")) || notBlank(env.get("WAYLAND_DISPLAY"));
        }
        return true;
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}

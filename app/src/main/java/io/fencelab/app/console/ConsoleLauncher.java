package io.fencelab.app.console;

import io.fencelab.engine.db.DatabaseConfig;
import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javafx.application.Application;

/**
 * Starts the console: the main class for JavaFX, which must not be the {@code Application} itself.
 * Before it starts, {@link #obstacle()} says whether a window can open here at all (a display, and
 * on Linux the GTK 3 library JavaFX draws its windows with); if JavaFX still cannot start its
 * toolkit, {@link #launch} throws {@link NoWindowException} with one line instead of a stack trace.
 */
public final class ConsoleLauncher {

    /** The library JavaFX's Linux windows need: OpenJFX 21 ships only the GTK 3 glass library. */
    static final String GTK3 = "libgtk-3.so.0";

    /** Where glibc's dynamic linker lists every library it can load (built by ldconfig). */
    static final Path LINKER_CACHE = Path.of("/etc/ld.so.cache");

    private ConsoleLauncher() {
    }

    public static void main(String[] args) {
        launch(DatabaseConfig.fromEnvironment(System.getenv()), args.length > 0 ? args[0] : "paused-holder");
    }

    /**
     * Opens the console on {@code config}, showing {@code scenario} first (null: none); returns when
     * it closes.
     *
     * @throws NoWindowException if JavaFX could not start its window toolkit here
     */
    public static void launch(DatabaseConfig config, String scenario) {
        launch(config, scenario, null);
    }

    /**
     * Opens the console as {@link #launch(DatabaseConfig, String)} does, with a workshop open as a
     * lesson list at its first lesson: {@code workshop} is a workshop file, or empty for the shipped
     * workshop (null: none).
     */
    public static void launch(DatabaseConfig config, String scenario, String workshop) {
        ConsoleApp.configure(config, scenario, workshop);
        configureRendering();
        try {
            Application.launch(ConsoleApp.class);
        } catch (RuntimeException e) {
            Optional<String> toolkitFailure = toolkitFailure(e);
            if (toolkitFailure.isPresent()) {
                throw new NoWindowException("the console could not open a window (" + toolkitFailure.get() + ")", e);
            }
            throw e;
        }
    }

    /**
     * JavaFX rendering settings the console runs with, unless the user gave them (as {@code -D}
     * options in {@code FENCELAB_JAVA_OPTS}); call before the toolkit starts.
     *
     * <p>Region background caching is off. With it, a region whose background has more than one fill
     * (in Modena: split panes, scroll panes, tables, buttons) is drawn from a cached image cut into
     * nine stretched slices. On the software pipeline (a machine without a usable GPU, and Monocle)
     * stretching those slices over the panes behind the timeline and the table was the render thread's
     * largest cost while a live run streamed (38 % of its samples), and the FX thread waits for the
     * render thread at each pulse; drawn directly, the same backgrounds are a few filled rectangles.
     * Both ways draw the same pixels.
     */
    public static void configureRendering() {
        if (System.getProperty("prism.disableRegionCaching") == null) {
            System.setProperty("prism.disableRegionCaching", "true");
        }
    }

    /** Thrown when JavaFX's window toolkit fails to start: {@link #getMessage()} is one line for the user. */
    public static final class NoWindowException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoWindowException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Why the console cannot open a window here, as a clause for one line that says what to do
     * (for example what to install); empty when nothing is known to stand in the way.
     */
    public static Optional<String> obstacle() {
        return obstacle(GraphicsEnvironment.isHeadless(), System.getProperty("os.name", ""), System.getenv(),
                System.getProperty("glass.platform"),
                soname -> libraryMissing(soname, System.getenv(), LINKER_CACHE, libraryDirectories()));
    }

    static Optional<String> obstacle(boolean headless, String osName, Map<String, String> env, String glassPlatform,
                                     Predicate<String> libraryMissing) {
        if (!displayAvailable(headless, osName, env)) {
            return Optional.of("no display available for the console (headless, or neither DISPLAY nor "
                    + "WAYLAND_DISPLAY is set)");
        }
        boolean gtkGlass = glassPlatform == null || glassPlatform.isBlank() || glassPlatform.equalsIgnoreCase("gtk");
        if (isLinux(osName) && gtkGlass && libraryMissing.test(GTK3)) {
            return Optional.of("the console needs GTK 3 (" + GTK3 + "), which is not installed "
                    + "(Debian/Ubuntu: sudo apt-get install libgtk-3-0; Fedora: sudo dnf install gtk3)");
        }
        return Optional.empty();
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
        if (isLinux(os) || os.contains("bsd") || os.contains("sunos")) {
            return notBlank(env.get("DISPLAY")) || notBlank(env.get("WAYLAND_DISPLAY"));
        }
        return true;
    }

    /**
     * Whether the shared library {@code soname} is certainly missing: not in a directory of
     * {@code LD_LIBRARY_PATH}, not in the linker cache and not in one of {@code libraryDirs}. Without
     * a readable linker cache (not glibc, or an unusual system) nothing is judged missing, and
     * JavaFX's own failure, if any, is caught at launch.
     */
    static boolean libraryMissing(String soname, Map<String, String> env, Path linkerCache, List<Path> libraryDirs) {
        String ldLibraryPath = env.getOrDefault("LD_LIBRARY_PATH", "");
        for (String dir : ldLibraryPath.split(":")) {
            if (!dir.isBlank() && Files.exists(Path.of(dir, soname))) {
                return false;
            }
        }
        for (Path dir : libraryDirs) {
            if (Files.exists(dir.resolve(soname))) {
                return false;
            }
        }
        byte[] cache;
        try {
            cache = Files.readAllBytes(linkerCache);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        // The cache's string table holds each library's soname, NUL-terminated.
        return !new String(cache, StandardCharsets.ISO_8859_1).contains(soname + '\0');
    }

    /** The usual library directories of a Linux system, multiarch ones ({@code /usr/lib/x86_64-linux-gnu}) included. */
    static List<Path> libraryDirectories() {
        List<Path> dirs = new ArrayList<>();
        for (String root : List.of("/lib", "/usr/lib", "/usr/local/lib")) {
            Path dir = Path.of(root);
            dirs.add(dir);
            try (Stream<Path> children = Files.list(dir)) {
                children.filter(p -> p.getFileName().toString().endsWith("-linux-gnu")).forEach(dirs::add);
            } catch (IOException | RuntimeException e) {
                // absent or unreadable: nothing to look in
            }
        }
        dirs.add(Path.of("/lib64"));
        dirs.add(Path.of("/usr/lib64"));
        return dirs;
    }

    /**
     * The message of the failure when {@code e} came from JavaFX starting its toolkit (no GTK, a
     * display that refuses the connection, no graphics pipeline); empty for any other failure.
     */
    static Optional<String> toolkitFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            for (StackTraceElement frame : t.getStackTrace()) {
                if (frame.getClassName().equals("com.sun.javafx.application.PlatformImpl")
                        && frame.getMethodName().equals("startup")) {
                    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
                    return Optional.of(message.endsWith(".") ? message.substring(0, message.length() - 1) : message);
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isLinux(String osName) {
        return osName.toLowerCase(Locale.ROOT).contains("linux");
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}

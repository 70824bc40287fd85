package io.fencelab.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.app.cli.FencelabCommand;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@ExtendWith(EmbeddedDatabase.class)
class ConsoleLauncherTest {

    @Test
    void aHeadlessJvmHasNoDisplay() {
        assertThat(ConsoleLauncher.displayAvailable(true, "Linux", Map.of("DISPLAY", ":0"))).isFalse();
    }

    @Test
    void linuxNeedsAnXOrWaylandDisplay() {
        assertThat(ConsoleLauncher.displayAvailable(false, "Linux", Map.of())).isFalse();
        assertThat(ConsoleLauncher.displayAvailable(false, "Linux", Map.of("DISPLAY", " "))).isFalse();
        assertThat(ConsoleLauncher.displayAvailable(false, "Linux", Map.of("DISPLAY", ":0"))).isTrue();
        assertThat(ConsoleLauncher.displayAvailable(false, "Linux", Map.of("WAYLAND_DISPLAY", "wayland-0"))).isTrue();
    }

    @Test
    void macAndWindowsAlwaysHaveOneUnlessHeadless() {
        assertThat(ConsoleLauncher.displayAvailable(false, "Mac OS X", Map.of())).isTrue();
        assertThat(ConsoleLauncher.displayAvailable(false, "Windows 11", Map.of())).isTrue();
    }

    @Test
    void linuxWithADisplayButWithoutGtk3SaysWhatToInstall() {
        assertThat(ConsoleLauncher.obstacle(false, "Linux", Map.of("DISPLAY", ":0"), null, soname -> true))
                .as("a display alone is not enough: JavaFX draws Linux windows with GTK 3")
                .hasValueSatisfying(why -> assertThat(why)
                        .contains("GTK 3", "libgtk-3.so.0", "apt-get install libgtk-3-0")
                        .doesNotContain("\n"));
        assertThat(ConsoleLauncher.obstacle(false, "Linux", Map.of("DISPLAY", ":0"), null, soname -> false)).isEmpty();
    }

    @Test
    void theDisplayIsCheckedBeforeGtkAndOtherSystemsNeedNoGtk() {
        assertThat(ConsoleLauncher.obstacle(false, "Linux", Map.of(), null, soname -> true))
                .hasValueSatisfying(why -> assertThat(why).startsWith("no display available"));
        assertThat(ConsoleLauncher.obstacle(false, "Windows 11", Map.of(), null, soname -> true)).isEmpty();
        assertThat(ConsoleLauncher.obstacle(false, "Linux", Map.of("DISPLAY", ":0"), "Monocle", soname -> true))
                .as("Monocle draws without GTK").isEmpty();
    }

    @Test
    void gtkListedInTheLinkerCacheIsInstalled(@TempDir Path dir) throws IOException {
        Path cache = linkerCache(dir, "libgtk-x11-2.0.so.0", "libgtk-3.so.0", "libc.so.6");
        assertThat(ConsoleLauncher.libraryMissing("libgtk-3.so.0", Map.of(), cache, List.of())).isFalse();
    }

    @Test
    void gtkAbsentFromTheLinkerCacheAndTheLibraryDirectoriesIsMissing(@TempDir Path dir) throws IOException {
        // GTK 2 installed is not GTK 3, and neither is a longer name that starts the same way.
        Path cache = linkerCache(dir, "libgtk-x11-2.0.so.0", "libgtk-3.so.0.2400.38", "libc.so.6");
        Path libDir = Files.createDirectories(dir.resolve("lib"));
        assertThat(ConsoleLauncher.libraryMissing("libgtk-3.so.0", Map.of(), cache, List.of(libDir))).isTrue();
    }

    @Test
    void gtkInALibraryDirectoryOrOnLdLibraryPathIsInstalled(@TempDir Path dir) throws IOException {
        Path cache = linkerCache(dir, "libc.so.6");
        Path libDir = Files.createDirectories(dir.resolve("lib"));
        Path ownDir = Files.createDirectories(dir.resolve("own"));
        Files.createFile(libDir.resolve("libgtk-3.so.0"));
        assertThat(ConsoleLauncher.libraryMissing("libgtk-3.so.0", Map.of(), cache, List.of(libDir))).isFalse();

        Files.delete(libDir.resolve("libgtk-3.so.0"));
        Files.createFile(ownDir.resolve("libgtk-3.so.0"));
        assertThat(ConsoleLauncher.libraryMissing("libgtk-3.so.0", Map.of("LD_LIBRARY_PATH", "/nowhere:" + ownDir),
                cache, List.of(libDir))).isFalse();
    }

    @Test
    void withoutALinkerCacheNothingIsJudgedMissing(@TempDir Path dir) {
        // Not glibc (or an unusual layout): let JavaFX try, and catch its failure at launch instead.
        assertThat(ConsoleLauncher.libraryMissing("libgtk-3.so.0", Map.of(), dir.resolve("no-such-cache"), List.of()))
                .isFalse();
    }

    @Test
    void aFailureOfTheToolkitStartIsToldApartFromOtherFailures() {
        UnsupportedOperationException glass = new UnsupportedOperationException("Unable to load glass GTK library.");
        glass.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("com.sun.glass.ui.gtk.GtkApplication", "<init>", "GtkApplication.java", 164),
                new StackTraceElement("com.sun.javafx.application.PlatformImpl", "startup", "PlatformImpl.java", 292)});
        assertThat(ConsoleLauncher.toolkitFailure(glass)).contains("Unable to load glass GTK library");
        assertThat(ConsoleLauncher.toolkitFailure(new RuntimeException("Application launch exception", glass)))
                .contains("Unable to load glass GTK library");

        RuntimeException inStart = new RuntimeException("Exception in Application start method");
        inStart.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("com.sun.javafx.application.LauncherImpl", "launchApplication", "LauncherImpl.java", 211)});
        assertThat(ConsoleLauncher.toolkitFailure(inStart)).as("the console's own failures are not hidden").isEmpty();
    }

    /** A stand-in for /etc/ld.so.cache: binary, with each soname NUL-terminated in its string table. */
    private static Path linkerCache(Path dir, String... sonames) throws IOException {
        StringBuilder table = new StringBuilder("glibc-ld.so.cache1.1\0\1\2");
        for (String soname : sonames) {
            table.append(soname).append('\0').append("/usr/lib/x86_64-linux-gnu/").append(soname).append('\0');
        }
        return Files.write(dir.resolve("ld.so.cache"), table.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void fencelabWithoutArgumentsAndWithoutADisplaySaysSoInOneLineAndTellsTheDemo(Database db) {
        // The tests run with java.awt.headless=true, as a server without a display would.
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = FencelabCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("--jdbc-url", db.jdbcUrl());

        assertThat(exit).isEqualTo(ExitCodes.OK);
        assertThat(err.toString().lines().toList()).singleElement().asString()
                .startsWith("fencelab: no display available for the console");
        assertThat(out.toString()).contains("A acquires the lease on \"report\": token 41");
    }

    @Test
    void regionCachingIsOffUnlessTheUserSaidOtherwise() {
        String before = System.getProperty("prism.disableRegionCaching");
        try {
            System.clearProperty("prism.disableRegionCaching");
            ConsoleLauncher.configureRendering();
            assertThat(System.getProperty("prism.disableRegionCaching")).isEqualTo("true");

            System.setProperty("prism.disableRegionCaching", "false");
            ConsoleLauncher.configureRendering();
            assertThat(System.getProperty("prism.disableRegionCaching")).isEqualTo("false");
        } finally {
            if (before == null) {
                System.clearProperty("prism.disableRegionCaching");
            } else {
                System.setProperty("prism.disableRegionCaching", before);
            }
        }
    }
}

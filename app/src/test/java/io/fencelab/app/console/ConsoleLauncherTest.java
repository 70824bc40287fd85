package io.fencelab.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.app.cli.FencelabCommand;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
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
}

package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fxRun;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.service.Handouts;
import io.fencelab.report.Handout;
import io.fencelab.scenarios.WorkshopLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleHandoutTest extends ConsoleTestBase {

    @Test
    void exportingAHandoutWritesTheCommandLinesPageForTheScenarioOnShow(@TempDir Path dir) throws Exception {
        waitForDatabase();
        fxRun(() -> console.scenarios().select("paused-holder"));
        CompletableFuture<String> done = new CompletableFuture<>();
        fxRun(() -> console.export().exportHandout(dir.resolve("console"), done::complete));

        assertThat(done.get(60, TimeUnit.SECONDS)).isEqualTo("Handout written to "
                + dir.resolve("console").resolve("paused-holder.html"));
        Path cli = Handouts.scenario(db, "paused-holder", dir.resolve("cli"), Handout.Options.STUDENT_A4).pages().getFirst();
        assertThat(Files.mismatch(dir.resolve("console/paused-holder.html"), cli)).as("the same page, byte for byte")
                .isEqualTo(-1L);
    }

    @Test
    void withAWorkshopOpenTheExportWritesEveryLessonAndTheIndex(@TempDir Path dir) throws Exception {
        waitForDatabase();
        fxRun(() -> console.model().lesson().workshopProperty().set(WorkshopLoader.shipped()));
        CompletableFuture<String> done = new CompletableFuture<>();
        fxRun(() -> console.export().exportHandout(dir, done::complete));

        assertThat(done.get(120, TimeUnit.SECONDS)).isEqualTo("Handout written to " + dir.resolve("index.html"));
        assertThat(dir.resolve("06-k8s-leader-gc.html")).isRegularFile();
    }
}

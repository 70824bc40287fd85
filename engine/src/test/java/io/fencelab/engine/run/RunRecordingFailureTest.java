package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.Specs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose event log cannot be written is a failed run: it ends at once, {@code failed: no space
 * left on …}, instead of going on without its history. {@code /dev/full} answers every write with
 * the kernel's ENOSPC, as a full disk does.
 */
@ExtendWith(EmbeddedDatabase.class)
class RunRecordingFailureTest {

    private static final Path FULL = Path.of("/dev/full");

    @BeforeEach
    void needsDevFull() {
        assumeTrue(Files.isWritable(FULL), "/dev/full (Linux) stands for a full disk here");
    }

    @Test
    void aSimulatedRunWhoseLogCannotBeWrittenEndsFailedWithTheDiskNamed(Database db) throws Exception {
        RunResult result;
        try (Run run = Run.prepare(db, Specs.storm(10, 2, FencingMode.FENCED, 3, Duration.ofSeconds(120)), FULL)) {
            result = run.runToEnd();
            assertThat(run.recordingFailure()).as("the run says why").isPresent();
        }

        assertThat(result.failed()).as("not completed: " + result.endReason()).isTrue();
        assertThat(result.endReason()).matches("failed: no space left on /dev \\(\\d+ bytes free\\)");
    }

    @Test
    void aSimulatedRunStopsAtTheFirstBatchItCannotRecord(Database db, @TempDir Path dir) throws Exception {
        RunSpec storm = Specs.storm(10, 2, FencingMode.FENCED, 3, Duration.ofSeconds(120));
        long whole;
        try (Run run = Run.prepare(db, storm, dir.resolve("whole.jsonl"))) {
            whole = run.runToEnd().events();
        }

        RunResult failed;
        try (Run run = Run.prepare(db, storm, FULL)) {
            failed = run.runToEnd();
        }

        assertThat(failed.events()).as("ended at once, not after the whole run of " + whole + " events")
                .isLessThan(whole / 2);
    }

    @Test
    void aLiveRunWhoseLogCannotBeWrittenEndsFailed(Database db) throws Exception {
        RunSpec live = Specs.storm(5, 1, FencingMode.FENCED, 3, Duration.ofSeconds(60)).toBuilder()
                .executor(ExecutorKind.LIVE).timeScale(0.05).build();
        RunResult result;
        try (Run run = Run.prepare(db, live, FULL)) {
            result = run.runToEnd();
        }

        assertThat(result.endReason()).startsWith("failed: no space left on /dev (");
    }
}

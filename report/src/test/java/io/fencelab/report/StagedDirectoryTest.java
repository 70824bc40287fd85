package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagedDirectoryTest {

    private static final List<String> FILES = List.of("events.jsonl", "summary.json", "report.html");

    @Test
    void nothingReachesTheDestinationBeforeTheCommit(@TempDir Path root) throws IOException {
        Path out = root.resolve("out");

        try (StagedDirectory staged = StagedDirectory.open(out, FILES)) {
            Files.writeString(staged.staged("events.jsonl"), "new\n");

            assertThat(out).as("the destination is made only by the commit").doesNotExist();
            assertThat(staged.staging()).as("staged beside it, under a name that says partial")
                    .hasParent(root).hasFileName(".fencelab-partial-out");
        }
    }

    @Test
    void committedFilesAreReadableByOthersThoughStagedPrivately(@TempDir Path root) throws IOException {
        Path out = root.resolve("out");
        Path single = root.resolve("sweep.html");
        try (StagedDirectory staged = StagedDirectory.open(out, FILES)) {
            // As a run's log recorded through a private temporary file, or written under umask 077.
            Files.createFile(staged.staged("events.jsonl"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(staged.staged("report.html"), "report");
            Files.setPosixFilePermissions(staged.staged("report.html"), PosixFilePermissions.fromString("rw-------"));
            staged.commit();
        }
        StagedDirectory.writeFile(single, "sweep");

        for (Path file : List.of(out.resolve("events.jsonl"), out.resolve("report.html"), single)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .as("%s is written to be opened by a browser, a web server or a colleague", file.getFileName())
                    .isEqualTo("rw-r--r--");
        }
    }

    @Test
    void aCommitReplacesEveryArtifactOfTheEarlierSetAndLeavesOtherFilesAlone(@TempDir Path root) throws IOException {
        Path out = Files.createDirectories(root.resolve("out"));
        for (String name : FILES) {
            Files.writeString(out.resolve(name), "old " + name);
        }
        Files.writeString(out.resolve("notes.txt"), "mine");

        try (StagedDirectory staged = StagedDirectory.open(out, FILES)) {
            Files.writeString(staged.staged("events.jsonl"), "new events");
            Files.writeString(staged.staged("report.html"), "new report");
            staged.commit();
        }

        assertThat(out.resolve("events.jsonl")).hasContent("new events");
        assertThat(out.resolve("report.html")).hasContent("new report");
        assertThat(out.resolve("summary.json")).as("an earlier artifact the new set lacks is not left beside it")
                .doesNotExist();
        assertThat(out.resolve("notes.txt")).as("a file that is no artifact is the user's").hasContent("mine");
        assertThat(root.resolve(".fencelab-partial-out")).as("the staging directory is gone").doesNotExist();
    }

    @Test
    void anUncommittedSetLeavesTheDestinationAsItWasAndItsFilesInTheStagingDirectory(@TempDir Path root)
            throws IOException {
        Path out = Files.createDirectories(root.resolve("out"));
        Files.writeString(out.resolve("report.html"), "old report");
        Path staging;

        try (StagedDirectory staged = StagedDirectory.open(out, FILES)) {
            staging = staged.staging();
            Files.writeString(staged.staged("events.jsonl"), "events so far");
            Files.writeString(staged.staged("report.html"), "");
            assertThat(staged.discardAllBut("events.jsonl")).contains(staged.staged("events.jsonl"));
        }

        assertThat(out.resolve("report.html")).as("the earlier report is untouched").hasContent("old report");
        assertThat(staging.resolve("events.jsonl")).as("the events so far are kept").hasContent("events so far");
        assertThat(staging.resolve("report.html")).as("no empty report that looks complete").doesNotExist();
    }

    @Test
    void aStagingDirectoryLeftByAKilledProcessIsEmptiedAndReusedByTheNextWrite(@TempDir Path root)
            throws IOException {
        Path out = root.resolve("out");
        Path leftover = Files.createDirectories(root.resolve(".fencelab-partial-out"));
        Files.writeString(leftover.resolve("events.jsonl"), "a killed run's events");
        Files.writeString(leftover.resolve("stray"), "?");

        try (StagedDirectory staged = StagedDirectory.open(out, FILES)) {
            assertThat(staged.staging()).isEqualTo(leftover);
            assertThat(leftover.resolve("events.jsonl")).as("emptied for the new set").doesNotExist();
            assertThat(leftover.resolve("stray")).doesNotExist();
        }
    }

    @Test
    void aSecondWriterToTheSameDestinationIsRefusedWhileTheFirstIsStaging(@TempDir Path root) throws IOException {
        Path out = root.resolve("out");

        try (StagedDirectory first = StagedDirectory.open(out, FILES)) {
            Files.writeString(first.staged("events.jsonl"), "first");

            assertThatThrownBy(() -> StagedDirectory.open(out, FILES))
                    .isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("Another Fencelab process is writing here now");
            assertThat(first.staged("events.jsonl")).as("the first writer's file is not emptied").hasContent("first");
        }
    }

    @Test
    void aDestinationThatIsAFileIsRefusedBeforeAnythingIsStaged(@TempDir Path root) throws IOException {
        Path file = Files.createFile(root.resolve("afile"));

        assertThatThrownBy(() -> StagedDirectory.open(file, FILES)).isInstanceOf(NotDirectoryException.class);
        assertThat(root.resolve(".fencelab-partial-afile")).doesNotExist();
    }

    @Test
    void aWholeFileReplacesTheOldOneWithoutLeavingItsPartialBehind(@TempDir Path root) throws IOException {
        Path file = root.resolve("sweep.json");
        Files.writeString(file, "old");

        StagedDirectory.writeFile(file, "new");

        assertThat(file).hasContent("new");
        try (var left = Files.list(root)) {
            assertThat(left).as("no partial file beside it").containsExactly(file);
        }
    }
}

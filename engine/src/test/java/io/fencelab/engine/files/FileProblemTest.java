package io.fencelab.engine.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileProblemTest {

    @Test
    void aMissingFileIsNamedAndSaidToBeMissing(@TempDir Path dir) {
        Path missing = dir.resolve("nope.jsonl");

        IOException e = catchIo(() -> Files.readString(missing));

        assertThat(FileProblem.of(e)).as("the JDK's message is only the path")
                .isEqualTo(missing + ": no such file or directory");
    }

    @Test
    void aFileThatMayNotBeWrittenSaysPermissionDenied() {
        assertThat(FileProblem.of(new AccessDeniedException("/srv/out/report.html")))
                .isEqualTo("/srv/out/report.html: permission denied");
    }

    @Test
    void aDirectoryWantedWhereAFileIsSaysItIsAFile(@TempDir Path dir) throws IOException {
        Path file = Files.createFile(dir.resolve("afile"));

        IOException e = catchIo(() -> Files.createDirectories(file));

        assertThat(FileProblem.of(e)).isEqualTo(file + ": already exists as a file, not a directory");
    }

    @Test
    void readingADirectoryAsAFileSaysWhichPathIsADirectory(@TempDir Path dir) {
        IOException e = catchIo(() -> Files.readString(dir));

        assertThat(FileProblem.of(dir, e)).as("the JDK says only 'Is a directory'")
                .isEqualTo(dir + ": is a directory");
    }

    @Test
    void aFullDiskSaysWhichDirectoryAndHowManyBytesAreFree(@TempDir Path dir) {
        Path file = dir.resolve("events.jsonl");

        String line = FileProblem.of(file, new IOException("No space left on device"));

        assertThat(line).as("the directory the file is in, and its free space")
                .matches("no space left on " + java.util.regex.Pattern.quote(dir.toString()) + " \\(\\d+ bytes free\\)");
    }

    @Test
    void aFullDiskIsRecognisedThroughTheCausesOfAnException() {
        Exception wrapped = new java.io.UncheckedIOException("cannot write", new IOException("No space left on device"));

        assertThat(FileProblem.isNoSpace(wrapped)).as("ENOSPC under a wrapper").isTrue();
        assertThat(FileProblem.isNoSpace(new IOException("Input/output error"))).isFalse();
    }

    @Test
    void invalidJsonNamesTheFileAndLineWithoutQuotingMoreThanAShortPrefix(@TempDir Path dir) {
        Path summary = dir.resolve("summary.json");
        String secret = "x".repeat(500);
        JsonProcessingException e = (JsonProcessingException) catchIo(
                () -> new ObjectMapper().readTree("{\n\"verdict\": " + secret + "}"));

        String line = FileProblem.of(summary, e);

        assertThat(line).startsWith(summary + ": not valid JSON: line 2, column ");
        assertThat(line).as("a short prefix of the parser's message only").hasSizeLessThan(summary.toString().length() + 160)
                .doesNotContain("\n");
    }

    @Test
    void anExistingFileIsRefusedAsADirectoryToWriteInto(@TempDir Path dir) throws IOException {
        Path file = Files.createFile(dir.resolve("afile"));

        assertThatThrownBy(() -> FileProblem.requireDirectoryOrAbsent("--out", file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--out " + file + ": is a file, not a directory");
    }

    @Test
    void anAlreadyExistingDirectoryIsSaidToBeOne(@TempDir Path dir) {
        assertThat(FileProblem.of(new FileAlreadyExistsException(dir.toString())))
                .isEqualTo(dir + ": already exists (a directory)");
    }

    private interface IoAction {
        Object run() throws IOException;
    }

    private static IOException catchIo(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            return e;
        }
        throw new AssertionError("expected an IOException");
    }
}

package io.fencelab.engine.chaos.pauses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pause files read as the JVMs that wrote them meant: the logs under test resources were made on this
 * machine by OpenJDK 17 and Temurin 25 (their README says how); the counts and durations below were
 * read from those files by eye and grep.
 */
class PauseLogTest {

    @TempDir
    Path dir;

    private static Path resource(String name) {
        try {
            return Path.of(PauseLogTest.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Duration micros(long micros) {
        return Duration.ofNanos(micros * 1_000);
    }

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    @Test
    void g1PauseLinesAreReadAndItsConcurrentCycleIsNot() {
        PauseSample s = PauseLog.read(resource("g1-jdk17.log"), "g1-jdk17.log");

        assertThat(s.format()).isEqualTo(PauseFormat.GC_LOG);
        assertThat(s.durations()).as("Pause Young, Remark and Cleanup lines; not 'Concurrent Mark Cycle'")
                .hasSize(36);
        assertThat(s.durations()).startsWith(micros(74_611), micros(9_322), micros(27_705));
        assertThat(s.durations()).doesNotContain(micros(1_858)); // the last line's concurrent cycle
        assertThat(s.span()).as("first uptime 0.031s to last 12.488s").isEqualTo(Duration.ofMillis(12_457));
        assertThat(s.file()).isEqualTo("g1-jdk17.log");
    }

    @Test
    void parallelAndSerialPauseLinesAreRead() {
        PauseSample parallel = PauseLog.read(resource("parallel-jdk17.log"));
        PauseSample serial = PauseLog.read(resource("serial-jdk17.log"));

        assertThat(parallel.durations()).hasSize(22).startsWith(micros(63_785), micros(78_904));
        assertThat(serial.durations()).hasSize(15).startsWith(micros(5_887), micros(332_067));
        assertThat(serial.span()).isEqualTo(Duration.ofMillis(12_420 - 29));
    }

    @Test
    void zgcPausesAreItsPausePhasesNotItsConcurrentOnes() {
        PauseSample jdk17 = PauseLog.read(resource("zgc-jdk17.log"));
        PauseSample generational = PauseLog.read(resource("zgc-jdk25.log"));

        assertThat(jdk17.durations()).as("Pause Mark Start, Pause Mark End, Pause Relocate Start per cycle")
                .hasSize(24).startsWith(micros(7), micros(14), micros(13));
        assertThat(generational.durations()).as("'Y: Pause Mark Start (Major) 0.012ms' and the old generation's")
                .hasSize(14).startsWith(micros(12), micros(11), micros(5));
        assertThat(generational.format()).isEqualTo(PauseFormat.GC_LOG);
    }

    @Test
    void aGcStarLogCountsEachPauseOnceNotItsStartLine() {
        PauseSample s = PauseLog.read(resource("g1-gcstar-jdk25.log"));

        assertThat(s.durations()).as("the [gc] lines; [gc,start] and [gc,phases] sub-phases are not pauses")
                .containsExactly(micros(23_765), micros(123_025), micros(56_955));
    }

    @Test
    void safepointTotalsAreReadInTheJdk13AndLaterForm() {
        PauseSample jdk17 = PauseLog.read(resource("safepoint-jdk17.log"));
        PauseSample jdk25 = PauseLog.read(resource("safepoint-jdk25.log"));

        assertThat(jdk17.format()).isEqualTo(PauseFormat.SAFEPOINT_LOG);
        assertThat(jdk17.durations()).as("Total: 14117537 ns, rounded to the microsecond").hasSize(36)
                .startsWith(micros(14_118), micros(7_605));
        assertThat(jdk17.span()).isEqualTo(Duration.ofMillis(12_807 - 1_351));
        assertThat(jdk25.durations()).hasSize(23).startsWith(micros(17_939), micros(71_858));
    }

    @Test
    void safepointTotalsAreReadInTheOlderStoppedSecondsForm() {
        PauseSample s = PauseLog.read(resource("safepoint-jdk11-form.log"));

        assertThat(s.format()).isEqualTo(PauseFormat.SAFEPOINT_LOG);
        assertThat(s.durations()).as("'stopped: 0.0141175 seconds' lines; 'Application time' lines are not stops")
                .hasSize(12).startsWith(micros(14_118), micros(7_605));
    }

    @Test
    void aLogWithGcAndSafepointLinesIsRefusedSoNoPauseCountsTwice() {
        assertThatThrownBy(() -> PauseLog.read(resource("g1-and-safepoint-jdk17.log"), "both.log"))
                .isInstanceOfSatisfying(PauseLogException.class, e -> {
                    assertThat(e.line()).as("the first safepoint line, after the GC pause line 2").isEqualTo(3);
                    assertThat(e.getMessage()).startsWith("both.log:3: a safepoint line in a file whose line 2 is a "
                            + "GC pause line").contains("one source of pauses", "-Xlog:gc or -Xlog:safepoint");
                });
    }

    @Test
    void jfrGcPhasePauseEventsAreTheRecordingsPauses() {
        PauseSample s = PauseLog.read(resource("g1-jdk25.jfr"), "g1-jdk25.jfr");

        assertThat(s.format()).isEqualTo(PauseFormat.JFR);
        assertThat(s.durations()).as("26 jdk.GCPhasePause events, not also the 21 jdk.GarbageCollection ones")
                .hasSize(26).startsWith(micros(82_327), micros(11_874));
        assertThat(s.span()).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(13));
    }

    @Test
    void aJfrRecordingWithoutPhasePausesIsReadFromItsCollections() throws IOException {
        Path collectionsOnly = dir.resolve("collections.jfr");
        try (RecordingFile recording = new RecordingFile(resource("g1-jdk25.jfr"))) {
            recording.write(collectionsOnly, e -> e.getEventType().getName().equals(JfrRecording.COLLECTION));
        }

        PauseSample s = PauseLog.read(collectionsOnly);

        assertThat(s.durations()).as("one pause per jdk.GarbageCollection, its sumOfPauses").hasSize(21)
                .startsWith(micros(82_327), micros(11_874), micros(4_296));
    }

    @Test
    void aJfrRecordingIsReadFromMemoryToo() throws IOException {
        PauseSample s = PauseLog.read("g1.jfr", Files.readAllBytes(resource("g1-jdk25.jfr")));

        assertThat(s.durations()).hasSize(26);
        assertThat(s.file()).isEqualTo("g1.jfr");
    }

    @Test
    void durationsWithUnitsOneALineHaveNoSpan() throws IOException {
        PauseSample s = PauseLog.read(file("pauses.txt", "# from our dashboards\n12ms\n1.5s\n\n250us\n3 ms\n"));

        assertThat(s.format()).isEqualTo(PauseFormat.DURATIONS);
        assertThat(s.durations()).containsExactly(Duration.ofMillis(12), Duration.ofMillis(1_500), micros(250),
                Duration.ofMillis(3));
        assertThat(s.span()).isNull();
        assertThat(s.distribution().meanGap()).isEmpty();
    }

    @Test
    void aCsvWithATimeColumnHasTheSpanOfItsTimes() throws IOException {
        PauseSample s = PauseLog.read(file("pauses.csv", "time,duration,cause\n10s,120ms,young\n"
                + "70s,80ms,young\n130.5s,2.5s,full\n"));

        assertThat(s.format()).isEqualTo(PauseFormat.CSV);
        assertThat(s.durations()).containsExactly(Duration.ofMillis(120), Duration.ofMillis(80),
                Duration.ofMillis(2_500));
        assertThat(s.span()).isEqualTo(Duration.ofMillis(120_500));
        assertThat(s.distribution().meanGap()).as("(120.5s - 2.7s paused) / 3 pauses")
                .contains(micros(39_266_667));
    }

    @Test
    void aDurationWithoutUnitIsRefusedAtItsLine() throws IOException {
        Path f = file("pauses.csv", "duration\n12ms\n7.5\n");

        assertThatThrownBy(() -> PauseLog.read(f, "pauses.csv")).isInstanceOf(PauseLogException.class)
                .hasMessage("pauses.csv:3: duration: '7.5' has no unit; write 7.5ms, 7.5s, … (units: ns, us, ms, s)");
    }

    @Test
    void aFileOfNoAcceptedFormatIsRefusedNamingTheLineAndTheFormats() throws IOException {
        Path f = file("scenario.yaml", "# a scenario, not a log\ntitle: Paused holder\nduration: 60s\n");

        assertThatThrownBy(() -> PauseLog.read(f, "scenario.yaml")).isInstanceOfSatisfying(PauseLogException.class,
                e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.getMessage()).startsWith("scenario.yaml:2: 'title: Paused holder' is not a line of "
                                    + "any accepted format; accepted: a JDK unified log of GC pauses (-Xlog:gc")
                            .contains("-Xlog:safepoint", "JFR recording", "CSV file with a duration column");
                });
    }

    @Test
    void anEmptyFileIsRefused() throws IOException {
        Path f = file("empty.log", "\n  \n");

        assertThatThrownBy(() -> PauseLog.read(f, "empty.log")).isInstanceOf(PauseLogException.class)
                .hasMessageStartingWith("empty.log: is empty; accepted: a JDK unified log");
    }

    @Test
    void aUnifiedLogWithoutPausesSaysWhichFlagsLogThem() throws IOException {
        Path f = file("zgc.log", "[0.010s][info][gc] Using The Z Garbage Collector\n"
                + "[0.500s][info][gc] GC(0) Garbage Collection (Warmup) 14M(22%)->8M(12%)\n");

        assertThatThrownBy(() -> PauseLog.read(f, "zgc.log")).isInstanceOf(PauseLogException.class)
                .hasMessageContaining("without pause lines").hasMessageContaining("-Xlog:gc+phases");
    }

    @Test
    void aBinaryFileThatIsNoRecordingIsRefused() throws IOException {
        Path f = Files.write(dir.resolve("image.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', (byte) 0xff, 0});

        assertThatThrownBy(() -> PauseLog.read(f, "image.png")).isInstanceOf(PauseLogException.class)
                .hasMessageStartingWith("image.png: is neither UTF-8 text nor a JFR recording");
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> PauseLog.read(dir.resolve("nope.log"), "nope.log"))
                .isInstanceOf(PauseLogException.class).hasMessage("nope.log: no such file");
    }

    @Test
    void aDeviceIsRefusedAsWhatItIsWithoutReadingIt() {
        // Before: {empirical: /dev/zero} read zeros until an OutOfMemoryError.
        assertThatThrownBy(() -> PauseLog.read(Path.of("/dev/zero"), "/dev/zero"))
                .as("a character device is named as one, and nothing of it is read")
                .isInstanceOf(PauseLogException.class)
                .hasMessage("/dev/zero: is a character device, not a regular file; a pause file is a regular file");
    }

    @Test
    void aFileOfProcIsRefusedWithoutShowingAnyOfIt() {
        // Before: /proc/self/environ printed the environment's variables in the error.
        assertThatThrownBy(() -> PauseLog.read(Path.of("/proc/self/environ"), "/proc/self/environ"))
                .as("a /proc file is refused by where it lives, not by what it holds")
                .isInstanceOf(PauseLogException.class)
                .hasMessage("/proc/self/environ: is a file of the kernel's proc file system (as under /proc and /sys), "
                        + "not a pause file");
    }

    @Test
    void aNamedPipeIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = dir.resolve("pauses.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).as("mkfifo made the pipe").isZero();

        assertThatThrownBy(() -> PauseLog.read(fifo, "pauses.fifo")).as("opening it would block until a writer came")
                .isInstanceOf(PauseLogException.class)
                .hasMessage("pauses.fifo: is a named pipe (FIFO), not a regular file; a pause file is a regular file");
    }

    @Test
    void aDirectoryIsRefusedAsADirectory() {
        assertThatThrownBy(() -> PauseLog.read(dir, "logs")).as("a directory is named as one")
                .isInstanceOf(PauseLogException.class).hasMessage("logs: is a directory, not a file");
    }

    @Test
    void aFileOverTheSizeCapIsRefusedBeforeItIsRead() throws IOException {
        Path big = dir.resolve("huge.log");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(PauseLog.MAX_BYTES + 1L); // sparse: no disk, no time
        }

        assertThatThrownBy(() -> PauseLog.read(big, "huge.log")).as("its size says so without reading it")
                .isInstanceOf(PauseLogException.class)
                .hasMessage("huge.log: is 67,108,865 bytes, larger than the 64 MiB a pause file may be; keep the part "
                        + "of the log with the pauses you mean (for example with tail or grep)");
    }

    @Test
    void aFileOfNoAcceptedFormatShowsOnlyAShortPrefixOfItsLine() throws IOException {
        // Before: {empirical: ../../../../etc/shadow} printed the file's first line whole.
        Path f = file("shadow", "root:$6$Q9yXb1xT$2bKq8V7mJtY0cLr4N5sPzUeWdAfGhIkOl3:19700:0:99999:7:::\n");

        assertThatThrownBy(() -> PauseLog.read(f, "shadow")).isInstanceOfSatisfying(PauseLogException.class, e -> {
            assertThat(e.getMessage()).as("32 characters at most, marked as cut")
                    .startsWith("shadow:1: 'root:$6$Q9yXb1xT$2bKq8V7mJtY0cLr…' is not a line of any accepted format")
                    .doesNotContain("19700");
        });
    }

    @Test
    void controlCharactersOfAQuotedLineAreEscaped() throws IOException {
        Path f = file("environ", "PATH=/bin\u0000HOME=/root\u0000\n");

        assertThatThrownBy(() -> PauseLog.read(f, "environ")).isInstanceOfSatisfying(PauseLogException.class,
                e -> assertThat(e.getMessage()).as("a NUL is shown as \\u0000, never printed")
                        .startsWith("environ:1: 'PATH=/bin\\u0000HOME=/root\\u0000' is not a line"));
    }
}

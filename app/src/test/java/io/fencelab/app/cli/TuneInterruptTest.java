package io.fencelab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.report.SweepDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code fencelab tune}: the sweep stops, and the command says how many runs it kept where,
 * and the command that resumes (it used to exit without a word, its last line cut off by the JVM
 * halting as soon as the shutdown hook was done).
 */
class TuneInterruptTest {

    @Test
    void theStoppedLineSaysWhatWasKeptAndRepeatsTheCommandAsAShellReadsIt() {
        String line = TuneCommand.stoppedLine(12, 40, Path.of("out/k8s"), List.of("tune", "k8s-leader-gc",
                "--vary", "lease.leaseDuration=4s..30s:6", "--require", "failoverP99Seconds<=20", "--out", "out/k8s",
                "--jdbc-url", "jdbc:postgresql://fl:s3cretPW@db.example/lab"));

        assertThat(line).as("kept runs, the folder, and the same arguments, quoted where a shell needs it")
                .isEqualTo("stopped: 12 of 40 runs kept in out/k8s; resume with: fencelab tune k8s-leader-gc "
                        + "--vary lease.leaseDuration=4s..30s:6 --require 'failoverP99Seconds<=20' --out out/k8s "
                        + "--jdbc-url 'jdbc:postgresql://fl:***@db.example/lab'");
        assertThat(line).as("a password in the command is never printed").doesNotContain("s3cretPW");
    }

    @Test
    void ctrlCOnTuneSaysHowManyRunsWereKeptAndTheCommandThatResumes(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("sweep");
        List<String> args = List.of("tune", "paused-holder", "--vary", "lease.ttl=10s..40s:4", "--seeds", "30",
                "--jobs", "1", "--backend", "postgres", "--out", out.toString(), "--data-dir",
                dir.resolve("pgdata").toString());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")), FencelabCommand.class.getName()));
        command.addAll(args);
        Path stdout = dir.resolve("stdout.txt");
        Process tune = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
            while (rows(out) < 2 && tune.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(tune.isAlive()).as("the sweep is still running after two runs (" + Files.readString(
                    dir.resolve("stderr.txt")) + ")").isTrue();
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(tune.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(tune.waitFor(120, TimeUnit.SECONDS)).as("the sweep ends after Ctrl-C").isTrue();
        } finally {
            tune.destroyForcibly();
        }

        long kept = rows(out);
        assertThat(tune.exitValue()).as("stopped: 130").isEqualTo(TuneCommand.STOPPED);
        assertThat(kept).as("some runs kept, not all").isBetween(2L, 119L);
        assertThat(Files.readAllLines(stdout)).as("a line says what was kept and how to resume")
                .contains("stopped: " + kept + " of 120 runs kept in " + out + "; resume with: fencelab "
                        + String.join(" ", args));
    }

    /** Rows in the sweep's results file so far (0 before it exists). */
    private static long rows(Path out) throws Exception {
        Path csv = out.resolve(SweepDirectory.CSV);
        if (!Files.isRegularFile(csv)) {
            return 0;
        }
        try (var lines = Files.lines(csv)) {
            return Math.max(0, lines.filter(l -> !l.isBlank()).count() - 1);
        }
    }
}

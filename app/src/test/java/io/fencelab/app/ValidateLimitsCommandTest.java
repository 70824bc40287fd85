package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fencelab validate} refuses, in one located line and exit code 2, the scenarios that used to
 * pass it and then exhaust memory or fail every write at run time (issue 18, items 5, 7 and 8).
 */
class ValidateLimitsCommandTest {

    private static Path scenario(Path dir, String duration, String workerExtra, String key, String faults)
            throws Exception {
        return Files.writeString(dir.resolve("s.yaml"), """
                title: t
                summary: s
                story: [one]
                duration: %s
                lease: {ttl: 5s}
                workers:
                  - {name: A, scope: s, %swrites: [{target: ROW, key: %s}]}
                %sexpect: {verdict: SAFE}
                """.formatted(duration, workerExtra, key, faults));
    }

    private static void assertRefusedInOneLine(Cli.Result r, String line) {
        assertThat(r.exit()).as("bad input, before anything runs: %s", r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).as("the problem's one line, no stack trace").contains(line)
                .noneMatch(l -> l.contains("Exception") || l.contains("Error") || l.startsWith("\tat "));
    }

    @Test
    void aFaultEveryMicrosecondIsRefused(@TempDir Path dir) throws Exception {
        Path file = scenario(dir, "10s", "", "k", "faults: [{kind: PAUSE, target: A, every: {fixed: 0.000001s}}]\n");

        Cli.Result r = Cli.run("validate", file.toString());

        assertRefusedInOneLine(r, file + ":8:42: faults[0].every: the gaps average 0.000001s, below the smallest a "
                + "repeating fault may have, 1ms on average (for one occurrence write at: instead)");
    }

    @Test
    void fiftyWorkersFaultedEveryMillisecondForTenMinutesAreRefusedWithTheEstimate(@TempDir Path dir)
            throws Exception {
        Path file = scenario(dir, "10m", "count: 50, ", "k", "faults: [{kind: REQUEST_DELAY, target: all, "
                + "amount: 1ms, every: {exponential: 1ms}}]\n");

        Cli.Result r = Cli.run("validate", file.toString());

        assertThat(r.exit()).as("refused before it runs: %s", r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).as("the estimate and the limit").contains(file + ":8:")
                .contains("faults[0].every: the run would log about").contains("at most 1,000,000 are allowed");
    }

    @Test
    void anEmpiricalDeviceIsRefusedWithoutBeingRead(@TempDir Path dir) throws Exception {
        Path file = scenario(dir, "10s", "", "k", "faults: [{kind: PAUSE, target: A, at: 1s, "
                + "duration: {empirical: /dev/zero}}]\n");

        Cli.Result r = Cli.run("validate", file.toString());

        assertRefusedInOneLine(r, file + ":8:65: faults[0].duration.empirical: /dev/zero: is a character device, "
                + "not a regular file; a pause file is a regular file");
    }

    @Test
    void anEmpiricalFileOfProcShowsNothingOfIt(@TempDir Path dir) throws Exception {
        Path file = scenario(dir, "10s", "", "k", "faults: [{kind: PAUSE, target: A, at: 1s, "
                + "duration: {empirical: /proc/self/environ}}]\n");

        Cli.Result r = Cli.run("validate", file.toString());

        assertRefusedInOneLine(r, file + ":8:65: faults[0].duration.empirical: /proc/self/environ: is a file of the "
                + "kernel's proc file system (as under /proc and /sys), not a pause file");
        assertThat(r.err()).as("no environment variable").doesNotContain("PATH=").doesNotContain("HOME=");
    }

    @Test
    void aNulInAKeyIsRefused(@TempDir Path dir) throws Exception {
        Path file = scenario(dir, "10s", "", "\"k\\0\"", "");

        Cli.Result r = Cli.run("validate", file.toString());

        assertRefusedInOneLine(r, file + ":7:53: workers[0].writes[0].key: 'k\\u0000' holds the control character "
                + "U+0000 (NULL); a name is printable text on one line");
    }
}

package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk full, for real: the fenced table and its audit live on a small file system of
 * their own (a tmpfs tablespace), which fills up mid-run, so PostgreSQL's next write to them fails
 * with its own {@code could not extend file …: No space left on device} (53100). Mounting needs root
 * (as in CI); elsewhere the test is skipped, and {@code BrokenDatabaseTest} covers 53100 raised by the
 * server.
 */
class DiskFullTest {

    @Test
    void aDiskThatFillsMidRunEndsTheRunFailedNoSpaceLeft(@TempDir Path dir) throws Exception {
        Path mount = Files.createDirectories(dir.resolve("small"));
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.toString()),
                "mounting a tmpfs needs root");
        RunResult result;
        try {
            Path space = Files.createDirectories(mount.resolve("pg"));
            try (Database own = EmbeddedDatabase.startThrowaway(8)) {
                own.jdbi().useHandle(h -> {
                    h.execute("CREATE TABLESPACE small LOCATION '" + space + "'");
                    h.execute("ALTER TABLE fenced_row SET TABLESPACE small");
                    h.execute("ALTER TABLE fence_audit SET TABLESPACE small");
                });
                RunSpec spec = FaultMatrixTest.spec(Failpoint.WRITE_BEFORE);
                try (Run run = Run.prepare(own, spec, dir.resolve("events.jsonl"))) {
                    run.armFailpoint(Failpoint.WRITE_BEFORE, "A", new FailpointAction.BreakDatabase(
                            () -> fill(mount.resolve("filler"))));
                    result = run.runToEnd();
                }
            }
        } finally {
            run("umount", mount.toString());
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).as("PostgreSQL's own words for a full disk")
                .startsWith("failed: could not extend file").endsWith("No space left on device");
        assertThat(events).as("what happened before is kept")
                .anyMatch(e -> e instanceof Event.LeaseAcquired g && g.holder().equals("A"));
        assertThat(events).filteredOn(e -> e instanceof Event.OperationFailed).isEmpty();
    }

    /** Writes {@code file} until the file system has no space left. */
    private static void fill(Path file) {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // no space left: that is the point
        }
    }

    private static boolean run(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}

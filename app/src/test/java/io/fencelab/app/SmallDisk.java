package io.fencelab.app;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A tmpfs of a few kilobytes, mounted for one test to fill a disk for real (a thrown exception
 * would not show what the JDK and the kernel do). Mounting needs root, as CI runs; elsewhere the
 * test is skipped with the reason.
 */
final class SmallDisk implements AutoCloseable {

    private final Path mountPoint;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    static SmallDisk mount(Path at, int kilobytes) throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")),
                "filling a disk for real mounts a small tmpfs, which needs root (CI runs as root)");
        Files.createDirectories(at);
        String failure = command(List.of("mount", "-t", "tmpfs", "-o", "size=" + kilobytes + "k", "tmpfs", at.toString()));
        assumeTrue(failure == null, "mount -t tmpfs failed (a container without CAP_SYS_ADMIN?): " + failure);
        return new SmallDisk(at);
    }

    Path path() {
        return mountPoint;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        String failure = command(List.of("umount", mountPoint.toString()));
        if (failure != null) {
            throw new IOException("cannot unmount the test's tmpfs " + mountPoint + ": " + failure);
        }
    }

    /** Runs a command; null when it succeeded, else what it printed. */
    private static String command(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return p.waitFor() == 0 ? null : "exit " + p.exitValue() + ": " + output;
    }
}

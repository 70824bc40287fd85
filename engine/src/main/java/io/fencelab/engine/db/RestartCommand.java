package io.fencelab.engine.db;

import io.fencelab.engine.clock.Ticker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How Fencelab restarts an external PostgreSQL for a {@code DATABASE_RESTART} fault: a program and
 * its arguments, run directly (no shell), that restarts the server and returns; then Fencelab waits
 * until the server answers again. The command does the whole restart, so the server is down for as
 * long as the command takes, not for the fault's duration (see {@code docs/SCENARIOS.md}).
 *
 * <p>Its output goes to a temporary file, deleted afterwards, and is never logged: a restart script
 * may print connection strings. Only the program's file name, its exit status and, on failure, its
 * last line of output are told.
 *
 * @param argv        the program and its arguments
 * @param timeout     how long the command may run before it is killed and the restart fails
 * @param answerWithin how long the server may take to answer a fresh connection after the command
 */
public record RestartCommand(List<String> argv, Duration timeout, Duration answerWithin) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);
    public static final Duration DEFAULT_ANSWER_WITHIN = Duration.ofMinutes(1);

    public RestartCommand {
        argv = List.copyOf(argv);
        if (argv.isEmpty() || argv.getFirst().isBlank()) {
            throw new IllegalArgumentException("the database restart command is empty; give a program and its arguments");
        }
    }

    /** {@code line} split at spaces: no shell and no quoting, so an argument with a space needs a script. */
    public static RestartCommand parse(String line) {
        return new RestartCommand(List.of(line.strip().split("\\s+")), DEFAULT_TIMEOUT, DEFAULT_ANSWER_WITHIN);
    }

    /** The program's file name: what messages name (its arguments may hold secrets). */
    public String program() {
        Path p = Path.of(argv.getFirst());
        return p.getFileName() == null ? argv.getFirst() : p.getFileName().toString();
    }

    /**
     * Runs the command, then waits until {@code answers} says the server answers again.
     *
     * @throws DatabaseException if the command cannot start, fails, outlasts its timeout, or the
     *                           server does not answer in time
     */
    void restart(BooleanSupplier answers, Ticker ticker) {
        // Output to a file, not a pipe: a server the command starts may keep the command's output open.
        Path output;
        try {
            output = Files.createTempFile("fencelab-db-restart", ".out");
        } catch (IOException e) {
            throw failed("could not run the database restart command " + program() + ": " + e.getMessage(), "", e);
        }
        try {
            run(output);
        } finally {
            try {
                Files.deleteIfExists(output);
            } catch (IOException ignored) {
                // a temporary file left behind
            }
        }
        long deadline = ticker.nanos() + answerWithin.toNanos();
        while (!answers.getAsBoolean()) {
            if (ticker.nanos() - deadline >= 0) {
                throw failed("the database did not answer within " + answerWithin.toSeconds()
                        + " s after the restart command " + program() + " finished", "", null);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failed("interrupted while waiting for the database after a restart", "", e);
            }
        }
    }

    private void run(Path output) {
        Process process;
        try {
            process = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of(NULL_DEVICE).toFile()))
                    .redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            throw failed("could not start the database restart command " + program() + ": "
                    + e.getMessage(), "", e);
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw failed("the database restart command " + program() + " did not finish within "
                        + timeout.toSeconds() + " s; it was stopped", "", null);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw failed("interrupted while the database restart command " + program() + " ran", "", e);
        }
        if (process.exitValue() != 0) {
            throw failed("the database restart command " + program() + " failed with exit status " + process.exitValue(),
                    lastLine(output).map(l -> ": " + l).orElse(""), null);
        }
    }

    /**
     * A failed restart; {@code output} is the command's last line, if any (what the operator needs to
     * see first). A run records it scrubbed of anything naming the server or its users.
     */
    private static DatabaseException failed(String what, String output, Throwable cause) {
        return new DatabaseException(DatabaseFailure.RESTART_FAILED, what + output, what + output, cause);
    }

    private static final String NULL_DEVICE = System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null";

    /** The last non-blank line of the command's output (at most its last 4 KiB are read). */
    private static Optional<String> lastLine(Path output) {
        try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(output)) {
            long size = ch.size();
            ch.position(Math.max(0, size - 4096));
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate((int) Math.min(size, 4096));
            while (buffer.hasRemaining() && ch.read(buffer) > 0) {
                // read on
            }
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
            return text.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> b);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}

package io.fencelab.bench;

import io.fencelab.engine.db.Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Drives a SQL script with PostgreSQL's own pgbench (prepared statements, one thread per client). */
final class Pgbench {

    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+)");

    private final String executable;
    private final Database db;

    Pgbench(String executable, Database db) {
        this.executable = executable;
        this.db = db;
    }

    /** Transactions per second over the measured window, or empty if pgbench is not available. */
    OptionalDouble tps(String script, int clients, Duration warmup, Duration measure) throws IOException {
        Path file = Files.createTempFile("fencelab-bench", ".sql");
        try {
            Files.writeString(file, script, StandardCharsets.UTF_8);
            if (!warmup.isZero() && run(file, clients, warmup).isEmpty()) {
                return OptionalDouble.empty();
            }
            return run(file, clients, measure);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private OptionalDouble run(Path script, int clients, Duration duration) throws IOException {
        List<String> command = new ArrayList<>(List.of(executable, "-n", "-M", "prepared",
                "-c", Integer.toString(clients), "-j", Integer.toString(clients),
                "-T", Long.toString(Math.max(1, duration.toSeconds())), "-f", script.toString(),
                db.jdbcUrlWithoutSecret().replaceFirst("^jdbc:", "")));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        // From the environment, not the command line: other accounts can read a process's arguments.
        db.password().ifPresent(p -> pb.environment().put("PGPASSWORD", p));
        db.user().ifPresent(u -> pb.environment().put("PGUSER", u));
        Process process;
        try {
            process = pb.start();
        } catch (IOException notInstalled) {
            return OptionalDouble.empty();
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException("pgbench failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        Matcher m = TPS.matcher(output);
        return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1))) : OptionalDouble.empty();
    }
}

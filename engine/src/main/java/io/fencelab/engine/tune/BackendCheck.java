package io.fencelab.engine.tune;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A sweep that ran on the in-memory backend runs one of its settings again on PostgreSQL and
 * compares the two event logs byte for byte: the licence the test suite proves in general
 * ({@code BackendEquivalenceProperties}), checked once more on the sweep's own scenario.
 *
 * @param point     the setting re-run (the recommended one, else the first done)
 * @param seed      the seed re-run
 * @param bytes     the PostgreSQL log's length
 * @param mismatch  the first differing byte of the two logs, or -1 when they are identical
 */
public record BackendCheck(Point point, long seed, long bytes, long mismatch) {

    public boolean identical() {
        return mismatch < 0;
    }

    /** Runs {@code spec} with {@code seed} on both backends into {@code workDir} and compares the logs. */
    public static BackendCheck run(Database db, Point point, RunSpec spec, long seed, Path workDir)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path postgres = workDir.resolve("check-postgres.jsonl");
        Path memory = workDir.resolve("check-memory.jsonl");
        RunSpec seeded = spec.withSeed(seed);
        try (Run run = Run.prepare(db, seeded, postgres, Backend.POSTGRES)) {
            run.runToEnd();
        }
        try (Run run = Run.prepare(db, seeded, memory, Backend.MEMORY)) {
            run.runToEnd();
        }
        BackendCheck check = new BackendCheck(point, seed, Files.size(postgres), Files.mismatch(postgres, memory));
        Files.deleteIfExists(postgres);
        Files.deleteIfExists(memory);
        return check;
    }
}

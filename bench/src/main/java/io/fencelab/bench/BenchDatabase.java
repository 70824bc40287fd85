package io.fencelab.bench;

import io.fencelab.app.cli.DatabaseOptions;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * The database a benchmark measures: the one the options name, or, by default, a throwaway embedded
 * server so benchmark rows never land in the user's history. Closing it deletes the throwaway.
 */
final class BenchDatabase implements AutoCloseable {

    private final Database db;
    private final Path scratch;

    private BenchDatabase(Database db, Path scratch) {
        this.db = db;
        this.scratch = scratch;
    }

    static BenchDatabase open(DatabaseOptions options) throws IOException {
        DatabaseConfig config = options.resolve();
        Path scratch = null;
        if (config.isEmbedded() && options.dataDirUnset()) {
            scratch = Files.createTempDirectory("fencelab-bench");
            config = DatabaseConfig.embedded(scratch);
        }
        return new BenchDatabase(Database.open(config, 64), scratch);
    }

    Database db() {
        return db;
    }

    @Override
    public void close() {
        db.close();
        if (scratch != null) {
            try (var paths = Files.walk(scratch)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

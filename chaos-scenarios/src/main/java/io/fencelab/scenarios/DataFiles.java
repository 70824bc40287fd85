package io.fencelab.scenarios;

import io.fencelab.engine.chaos.pauses.PauseLog;
import io.fencelab.engine.chaos.pauses.PauseLogException;
import io.fencelab.engine.chaos.pauses.PauseSample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the data files a scenario names ({@code duration: {empirical: data/g1.log}}) are found: beside
 * the scenario file for a file on disk, under the catalog's directory for a shipped scenario. A file
 * read once is kept (keyed by its place, size and modification time), as sweeps compile the same
 * scenario many times.
 */
sealed interface DataFiles {

    /**
     * The pauses in the file {@code written} (as the scenario writes it).
     *
     * @throws PauseLogException if it is missing or not a pause file, naming it as written
     */
    PauseSample pauses(String written);

    /** Paths relative to {@code dir}, the scenario file's directory. */
    record Directory(Path dir) implements DataFiles {
        private static final Map<String, PauseSample> READ = new ConcurrentHashMap<>();

        @Override
        public PauseSample pauses(String written) {
            Path file = dir.resolve(written).toAbsolutePath().normalize();
            if (!Files.exists(file)) {
                throw new PauseLogException(written, 0, "no such file (looked for " + file + ")");
            }
            String key;
            try {
                key = file + "|" + written + "|" + Files.size(file) + "|" + Files.getLastModifiedTime(file).toMillis();
            } catch (IOException e) {
                return PauseLog.read(file, written);
            }
            PauseSample known = READ.get(key);
            if (known != null) {
                return known;
            }
            PauseSample read = PauseLog.read(file, written);
            READ.put(key, read);
            return read;
        }
    }

    /** Paths relative to {@code resourceDir} on the class path ({@code io/fencelab/scenarios/catalog/}). */
    record ClassPath(String resourceDir) implements DataFiles {
        private static final Map<String, PauseSample> READ = new ConcurrentHashMap<>();

        @Override
        public PauseSample pauses(String written) {
            String resource = Path.of(resourceDir).resolve(written).normalize().toString().replace('\\', '/');
            return READ.computeIfAbsent(resource + "|" + written, k -> {
                try (InputStream in = DataFiles.class.getClassLoader().getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new PauseLogException(written, 0, "no such file beside the scenario (looked for the "
                                + "resource " + resource + ")");
                    }
                    byte[] content = in.readNBytes(PauseLog.MAX_BYTES + 1);
                    if (content.length > PauseLog.MAX_BYTES) {
                        throw new PauseLogException(written, 0, "is larger than the " + (PauseLog.MAX_BYTES >> 20)
                                + " MiB a pause file may be");
                    }
                    return PauseLog.read(written, content);
                } catch (IOException e) {
                    throw new PauseLogException(written, 0, "cannot read the resource " + resource);
                }
            });
        }
    }
}

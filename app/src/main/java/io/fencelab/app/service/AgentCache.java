package io.fencelab.app.service;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AOT cache agents start from (JDK 25, JEP 483/514): the classes an agent loads and links, mapped
 * at its start instead of read and linked again, which is most of a small JVM's start on a busy
 * machine. It is made once per program (keyed by the runtime and the class path's jars, their sizes
 * and times) by one training run, {@code fencelab agent --train}, in the user's cache directory
 * ({@code $XDG_CACHE_HOME/fencelab/agents}, else {@code ~/.cache/fencelab/agents}), a directory only the
 * user can use (0700): a cache is code the agents map, so one another account could write is never used.
 * Whenever it cannot be made (an older JDK, a class path with directories, as in the build's tests, a
 * failed training) agents start without it, only slower.
 */
final class AgentCache {

    private static final Logger log = LoggerFactory.getLogger(AgentCache.class);
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");
    /** Long enough for a training run on a busy two-core machine; past it the agents start without. */
    private static final long TRAINING_LIMIT_SECONDS = 120;

    private final Path dir;
    private final String key;
    /** Null until the first agent asks; then the cache, or empty for this JVM's life. */
    private Optional<Path> decided;

    AgentCache(Path dir, String key) {
        this.dir = dir;
        this.key = key;
    }

    /** The cache for this program's class path under the user's cache directory (none if it cannot have one). */
    static AgentCache forUser() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return new AgentCache(base.resolve("fencelab").resolve("agents"), key(System.getProperty("java.class.path")));
    }

    private static AgentCache forUser;

    /** The one {@link #forUser()} of this JVM: every agent it starts asks it, and it decides once. */
    static synchronized AgentCache forUserOnce() {
        if (forUser == null) {
            forUser = forUser();
        }
        return forUser;
    }

    /** An agent cache that is never used. */
    static AgentCache none() {
        return new AgentCache(null, null);
    }

    /**
     * The cache file, made first (by {@code training}, given the file to write) if it is not there yet;
     * empty if there is none and none can be made now.
     */
    synchronized Optional<Path> ready(Function<Path, List<String>> training) {
        if (decided == null) {
            decided = find(training);
        }
        return decided;
    }

    private Optional<Path> find(Function<Path, List<String>> training) {
        if (dir == null || key == null || Runtime.version().feature() < 25) {
            return Optional.empty();
        }
        try {
            if (!privateDirectory()) {
                log.warn("agents start without an AOT cache: {} is not a directory only this account can use", dir);
                return Optional.empty();
            }
            Path cache = dir.resolve(key + ".aot");
            Path failed = dir.resolve(key + ".failed");
            if (Files.isRegularFile(cache, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(cache);
            }
            if (Files.exists(failed)) {
                return Optional.empty();
            }
            return train(training, cache, failed);
        } catch (IOException e) {
            log.warn("agents start without an AOT cache: {}", e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** One process trains at a time; another that finds the lock taken starts its agents without a cache. */
    private Optional<Path> train(Function<Path, List<String>> training, Path cache, Path failed)
            throws IOException, InterruptedException {
        try (FileChannel lockFile = FileChannel.open(dir.resolve(key + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
             FileLock lock = lockFile.tryLock()) {
            if (lock == null) {
                return Optional.empty();
            }
            if (Files.isRegularFile(cache, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(cache);
            }
            Path partial = dir.resolve(key + ".aot.partial");
            Files.deleteIfExists(partial);
            Path output = dir.resolve(key + ".training.log");
            long started = System.nanoTime();
            Process p = new ProcessBuilder(training.apply(partial)).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE).start();
            boolean ended = p.waitFor(TRAINING_LIMIT_SECONDS, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            if (!ended || p.exitValue() != 0 || !Files.isRegularFile(partial)) {
                String why = !ended ? "no cache within " + TRAINING_LIMIT_SECONDS + " s" : "exit " + p.exitValue();
                Files.writeString(failed, why + "; see " + output.getFileName() + "\n", StandardCharsets.UTF_8);
                log.warn("agents start without an AOT cache: its training run failed ({}; log {})", why, output);
                return Optional.empty();
            }
            Files.move(partial, cache, StandardCopyOption.ATOMIC_MOVE);
            log.info("agent AOT cache made in {} ms: {}", (System.nanoTime() - started) / 1_000_000, cache);
            return Optional.of(cache);
        }
    }

    /** Creates the directory 0700 if it is missing; true if it is this account's and no one else's. */
    private boolean privateDirectory() throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir.getParent());
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // Another Fencelab made it at the same moment: checked below like any other.
            }
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        String me = System.getProperty("user.name");
        return Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName().equals(me)
                && Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(PRIVATE);
    }

    /**
     * The cache's name for this runtime and class path; null if the class path has a directory (an AOT
     * cache is made only from jars) or a jar cannot be read. A rebuilt jar changes its size or time, so a
     * cache of an older build is never offered to the JVM.
     */
    static String key(String classPath) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update((Runtime.version() + "\0" + System.getProperty("java.home") + "\0").getBytes(StandardCharsets.UTF_8));
            for (String entry : classPath.split(File.pathSeparator)) {
                Path p = Path.of(entry);
                if (entry.isEmpty() || !Files.isRegularFile(p) || refersFurther(p)) {
                    return null;
                }
                sha.update((p.toAbsolutePath() + "\0" + Files.size(p) + "\0" + Files.getLastModifiedTime(p).toMillis()
                        + "\0").getBytes(StandardCharsets.UTF_8));
            }
            return "agent-" + HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (IOException | NoSuchAlgorithmException e) {
            return null;
        }
    }

    /** A jar whose manifest names more of the class path (a test runner's): what it names is not keyed. */
    private static boolean refersFurther(Path jar) throws IOException {
        try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar.toFile())) {
            java.util.jar.Manifest m = j.getManifest();
            return m != null && m.getMainAttributes().getValue("Class-Path") != null;
        }
    }
}

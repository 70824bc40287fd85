package io.fencelab.report;

import io.fencelab.engine.files.FileProblem;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A directory of artifacts written whole or not at all (docs/RELIABILITY.md, "Reports are whole or
 * absent"). Everything is written into a staging directory beside the destination,
 * {@code .fencelab-partial-<name>}, and {@link #commit()} moves it in at the end. The destination's
 * earlier artifacts of the same names are removed first, so it never holds one set's files beside
 * another's; files of other names in it are left alone.
 *
 * <p>The artifacts are listed in the order they move in: the ones that make a directory look complete
 * (the report page) last, and they are removed first, so a process killed while committing leaves a
 * directory that does not look complete. A staging directory left by a killed process keeps what was
 * written (an event log there can be checked) until the next write to the same destination, which
 * empties and reuses it; a lock in it keeps two processes from staging into the same place at once.
 */
public final class StagedDirectory implements AutoCloseable {

    /** How a staging directory's name begins. */
    public static final String PREFIX = ".fencelab-partial-";
    private static final String LOCK = ".lock";

    private final Path dir;
    private final Path staging;
    private final List<String> artifacts;
    private final FileChannel lockChannel;
    private boolean committed;

    private StagedDirectory(Path dir, Path staging, List<String> artifacts, FileChannel lockChannel) {
        this.dir = dir;
        this.staging = staging;
        this.artifacts = List.copyOf(artifacts);
        this.lockChannel = lockChannel;
    }

    /**
     * Prepares to write {@code artifacts} (file names, in the order they move in) into {@code dir}:
     * creates (or empties) its staging directory and locks it. {@code dir} itself is created only by
     * {@link #commit()}.
     *
     * @throws NotDirectoryException if {@code dir} exists and is not a directory
     * @throws FileSystemException   if another process is staging into the same place
     * @throws IOException           if the staging directory cannot be made
     */
    public static StagedDirectory open(Path dir, List<String> artifacts) throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new NotDirectoryException(dir.toString());
        }
        Path absolute = dir.toAbsolutePath().normalize();
        if (absolute.getParent() == null) {
            throw new FileSystemException(dir.toString(), null, "Is the root directory; give a directory below it");
        }
        Path staging = absolute.resolveSibling(PREFIX + absolute.getFileName());
        FileChannel channel;
        try {
            Files.createDirectories(staging);
            channel = FileChannel.open(staging.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            // Said of the destination the user gave, with the staging path and its problem as the reason.
            throw new FileSystemException(dir.toString(), null, "Cannot write beside it (" + FileProblem.of(e) + ")");
        }
        boolean locked = false;
        try {
            locked = lockedBy(channel);
            if (!locked) {
                throw new FileSystemException(dir.toString(), null, "Another Fencelab process is writing here now "
                        + "(its files so far are in " + staging + "); wait for it, or give another directory");
            }
            emptyExceptLock(staging);
        } finally {
            if (!locked) {
                channel.close();
            }
        }
        return new StagedDirectory(dir, staging, artifacts, channel);
    }

    private static boolean lockedBy(FileChannel channel) throws IOException {
        try {
            FileLock lock = channel.tryLock();
            return lock != null;
        } catch (OverlappingFileLockException heldInThisProcess) {
            return false;
        }
    }

    /** The destination. */
    public Path dir() {
        return dir;
    }

    /** Where the artifacts are written until {@link #commit()}. */
    public Path staging() {
        return staging;
    }

    /** Where artifact {@code name} is written until {@link #commit()}. */
    public Path staged(String name) {
        return staging.resolve(name);
    }

    /**
     * Moves the staged artifacts into the destination (created if needed), replacing every artifact of
     * the same names there (also the ones this set does not have), and removes the staging directory.
     */
    public void commit() throws IOException {
        if (committed) {
            throw new IllegalStateException("already committed: " + dir);
        }
        Files.createDirectories(dir);
        for (String name : artifacts.reversed()) {
            Files.deleteIfExists(dir.resolve(name));
        }
        for (String name : artifacts) {
            Path from = staging.resolve(name);
            if (Files.exists(from)) {
                move(from, dir.resolve(name));
            }
        }
        committed = true;
        close();
    }

    /** Files others may read (0644), directories they may list (0755): what we write is for sharing. */
    private static final Set<PosixFilePermission> SHARED_FILE = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> SHARED_DIR = PosixFilePermissions.fromString("rwxr-xr-x");

    /**
     * Renames {@code from} over {@code to} in one step (on Linux a rename replaces the target
     * atomically), readable by others first: a report or handout is written to be opened by a
     * browser, a web server or a colleague, and a file recorded through a private temporary file
     * (0600) or under a strict umask would otherwise arrive unreadable to them.
     */
    private static void move(Path from, Path to) throws IOException {
        shareable(from);
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException otherFileSystem) {
            // The destination is a mount point of its own: copied, then removed.
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void shareable(Path path) throws IOException {
        if (!path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        if (Files.isDirectory(path)) {
            Files.setPosixFilePermissions(path, SHARED_DIR);
            try (Stream<Path> inside = Files.list(path)) {
                for (Path p : (Iterable<Path>) inside::iterator) {
                    shareable(p);
                }
            }
        } else {
            Files.setPosixFilePermissions(path, SHARED_FILE);
        }
    }

    /**
     * Writes one file whole: into {@code .fencelab-partial-<name>} beside it, then moved over it, so a
     * reader (or a process killed meanwhile) sees the old file or the new one, never a part.
     */
    public static void writeFile(Path file, String text) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path partial = absolute.resolveSibling(PREFIX + absolute.getFileName());
        try {
            Files.writeString(partial, text, StandardCharsets.UTF_8);
            move(partial, absolute);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** After a failure: removes every staged artifact, leaving nothing that looks like a result. */
    public void discard() throws IOException {
        discardAllBut(null);
    }

    /**
     * After a failure: removes every staged artifact but {@code keep} (the run's events so far), so
     * nothing partial is left that looks like a report. Returns where {@code keep} is, if it is there.
     */
    public Optional<Path> discardAllBut(String keep) throws IOException {
        for (String name : artifacts) {
            if (!name.equals(keep)) {
                Files.deleteIfExists(staging.resolve(name));
            }
        }
        Path kept = keep == null ? null : staging.resolve(keep);
        return kept != null && Files.exists(kept) ? Optional.of(kept) : Optional.empty();
    }

    /**
     * Releases the lock. Uncommitted, the staging directory stays with what was written (it is removed
     * if nothing was); committed, it is removed.
     */
    @Override
    public void close() throws IOException {
        if (!lockChannel.isOpen()) {
            return;
        }
        try (lockChannel) {
            Files.deleteIfExists(staging.resolve(LOCK));
        }
        if (committed) {
            deleteTree(staging);
        } else {
            try (Stream<Path> left = Files.list(staging)) {
                if (left.findAny().isEmpty()) {
                    Files.deleteIfExists(staging);
                }
            }
        }
    }

    private static void emptyExceptLock(Path staging) throws IOException {
        try (Stream<Path> entries = Files.list(staging)) {
            for (Path p : entries.filter(p -> !p.getFileName().toString().equals(LOCK)).toList()) {
                deleteTree(p);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

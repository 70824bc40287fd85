package io.fencelab.engine.db;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Files and directories that only this account may read: created with their final permissions in
 * the same call, so there is no moment in which another user could open them.
 */
final class PrivateFiles {

    static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

    private PrivateFiles() {
    }

    /** Creates {@code dir} and any missing parents as 0700; directories that exist keep their mode. */
    static void createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        if (absolute.getParent() != null) {
            createDirectories(absolute.getParent());
        }
        try {
            Files.createDirectory(absolute, dirAttribute());
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
    }

    /** Writes a new 0600 file; fails if it exists. */
    static void writeNew(Path file, String content) throws IOException {
        Files.createFile(file, fileAttribute());
        Files.writeString(file, content);
    }

    /**
     * Renames a finished {@code staging} directory to {@code target} in one step. If another process
     * put its own there first (its {@code marker} file present), theirs is kept and ours is left for
     * the caller to delete.
     */
    static void moveIntoPlace(Path staging, Path target, String marker) throws IOException {
        try {
            Files.move(staging, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException
                 | java.nio.file.AtomicMoveNotSupportedException e) {
            if (!Files.isRegularFile(target.resolve(marker))) {
                throw e;
            }
        }
    }

    static FileAttribute<?>[] fileAttribute() {
        return posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE)}
                : new FileAttribute<?>[0];
    }

    static FileAttribute<?> dirAttribute() {
        return PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR);
    }

    static boolean posix() {
        return java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a staging directory left behind is harmless and private
                }
            });
        } catch (IOException ignored) {
            // as above
        }
    }
}

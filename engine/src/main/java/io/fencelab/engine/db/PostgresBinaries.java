package io.fencelab.engine.db;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.utils.IOUtils;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL programs ({@code initdb}, {@code pg_ctl}, {@code postgres}) from zonky's binaries
 * jar, unpacked into a directory only this account can write.
 *
 * <p>zonky unpacks them into {@code /tmp/embedded-pg}, a path any local user can create first and
 * fill with programs of their own, which Fencelab would then run. Here they go below
 * {@code ~/.fencelab/postgres} (mode 0700), one directory per archive digest, unpacked into a
 * staging directory and renamed into place, so two processes unpacking at once never see half.
 */
final class PostgresBinaries {

    private static final Object UNPACK = new Object();
    private static volatile Path unpacked;

    private PostgresBinaries() {
    }

    /** The directory holding {@code bin/}, unpacked on first use in this JVM. */
    static Path home() {
        Path dir = unpacked;
        if (dir == null) {
            synchronized (UNPACK) {
                if (unpacked == null) {
                    unpacked = unpack(baseDirectory());
                }
                dir = unpacked;
            }
        }
        return dir;
    }

    static Path bin(String program) {
        return home().resolve("bin").resolve(program);
    }

    /** {@code $FENCELAB_PG_BINARIES}, else {@code ~/.fencelab/postgres}. */
    static Path baseDirectory() {
        return Optional.ofNullable(System.getenv("FENCELAB_PG_BINARIES")).filter(s -> !s.isBlank()).map(Path::of)
                .orElseGet(() -> Path.of(System.getProperty("user.home"), ".fencelab", "postgres"));
    }

    private static Path unpack(Path base) {
        try {
            PrivateFiles.createDirectories(base);
            Path target = base.resolve("PG-" + digest());
            if (Files.isRegularFile(target.resolve(".complete"))) {
                return target;
            }
            Path staging = Files.createTempDirectory(base, ".unpacking-");
            try {
                try (InputStream in = archive()) {
                    extract(in, staging);
                }
                Files.createFile(staging.resolve(".complete"));
                PrivateFiles.moveIntoPlace(staging, target, ".complete");
            } finally {
                PrivateFiles.deleteTree(staging);
            }
            return target;
        } catch (IOException e) {
            throw new DatabaseException("could not unpack the embedded PostgreSQL into " + base + ": "
                    + io.fencelab.engine.files.FileProblem.of(e), e);
        }
    }

    private static InputStream archive() throws IOException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String system = os.contains("win") ? "Windows" : os.contains("mac") ? "Darwin" : "Linux";
        String arch = System.getProperty("os.arch");
        String machine = "amd64".equals(arch) ? "x86_64" : arch;
        InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machine);
        if (in == null) {
            throw new IOException("no embedded PostgreSQL for " + system + " " + machine + " on the class path");
        }
        return in;
    }

    private static String digest() throws IOException {
        try (DigestInputStream in = new DigestInputStream(archive(), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(in.getMessageDigest().digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void extract(InputStream archive, Path into) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(archive))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path file = into.resolve(entry.getName()).normalize();
                if (!file.startsWith(into)) {
                    throw new IOException("archive entry outside its directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else if (entry.isLink()) {
                    Files.createDirectories(file.getParent());
                    Files.createLink(file, into.resolve(entry.getLinkName()).normalize());
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(file.getParent());
                    Files.createSymbolicLink(file, Path.of(entry.getLinkName()));
                } else if (entry.isFile()) {
                    Files.createDirectories(file.getParent());
                    try (var out = Files.newOutputStream(file)) {
                        IOUtils.copy(tar, out);
                    }
                    boolean executable = (entry.getMode() & 0100) != 0 || into.relativize(file).startsWith("bin");
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(executable ? "rwx------" : "rw-------"));
                } else {
                    throw new IOException("unsupported archive entry " + entry.getName());
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}

package io.fencelab.engine.chaos.pauses;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the pauses a real process had, from the file it logged them in, whatever its format: a JDK
 * unified GC or safepoint log, a JFR recording, or durations listed by hand or in a CSV file
 * ({@link PauseFormat#ACCEPTED}). The format is told from the content, not the file name. A file that
 * is none of these, or that mixes two sources of pauses, is refused with a {@link PauseLogException}
 * naming the line.
 */
public final class PauseLog {

    private PauseLog() {
    }

    /**
     * The largest data file read (64 MiB): a day of {@code -Xlog:gc} from a busy service is a few
     * megabytes, and a file cannot fill memory by mistake ({@code /dev/zero}, a log still growing).
     */
    public static final int MAX_BYTES = 64 << 20;

    /** The file systems whose files are the kernel's views of processes and devices, never data. */
    private static final Set<String> PSEUDO_FILE_SYSTEMS = Set.of("proc", "sysfs", "devtmpfs", "devpts", "debugfs",
            "tracefs", "securityfs", "cgroup", "cgroup2", "configfs", "efivarfs", "bpf", "pstore");

    /** Reads {@code file}; messages name it as given. */
    public static PauseSample read(Path file) {
        return read(file, file.toString());
    }

    /**
     * Reads {@code file}, which must be a regular file of at most {@link #MAX_BYTES}: a directory, a
     * device, a pipe, a socket or a file of {@code /proc} or {@code /sys} is refused by what it is,
     * before anything of it is read.
     *
     * @param label how messages and the sample name the file (a scenario names it as its author wrote it)
     */
    public static PauseSample read(Path file, String label) {
        byte[] bytes = readRegular(file, label);
        return isJfr(bytes) ? JfrRecording.read(label, file) : text(label, bytes);
    }

    private static byte[] readRegular(Path file, String label) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new PauseLogException(label, 0, "no such file");
        } catch (AccessDeniedException e) {
            throw new PauseLogException(label, 0, "permission denied");
        } catch (IOException e) {
            throw new PauseLogException(label, 0, "cannot be read");
        }
        if (attributes.isDirectory()) {
            throw new PauseLogException(label, 0, "is a directory, not a file");
        }
        if (!attributes.isRegularFile()) {
            throw new PauseLogException(label, 0, "is " + special(file) + ", not a regular file; a pause file is "
                    + "a regular file");
        }
        String fileSystem = fileSystem(file);
        if (PSEUDO_FILE_SYSTEMS.contains(fileSystem)) {
            throw new PauseLogException(label, 0, "is a file of the kernel's " + fileSystem + " file system (as "
                    + "under /proc and /sys), not a pause file");
        }
        if (attributes.size() > MAX_BYTES) {
            throw tooLarge(label, attributes.size());
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw tooLarge(label, -1); // it grew while it was read
            }
            return bytes;
        } catch (AccessDeniedException e) {
            throw new PauseLogException(label, 0, "permission denied");
        } catch (IOException e) {
            throw new PauseLogException(label, 0, "cannot be read");
        }
    }

    private static PauseLogException tooLarge(String label, long size) {
        return new PauseLogException(label, 0, (size < 0 ? "is" : "is " + String.format(Locale.ROOT, "%,d bytes", size)
                + ",") + " larger than the " + (MAX_BYTES >> 20) + " MiB a pause file may be; keep the part of the "
                + "log with the pauses you mean (for example with tail or grep)");
    }

    /** What a file that is not regular is, from its type bits; a platform without them gets a general word. */
    private static String special(Path file) {
        int mode;
        try {
            mode = (Integer) Files.getAttribute(file, "unix:mode");
        } catch (IOException | RuntimeException e) {
            return "a special file";
        }
        return switch (mode & 0170000) {
            case 0010000 -> "a named pipe (FIFO)";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0140000 -> "a socket";
            default -> "a special file";
        };
    }

    private static String fileSystem(Path file) {
        try {
            return Files.getFileStore(file).type();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * Reads a file's content held in memory (a resource on the class path). A JFR recording is read
     * through a temporary file, as the JDK's reader wants one.
     */
    public static PauseSample read(String label, byte[] content) {
        if (!isJfr(content)) {
            return text(label, content);
        }
        Path copy = null;
        try {
            copy = Files.createTempFile("fencelab-pauses-", ".jfr");
            Files.write(copy, content);
            return JfrRecording.read(label, copy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the recording " + label + " to a temporary file", e);
        } finally {
            if (copy != null) {
                try {
                    Files.deleteIfExists(copy);
                } catch (IOException e) {
                    copy.toFile().deleteOnExit();
                }
            }
        }
    }

    private static boolean isJfr(byte[] bytes) {
        return bytes.length >= JfrRecording.MAGIC.length
                && Arrays.equals(bytes, 0, JfrRecording.MAGIC.length, JfrRecording.MAGIC, 0, JfrRecording.MAGIC.length);
    }

    private static PauseSample text(String label, byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new PauseLogException(label, 0, "is neither UTF-8 text nor a JFR recording; accepted: "
                    + PauseFormat.ACCEPTED);
        }
        List<String> lines = (text.startsWith("\uFEFF") ? text.substring(1) : text).lines().toList();
        int first = -1;
        for (int i = 0; i < lines.size() && first < 0; i++) {
            String l = lines.get(i).strip();
            first = l.isEmpty() || l.startsWith("#") ? -1 : i;
        }
        if (first < 0) {
            throw new PauseLogException(label, 0, "is empty; accepted: " + PauseFormat.ACCEPTED);
        }
        String line = lines.get(first);
        if (UnifiedLog.looksLike(line)) {
            return UnifiedLog.read(label, lines);
        }
        if (DurationList.looksLike(line)) {
            return DurationList.read(label, lines);
        }
        // A log captured from a process's standard output can start with other lines (VM warnings).
        if (lines.stream().anyMatch(UnifiedLog::looksLike)) {
            return UnifiedLog.read(label, lines);
        }
        throw new PauseLogException(label, first + 1, PauseLogException.quote(line.strip())
                + " is not a line of any accepted format; accepted: " + PauseFormat.ACCEPTED);
    }
}

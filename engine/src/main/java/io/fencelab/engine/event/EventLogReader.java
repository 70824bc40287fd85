package io.fencelab.engine.event;

import io.fencelab.engine.files.FileProblem;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads an event log written by {@link EventLog} back into events, exactly: reading what was
 * written gives equal events. A line that is not a valid event stops the reading with an
 * {@link EventLogFormatException} naming the file, the line and the problem.
 *
 * <p>One exception: a <em>torn tail</em>, a last line without its {@code '\n'} that is not a valid
 * event, is what a recorder that died mid-write leaves behind (as a database's write-ahead log after
 * a crash). It is dropped, not fatal: the log ends at the last whole line, and {@link #tornTail()}
 * says which line was dropped. A last line without {@code '\n'} that is a valid event is kept.
 *
 * <p>Every field an event type needs must be there (see {@link MayBeAbsent}). A run's log read whole
 * with {@link #readLog} must also make one run: RunStarted first and only once, seqs ascending,
 * nothing after RunEnded.
 *
 * <p>Use {@link #read} for a whole log in memory, or {@link #open} and {@link #next()} /
 * {@link #stream()} to go through a large one event at a time.
 */
public final class EventLogReader implements Closeable {

    private final Path file;
    private final InputStream in;
    // Decoding each line ourselves (rather than through a Reader) keeps line numbers exact for
    // invalid UTF-8 too.
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;
    private byte[] lineBytes = new byte[512];
    private long lineNumber;
    private boolean lineTerminated;
    private TornLine tornTail;
    /** Where the run's RunStarted and RunEnded were read (0: not yet), and the last seq read. */
    private long runStartedLine;
    private long runEndedLine;
    private long lastSeq;

    /** Whether the events must make one run (see {@link #readLog}); {@link #open} reads any events. */
    private final boolean oneRun;

    private EventLogReader(Path file, InputStream in, boolean oneRun) {
        this.file = file;
        this.in = in;
        this.oneRun = oneRun;
    }

    /** Opens {@code file} for reading event by event. Close the reader when done. */
    public static EventLogReader open(Path file) throws IOException {
        return new EventLogReader(file, Files.newInputStream(file), false);
    }

    /**
     * Reads every event of {@code file}, in file order (a torn tail dropped silently), whatever run
     * they make: for a log Fencelab has just written. A log to judge is read with {@link #readLog}.
     */
    public static List<Event> read(Path file) throws IOException {
        try (EventLogReader reader = open(file)) {
            return reader.rest();
        }
    }

    /**
     * Reads a run's whole log, in file order, and says whether a torn last line was dropped. The
     * events must make one run: RunStarted first and only once, seqs ascending, nothing after
     * RunEnded; a line out of place is an {@link EventLogFormatException} naming it.
     */
    public static Contents readLog(Path file) throws IOException {
        try (EventLogReader reader = new EventLogReader(file, Files.newInputStream(file), true)) {
            return new Contents(file, reader.rest(), Optional.ofNullable(reader.tornTail));
        }
    }

    private List<Event> rest() throws IOException {
        List<Event> events = new ArrayList<>();
        for (Event e; (e = next()) != null; ) {
            events.add(e);
        }
        return events;
    }

    /** A whole log read: its events and the torn last line dropped, if any. */
    public record Contents(Path file, List<Event> events, Optional<TornLine> tornTail) {
        public Contents {
            events = List.copyOf(events);
        }
    }

    /** The last line, cut off mid-write and dropped. */
    public record TornLine(Path file, long line, String problem) {

        /** One line for people: which line was dropped, and why that is not an error. */
        public String warning() {
            return file + ", line " + line + ": dropped: the last line was cut off mid-write (" + problem
                    + "); judged up to line " + (line - 1);
        }
    }

    /** The torn last line that was dropped, once {@link #next()} has reached the end of the file. */
    public Optional<TornLine> tornTail() {
        return Optional.ofNullable(tornTail);
    }

    /**
     * The next event, or null at the end of the file.
     *
     * @throws EventLogFormatException if the next line is not a valid event
     */
    public Event next() throws IOException {
        while (true) {
            int length = readLine();
            if (length < 0) {
                return null;
            }
            lineNumber++;
            String line;
            Event event;
            try {
                line = utf8.decode(ByteBuffer.wrap(lineBytes, 0, length)).toString();
            } catch (CharacterCodingException e) {
                return badLine("not valid UTF-8 text");
            }
            try {
                event = EventLineDecoder.decode(line);
            } catch (EventLineDecoder.BadLine bad) {
                return badLine(bad.getMessage());
            }
            if (event != null) {
                if (oneRun) {
                    checkPlace(event);
                }
                return event;
            }
            // An older log's Violation line: a conclusion, not an event; the log is judged afresh.
        }
    }

    /**
     * One log holds one run, in seq order: RunStarted first and once, nothing after RunEnded. A line
     * out of place is an error even when it is the last (a recorder that died cuts lines, it does not
     * move or repeat them).
     */
    private void checkPlace(Event event) {
        String type = event.getClass().getSimpleName();
        if (runStartedLine == 0 && !(event instanceof Event.RunStarted)) {
            throw new EventLogFormatException(file, lineNumber, type + " before RunStarted; a log begins with RunStarted");
        }
        if (runStartedLine != 0 && event instanceof Event.RunStarted) {
            throw new EventLogFormatException(file, lineNumber, "a second RunStarted (the first is on line "
                    + runStartedLine + "); a log holds one run");
        }
        if (runEndedLine != 0) {
            throw new EventLogFormatException(file, lineNumber, type + " after RunEnded (line " + runEndedLine
                    + "); RunEnded is the last event of a log");
        }
        if (runStartedLine != 0 && event.seq() <= lastSeq) {
            throw new EventLogFormatException(file, lineNumber, "seq " + event.seq() + " is not after the previous "
                    + "event's seq " + lastSeq + "; events are logged in seq order");
        }
        if (event instanceof Event.RunStarted) {
            runStartedLine = lineNumber;
        } else if (event instanceof Event.RunEnded) {
            runEndedLine = lineNumber;
        }
        lastSeq = event.seq();
    }

    /** A bad line is an error, unless it is the last and lacks its '\n': then it is a torn tail, dropped. */
    private Event badLine(String problem) {
        if (lineTerminated) {
            throw new EventLogFormatException(file, lineNumber, problem);
        }
        tornTail = new TornLine(file, lineNumber, problem);
        return null;
    }

    /**
     * The remaining events as a lazy stream (close the reader, or the stream, when done). A read
     * failure surfaces as {@link UncheckedIOException}, a bad line as {@link EventLogFormatException}.
     */
    public Stream<Event> stream() {
        Spliterator<Event> events = new Spliterators.AbstractSpliterator<>(Long.MAX_VALUE,
                Spliterator.ORDERED | Spliterator.NONNULL) {
            @Override
            public boolean tryAdvance(Consumer<? super Event> action) {
                Event e;
                try {
                    e = next();
                } catch (IOException io) {
                    throw new UncheckedIOException("cannot read event log: " + FileProblem.of(file, io), io);
                }
                if (e == null) {
                    return false;
                }
                action.accept(e);
                return true;
            }
        };
        return StreamSupport.stream(events, false).onClose(() -> {
            try {
                close();
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
        });
    }

    /** The number of the line last read (1-based); 0 before the first. */
    public long lineNumber() {
        return lineNumber;
    }

    public Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /**
     * Reads the next line's bytes into {@link #lineBytes}, without its '\n' (or "\r\n"). Returns its
     * length, or -1 at the end of the file. A last line without '\n' still counts.
     */
    private int readLine() throws IOException {
        int length = 0;
        boolean sawNewline = false;
        while (!sawNewline) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit < 0) {
                    limit = 0;
                    if (length == 0) {
                        return -1;
                    }
                    break;
                }
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            int chunk = position - start;
            if (length + chunk > lineBytes.length) {
                lineBytes = Arrays.copyOf(lineBytes, Math.max(lineBytes.length * 2, length + chunk));
            }
            System.arraycopy(buffer, start, lineBytes, length, chunk);
            length += chunk;
            if (position < limit) {
                position++; // the '\n'
                sawNewline = true;
            }
        }
        lineTerminated = sawNewline;
        if (length > 0 && lineBytes[length - 1] == '\r') {
            length--;
        }
        return length;
    }
}

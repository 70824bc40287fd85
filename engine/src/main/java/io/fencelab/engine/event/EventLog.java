package io.fencelab.engine.event;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;

/**
 * Records events to a JSON Lines file (see {@code docs/EVENTS.md}): one event per line, UTF-8,
 * {@code '\n'} line endings, written with {@link EventJson}. It is a lossless {@link EventBus}
 * consumer: subscribe it before the first event is published.
 *
 * <p><b>Durability.</b> Every {@link #append} ends with a flush to the operating system, so if the
 * process dies, the file holds every batch appended before the current one; at most the batch
 * being written is lost (its last line may be cut short). There is no fsync: a power failure may
 * lose what the operating system had not yet written to disk.
 *
 * <p>Not meant for concurrent writers: the bus calls it from its one dispatcher thread. The
 * methods are synchronized only so that a {@link #close()} from another thread is safe.
 */
public final class EventLog implements Consumer<List<Event>>, Closeable {

    private static final int BUFFER_CHARS = 1 << 16;

    // Flushing after every value would defeat the buffer; we flush once per batch instead.
    private static final ObjectWriter WRITER = EventJson.writer()
            .without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);

    private final Path file;
    private final BufferedWriter out;
    private final JsonGenerator json;
    private final SequenceWriter values;
    private long written;
    private boolean closed;
    private Exception failure;

    private EventLog(Path file, BufferedWriter out) throws IOException {
        this.file = file;
        this.out = out;
        this.json = EventJson.mapper().createGenerator(out)
                .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        // We end each line ourselves; Jackson would put a space between root values.
        json.setRootValueSeparator(null);
        // One SequenceWriter for the file: it keeps the serializers it found, instead of looking
        // them up again for every event.
        this.values = WRITER.writeValues(json);
    }

    /** Creates {@code file} (replacing an existing one) and records into it. */
    public static EventLog create(Path file) throws IOException {
        BufferedWriter out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE),
                BUFFER_CHARS);
        return new EventLog(file, out);
    }

    /** Writes the events, one line each, then flushes (see the class comment on durability). */
    public synchronized void append(List<? extends Event> events) throws IOException {
        ensureOpen();
        try {
            for (Event event : events) {
                values.write(event);
                json.writeRaw('\n');
            }
            json.flush(); // passes the flush on to the BufferedWriter and the file
        } catch (IOException | RuntimeException e) {
            // A half-written line may sit in the buffer: refuse to write more after it.
            failure = e;
            throw e;
        }
        written += events.size();
    }

    /** The bus's entry point: {@link #append}, with an I/O failure rethrown unchecked (the bus logs it). */
    @Override
    public void accept(List<Event> batch) {
        try {
            append(batch);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write event log " + file + ": " + e.getMessage(), e);
        }
    }

    /** Hands everything written so far to the operating system. */
    public synchronized void flush() throws IOException {
        ensureOpen();
        json.flush(); // passes the flush on to the BufferedWriter and the file
    }

    /** Lines written so far. */
    public synchronized long written() {
        return written;
    }

    public Path file() {
        return file;
    }

    /** Flushes and closes the file. Closing twice is harmless. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (out) {
            json.close();
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("event log " + file + " is closed");
        }
        if (failure != null) {
            throw new IOException("event log " + file + " stopped after an earlier failure: " + failure.getMessage(),
                    failure);
        }
    }
}

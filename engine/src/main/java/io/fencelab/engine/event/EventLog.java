package io.fencelab.engine.event;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fencelab.engine.clock.Ticker;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Records events to a JSON Lines file (see {@code docs/EVENTS.md}): one event per line, UTF-8,
 * {@code '\n'} line endings, written with {@link EventJson}. It is a lossless {@link EventBus}
 * consumer: subscribe it before the first event is published.
 *
 * <p><b>Durability.</b> Every {@link #append} ends with a flush to the operating system, so if the
 * process dies, the file holds every batch appended before the current one; at most the batch
 * being written is lost (its last line may be cut short, a torn tail that {@link EventLogReader}
 * drops). A log made {@link #createDurable durable} is also forced to disk ({@code fsync}) at close
 * and, when a batch is appended at least the given interval of real time after the last force,
 * after that batch, so a power failure loses at most about that interval. By default there is no
 * fsync: a power failure may lose what the operating system had not yet written to disk.
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
    private final FileChannel channel;
    private final BufferedWriter out;
    /** Real time between forces to disk; null for none (the default). */
    private final Duration fsyncEvery;
    private final Ticker ticker;
    private long lastForceNanos;
    private long forces;
    private final JsonGenerator json;
    private final SequenceWriter values;
    private long written;
    private boolean closed;
    private Exception failure;

    private EventLog(Path file, Duration fsyncEvery, Ticker ticker) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        this.out = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel), StandardCharsets.UTF_8),
                BUFFER_CHARS);
        this.fsyncEvery = fsyncEvery;
        this.ticker = ticker;
        this.lastForceNanos = fsyncEvery == null ? 0 : ticker.nanos();
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
        return new EventLog(file, null, null);
    }

    /**
     * As {@link #create}, forcing the file to disk at close and after a batch appended {@code every}
     * (or more) of real time, read from {@code ticker}, after the last force; {@link Duration#ZERO}
     * forces after every batch.
     */
    public static EventLog createDurable(Path file, Duration every, Ticker ticker) throws IOException {
        if (every.isNegative()) {
            throw new IllegalArgumentException("the fsync interval must not be negative, was " + every);
        }
        return new EventLog(file, every, ticker);
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
            if (fsyncEvery != null && ticker.nanos() - lastForceNanos >= fsyncEvery.toNanos()) {
                force();
            }
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

    /** How many times the file was forced to disk (always 0 unless {@linkplain #createDurable durable}). */
    public synchronized long forces() {
        return forces;
    }

    private void force() throws IOException {
        channel.force(false); // the data; the file's metadata (its times) need not reach the disk
        forces++;
        lastForceNanos = ticker.nanos();
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
            if (fsyncEvery != null && failure == null) {
                out.flush();
                force();
            }
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

package io.fencelab.engine.chaos.pauses;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording's pauses: its {@code jdk.GCPhasePause} events, one a pause; a recording
 * without them (a custom settings file) is read from {@code jdk.GarbageCollection}'s
 * {@code sumOfPauses}, one pause a collection (a collection with several pauses counts as one pause of
 * their sum, the longer stop a holder would see). Never both, so no pause is counted twice. The span
 * runs from the first event's start to the last event's end, over every event in the file.
 */
final class JfrRecording {

    static final String PHASE_PAUSE = "jdk.GCPhasePause";
    static final String COLLECTION = "jdk.GarbageCollection";

    /** The first bytes of every JFR recording. */
    static final byte[] MAGIC = {'F', 'L', 'R', 0};

    private JfrRecording() {
    }

    static PauseSample read(String file, Path path) {
        List<Duration> phasePauses = new ArrayList<>();
        List<Duration> collections = new ArrayList<>();
        Instant first = null;
        Instant last = null;
        try (RecordingFile recording = new RecordingFile(path)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                first = first == null || event.getStartTime().isBefore(first) ? event.getStartTime() : first;
                last = last == null || event.getEndTime().isAfter(last) ? event.getEndTime() : last;
                switch (event.getEventType().getName()) {
                    case PHASE_PAUSE -> phasePauses.add(DurationText.toMicros(event.getDuration()));
                    case COLLECTION -> collections.add(DurationText.toMicros(event.getDuration("sumOfPauses")));
                    default -> {
                        // other events only widen the span
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new PauseLogException(file, 0, "is not a readable JFR recording ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
        }
        List<Duration> pauses = phasePauses.isEmpty() ? collections : phasePauses;
        if (pauses.isEmpty()) {
            throw new PauseLogException(file, 0, "a JFR recording without " + PHASE_PAUSE + " or " + COLLECTION
                    + " events: record with -XX:StartFlightRecording=filename=app.jfr,settings=profile "
                    + "(or settings=default), both of which record them");
        }
        return new PauseSample(pauses, Duration.between(first, last), PauseFormat.JFR, file);
    }
}

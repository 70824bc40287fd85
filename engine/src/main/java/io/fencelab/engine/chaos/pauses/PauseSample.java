package io.fencelab.engine.chaos.pauses;

import io.fencelab.engine.chaos.Distribution;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The pauses one file recorded.
 *
 * @param durations every pause, in file order, to the microsecond (the engine's resolution)
 * @param span      the time the file covers, from its first time stamp to its last; null when it has
 *                  no times (a plain list of durations, a CSV without a time column)
 * @param format    what kind of file it was
 * @param file      the file as the caller named it (a file name, never a machine's absolute path, when
 *                  it goes into a run's description)
 */
public record PauseSample(List<Duration> durations, Duration span, PauseFormat format, String file) {

    public PauseSample {
        durations = List.copyOf(durations);
        Objects.requireNonNull(format);
        Objects.requireNonNull(file);
        if (durations.isEmpty()) {
            throw new IllegalArgumentException("a pause sample needs at least one pause");
        }
    }

    /**
     * The pauses as a distribution to draw fault durations from; its {@link Distribution.Empirical#meanGap()}
     * is the file's own pause rate.
     */
    public Distribution.Empirical distribution() {
        return new Distribution.Empirical(file, durations, span);
    }

    /** {@code g1.log (JDK GC log, 45 pauses over 90.0s)}. */
    public String describe() {
        return file + " (" + format.label() + ", " + durations.size() + (durations.size() == 1 ? " pause" : " pauses")
                + (span == null ? "" : " over " + span.toMillis() / 1000.0 + "s") + ")";
    }
}

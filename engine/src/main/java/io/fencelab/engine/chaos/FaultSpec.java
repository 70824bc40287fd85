package io.fencelab.engine.chaos;

import java.time.Duration;
import java.util.Objects;

/**
 * One fault of a run spec.
 *
 * @param kind     what goes wrong
 * @param target   a holder name, {@code all} (each holder independently) or {@code database}
 * @param start    when
 * @param duration how long each occurrence lasts (for delays: the delay added while it lasts is
 *                 {@code amount})
 * @param amount   the delay (request/reply delay, slow lease service) or skew (clock skew); zero otherwise
 */
public record FaultSpec(FaultKind kind, String target, FaultStart start, Distribution duration, Duration amount) {

    public static final String ALL = "all";
    public static final String DATABASE = "database";

    public FaultSpec {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(target);
        Objects.requireNonNull(start);
        Objects.requireNonNull(duration);
        amount = amount == null ? Duration.ZERO : amount;
        if (kind == FaultKind.DATABASE_RESTART && !DATABASE.equals(target)) {
            throw new IllegalArgumentException("a database restart targets 'database', not '" + target + "'");
        }
    }

    /** One line for the event log and reports, for example {@code PAUSE on all every ~10s exponential for 2s}. */
    public String describe() {
        String when = switch (start) {
            case FaultStart.At at -> "at " + Distribution.text(at.at());
            case FaultStart.Every every -> "every " + every.gap().describe();
        };
        return kind + " on " + target + " " + when + " for " + duration.describe()
                + (amount.isZero() ? "" : ", amount " + Distribution.text(amount));
    }

    /** A scripted pause of one holder: the paused-holder story's fault. */
    public static FaultSpec pause(String holder, Duration at, Duration length) {
        return new FaultSpec(FaultKind.PAUSE, holder, new FaultStart.At(at), new Distribution.Fixed(length), Duration.ZERO);
    }
}

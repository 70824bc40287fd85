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
 * @param identity for a {@link FaultKind#CRASH}: the name the holder restarts under (its duration is the
 *                 time until the restart; zero: it never restarts); {@code SAME} for every other kind
 */
public record FaultSpec(FaultKind kind, String target, FaultStart start, Distribution duration, Duration amount,
                        Identity identity) {

    /** Who a crashed holder is when it restarts. */
    public enum Identity {
        /** The same holder name: the service cannot tell the new process from the old one. */
        SAME,
        /** A new holder name, {@code A#2}, {@code A#3}, … (the incarnation number after a {@code #}). */
        NEW
    }

    /** A fault that is not a crash, or a crash that restarts under the same name. */
    public FaultSpec(FaultKind kind, String target, FaultStart start, Distribution duration, Duration amount) {
        this(kind, target, start, duration, amount, Identity.SAME);
    }

    public static final String ALL = "all";
    public static final String DATABASE = "database";
    /** The target of a fault on the run's real lease service ({@link FaultKind#onService}). */
    public static final String SERVICE = "service";

    public FaultSpec {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(target);
        Objects.requireNonNull(start);
        Objects.requireNonNull(duration);
        amount = amount == null ? Duration.ZERO : amount;
        Objects.requireNonNull(identity);
        if (identity != Identity.SAME && kind != FaultKind.CRASH) {
            throw new IllegalArgumentException("only a crash restarts under a new identity, not " + kind);
        }
        if (kind == FaultKind.CRASH && DATABASE.equals(target)) {
            throw new IllegalArgumentException("a crash hits a holder, not the database (DATABASE_RESTART does that)");
        }
        if (kind.onService() != SERVICE.equals(target)) {
            throw new IllegalArgumentException(kind.onService() ? "a " + kind + " targets 'service', not '" + target + "'"
                    : "only SERVICE_PAUSE, SERVICE_RESTART and SERVICE_LEADER_STOP target the lease service, not " + kind);
        }
        if (start instanceof FaultStart.OnGrant && (kind != FaultKind.PAUSE || ALL.equals(target)
                || DATABASE.equals(target))) {
            throw new IllegalArgumentException("only a PAUSE of one named holder starts at its grant, not a " + kind
                    + " on " + target);
        }
        if (kind == FaultKind.DATABASE_RESTART && !DATABASE.equals(target)) {
            throw new IllegalArgumentException("a database restart targets 'database', not '" + target + "'");
        }
    }

    /** One line for the event log and reports, for example {@code PAUSE on all every ~10s exponential for 2s}. */
    public String describe() {
        String when = switch (start) {
            case FaultStart.At at -> "at " + Distribution.text(at.at());
            case FaultStart.Every every -> "every " + every.gap().describe();
            case FaultStart.OnGrant onGrant -> "at its next grant";
        };
        if (kind == FaultKind.CRASH) {
            return kind + " on " + target + " " + when + (duration.equals(new Distribution.Fixed(Duration.ZERO))
                    ? ", never restarts" : ", restarts after " + duration.describe()
                    + (identity == Identity.NEW ? " as a new holder" : " as the same holder"));
        }
        return kind + " on " + target + " " + when + " for " + duration.describe()
                + (amount.isZero() ? "" : ", amount " + Distribution.text(amount));
    }

    /** A crash of one holder at {@code at}, restarting after {@code restartAfter} (zero: never) as {@code identity}. */
    public static FaultSpec crash(String holder, Duration at, Duration restartAfter, Identity identity) {
        return new FaultSpec(FaultKind.CRASH, holder, new FaultStart.At(at), new Distribution.Fixed(restartAfter),
                Duration.ZERO, identity);
    }

    /** A scripted pause of one holder: the paused-holder story's fault. */
    public static FaultSpec pause(String holder, Duration at, Duration length) {
        return new FaultSpec(FaultKind.PAUSE, holder, new FaultStart.At(at), new Distribution.Fixed(length), Duration.ZERO);
    }
}

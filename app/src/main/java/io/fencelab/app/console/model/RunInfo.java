package io.fencelab.app.console.model;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.store.RealServices;
import io.fencelab.engine.store.RunStore;
import java.util.Locale;

/**
 * What a shown run is, as the status bar and headers print it.
 *
 * @param scenario       the scenario's name ({@code paused-holder})
 * @param executor       {@code simulated}, {@code live} or {@code replay of simulated}
 * @param seed           the random seed, as text
 * @param fencing        the fencing mode's name
 * @param tokenScheme    the token scheme's name
 * @param durationMicros how long the run is meant to last (0 when unknown, as for a saved log)
 * @param leases         who grants the leases ({@code Redis (Redisson 4.0.0, RLock, then INCR)}); empty when unknown
 * @param store          the run's store in the engine's words: resources, leases and where tokens come
 *                       from (never an address); empty when unknown
 */
public record RunInfo(String scenario, String executor, String seed, String fencing, String tokenScheme,
                      long durationMicros, String leases, String store) {

    public static final RunInfo NONE = new RunInfo("", "", "", "", "", 0, "", "");

    /** A run prepared on {@code store}. */
    public static RunInfo of(RunSpec spec, RunStore store) {
        String leases = store.leases() instanceof RealServices.Leases real ? real.describe()
                : store.semantics() + "'s lease table";
        return new RunInfo(spec.name(), spec.executor().name().toLowerCase(Locale.ROOT), Long.toString(spec.seed()),
                spec.fencing().name(), spec.tokenScheme().name(), spec.duration().toNanos() / 1_000, leases,
                store.describe());
    }

    /** A saved log's run, from its first event. */
    public static RunInfo replayOf(Event.RunStarted start, long durationMicros) {
        return new RunInfo(start.scenario(), "replay of " + start.executor(), Long.toString(start.seed()),
                start.fencing(), start.tokenScheme(), durationMicros, "", "");
    }

    /** {@code FENCED} as {@code fencing on}, anything else as {@code fencing off (UNFENCED)}. */
    public String fencingInWords() {
        if (fencing.isEmpty()) {
            return "";
        }
        return "FENCED".equals(fencing) ? "fencing on" : "fencing off (" + fencing + ")";
    }
}

package io.fencelab.engine.run;

import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import io.fencelab.engine.worker.Worker;
import java.time.Duration;
import java.time.Instant;

/**
 * How a run's time passes and its actions run: the one part that tells a simulated run
 * ({@link VirtualTimeScheduler}: a virtual clock, one thread, a queue of actions) from a live one
 * ({@link RealTimeScheduler}: real time, a virtual thread per action). How an action borrows a store
 * session follows from how actions are threaded, so that is decided here too.
 */
interface RunScheduler {

    /** What a scheduler asks of its executor. */
    interface Host {
        /** Run time (micros) at which {@code holder}'s pause ends; at or before now if it is not paused. */
        long resumesAt(String holder);

        /** Runs one action of the run (through the failpoints, {@link FailpointArming#act}). */
        void act(Runnable action);

        /** Whether the run has ended: nothing more runs. */
        boolean over();

        /** Ends the run now for {@code reason}; the first reason wins. */
        void finish(io.fencelab.engine.event.Event.RunEnded.Reason reason);

        /** The database did not answer a fresh statement, and no restart fault is under way. */
        void databaseLost();
    }

    /** Run time now, in microseconds. */
    long nowMicros();

    /** An instant of the run clock as run time in microseconds. */
    long toRunMicros(Instant instant);

    /** The run clock's instant now. */
    Instant clockNow();

    /** A run-time duration as it passes on the lease service's clock (a live run's time scale stretches it). */
    default Duration onLeaseClock(Duration runTime) {
        return runTime;
    }

    /** Runs {@code action} for the worker after {@code delay}; deferred while the worker is paused. */
    void later(Worker worker, Duration delay, Runnable action);

    /** Runs {@code action} after {@code delay} whatever the worker does: a message in flight. */
    void inFlight(Worker worker, Duration delay, Runnable action);

    /**
     * Runs {@code action} at run time {@code atMicros} (at once if that has passed), unless the run is
     * over by then; actions due at one time run in the order given.
     */
    void at(long atMicros, Runnable action);

    /** The worker whose action runs now on this thread, or null (a fault, an expiry watch). */
    Worker acting();

    /** The store session the worker's statements run on now. */
    StoreSession session(Worker worker);

    /** Drops the worker's broken session; the next {@link #session} opens a fresh one. */
    void discardSession(Worker worker);

    /** A target is handed to a worker: the scheduler may add what its timing needs (a live run's check-to-write work). */
    default void prepare(TargetStore<?> target) {
    }
}

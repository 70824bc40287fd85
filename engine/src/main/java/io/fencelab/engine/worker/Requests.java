package io.fencelab.engine.worker;

import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A worker's requests to the database and the lease service: the delays and jitter faults add on the
 * way, the statement where it lands, the reply on the way back, and what a failed statement means
 * (retry after the idle time, or the run is over). {@link Worker} decides what to ask; this carries it.
 */
final class Requests {

    private final Worker worker;
    private final WorkerEnv env;

    Requests(Worker worker, WorkerEnv env) {
        this.worker = worker;
        this.env = env;
    }

    /**
     * One request to the database: it leaves now, lands after the request delay (the statement runs
     * then, whatever the worker is doing), and the worker hears the answer after the reply delay
     * (deferred if it is paused). On a database failure a fault explains it retries with {@code retry}
     * after its idle time; on one that breaks the run ({@link io.fencelab.engine.db.DatabaseFailure#breaksRun})
     * the run ends.
     * A request sent before a crash still lands; the crashed process hears no answer.
     */
    <T> void send(String operation, boolean leaseOp, Supplier<T> statement, Consumer<T> onReply, Runnable retry) {
        Duration requestDelay = env.requestDelay(worker.name());
        Duration jitter = env.requestJitter(worker.name());
        if (jitter.isPositive()) {
            requestDelay = requestDelay.plus(Duration.ofNanos(env.random(worker).nextLong(jitter.toNanos() / 1_000 + 1) * 1_000));
        }
        if (leaseOp) {
            requestDelay = requestDelay.plus(env.leaseServiceDelay(worker.name()));
        }
        long myLife = worker.life();
        String me = worker.holder();
        env.inFlight(worker, requestDelay, () -> {
            if (env.finished()) {
                return;
            }
            T result;
            try {
                result = statement.get();
            } catch (DatabaseException e) {
                if (e.failure().breaksRun()) {
                    // No fault explains it and the next statement would fail the same way: the run is over.
                    env.databaseBroken(e);
                    env.discardSession(worker);
                    return;
                }
                if (myLife != worker.life()) {
                    // Nobody is left to notice, but the broken session must still go: a restarted
                    // process would otherwise fail its first statement on it.
                    env.discardSession(worker);
                    return;
                }
                worker.publish(seq -> new Event.OperationFailed(seq, env.nowMicros(), me, operation, e.reason()));
                env.discardSession(worker);
                worker.later(worker.spec().idleTime(), retry);
                return;
            }
            if (myLife == worker.life()) {
                worker.later(env.replyDelay(worker.name()), () -> onReply.accept(result));
            }
        });
    }
}

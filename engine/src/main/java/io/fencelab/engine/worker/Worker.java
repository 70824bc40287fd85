package io.fencelab.engine.worker;

import io.fencelab.engine.check.ValueDigest;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.store.TargetStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One holder: acquire a lease, work, write every target of the job with its token, renew on an
 * interval, release, and again. Driven by callbacks from its {@link WorkerEnv}, so the simulated and
 * live executors run the very same logic.
 *
 * <p>The worker keeps what it <em>believes</em> (it holds lease N until something tells it
 * otherwise) apart from what the service says: {@code BeliefStarted/Ended} events against
 * {@code LeaseAcquired/Expired/Released}. The gap between the two is the whole story.
 */
public final class Worker {

    private static final int MAX_BLIND_RETRIES = 3;

    private final WorkerSpec spec;
    private final WorkerEnv env;

    private Lease lease;
    private long presentedToken;
    private boolean believes;
    /** Bumped whenever a job starts or is lost; callbacks of an older epoch are ignored. */
    private long epoch;
    private long renewGeneration;
    private int job;
    private int jobsDone;
    private int writeIndex;
    private int blindRetries;
    /** Pipelined writes still waiting for their reply. */
    private int outstanding;
    private boolean done;
    /** Set from another thread when a live run lowers the worker count: finish the job, take no more. */
    private volatile boolean retired;

    public Worker(WorkerSpec spec, WorkerEnv env) {
        this.spec = spec;
        this.env = env;
    }

    public String name() {
        return spec.name();
    }

    public WorkerSpec spec() {
        return spec;
    }

    /** Whether it has finished all its jobs (or its scope is exhausted). */
    public boolean done() {
        return done;
    }

    public void start() {
        startAfter(spec.startAt());
    }

    /** Starts after {@code delay} from now rather than at the spec's start time (a worker added mid-run). */
    public void startAfter(Duration delay) {
        env.later(this, delay, this::tryAcquire);
    }

    /**
     * The worker leaves the run: the job in hand is finished as usual (its writes and release go
     * ahead), and no new lease is sought. Safe to call from any thread.
     */
    public void retire() {
        retired = true;
    }

    // ---- acquire ----------------------------------------------------------------------------

    private record Grant(AcquireResult result, long fencingToken) {}

    private void tryAcquire() {
        if (retired) {
            done = true;
        }
        if (env.finished() || done) {
            return;
        }
        rpc("acquire", true, () -> {
            AcquireResult result = env.leases().acquire(env.session(this), spec.scope(), name(), env.leaseTtl());
            long fencingToken = 0;
            switch (result) {
                case AcquireResult.Acquired a -> {
                    fencingToken = env.tokenScheme().tokenFor(a.lease(), env.holderClock(name()), env.random(this));
                    long token = fencingToken;
                    publish(seq -> new Event.LeaseAcquired(seq, env.nowMicros(), name(), spec.scope(),
                            a.lease().token(), token, env.toRunMicros(a.lease().expiresAt())));
                    env.leaseChanged(this, a.lease(), false);
                }
                case AcquireResult.Busy b -> publish(seq -> new Event.LeaseBusy(seq, env.nowMicros(), name(),
                        spec.scope(), b.holder(), b.token()));
                case AcquireResult.Exhausted e -> publish(seq -> new Event.LeaseExhausted(seq, env.nowMicros(),
                        name(), spec.scope(), e.lastToken()));
            }
            return new Grant(result, fencingToken);
        }, this::onAcquired, this::tryAcquire);
    }

    private void onAcquired(Grant grant) {
        switch (grant.result()) {
            case AcquireResult.Acquired a -> {
                lease = a.lease();
                presentedToken = grant.fencingToken();
                epoch++;
                job++;
                writeIndex = 0;
                blindRetries = 0;
                believes = true;
                publish(seq -> new Event.BeliefStarted(seq, env.nowMicros(), name(), spec.scope(), presentedToken));
                scheduleRenewal();
                long myEpoch = epoch;
                env.later(this, spec.workTime(), () -> nextWrite(myEpoch));
            }
            case AcquireResult.Busy b -> env.later(this, spec.idleTime(), this::tryAcquire);
            case AcquireResult.Exhausted e -> done = true;
        }
    }

    // ---- write ------------------------------------------------------------------------------

    private void nextWrite(long myEpoch) {
        if (myEpoch != epoch || env.finished()) {
            return;
        }
        if (writeIndex == spec.writes().size()) {
            finishJob();
            return;
        }
        if (spec.checkDeadline() && !env.holderClock(name()).isBefore(lease.expiresAt())) {
            endBelief("its own clock says the lease expired");
            loseJob();
            return;
        }
        if (spec.pipelineWrites()) {
            // Send every remaining write now; the job ends when the last reply is in.
            int first = writeIndex;
            writeIndex = spec.writes().size();
            outstanding = writeIndex - first;
            for (int i = first; i < writeIndex; i++) {
                send(myEpoch, i, outcome -> onPipelinedReply(myEpoch, outcome));
            }
            return;
        }
        send(myEpoch, writeIndex, outcome -> onWriteReply(myEpoch, outcome));
    }

    /** Sends write number {@code index} of the current job. */
    private void send(long myEpoch, int index, Consumer<WriteOutcome> onReply) {
        TargetWrite tw = spec.writes().get(index);
        FencingMode mode = tw.mode() == null ? env.defaultFencing() : tw.mode();
        TargetStore<?> target = env.target(tw.target(), mode);
        Object value = valueFor(tw, index);
        String digest = value instanceof byte[] bytes ? ValueDigest.of(bytes) : ValueDigest.of((String) value);
        long token = presentedToken;
        Long opSeq = spec.sequenceWrites() ? (long) index + 1 : null;
        publish(seq -> new Event.WriteAttempted(seq, env.nowMicros(), name(), spec.scope(), token, tw.target(),
                tw.key(), opSeq));
        rpc("write", false, () -> {
            WriteOutcome outcome = write(target, tw.key(), token, opSeq, value);
            publishOutcome(outcome, tw, digest);
            return outcome;
        }, onReply, () -> send(myEpoch, index, onReply));
    }

    private void onPipelinedReply(long myEpoch, WriteOutcome outcome) {
        if (myEpoch != epoch) {
            return;
        }
        if (outcome instanceof WriteOutcome.Stale stale) {
            onStale(myEpoch, stale);
            return;
        }
        outstanding--;
        if (outstanding == 0) {
            finishJob();
        }
    }

    @SuppressWarnings("unchecked")
    private WriteOutcome write(TargetStore<?> target, String key, long token, Long opSeq, Object value) {
        return ((TargetStore<Object>) target).write(env.session(this), spec.scope(), key, token, opSeq, value);
    }

    private void publishOutcome(WriteOutcome outcome, TargetWrite tw, String digest) {
        String scope = spec.scope();
        switch (outcome) {
            case WriteOutcome.Accepted a -> publish(seq -> new Event.WriteAccepted(seq, env.nowMicros(), name(),
                    scope, a.token(), tw.target(), tw.key(), digest, a.replaced()));
            case WriteOutcome.Stale s -> publish(seq -> new Event.WriteRejectedStale(seq, env.nowMicros(), name(),
                    scope, s.presented(), tw.target(), tw.key(), s.highest()));
            case WriteOutcome.Missing m -> publish(seq -> new Event.WriteMissing(seq, env.nowMicros(), name(),
                    scope, presentedToken, tw.target(), tw.key()));
            case WriteOutcome.OutOfOrder o -> publish(seq -> new Event.WriteOutOfOrder(seq, env.nowMicros(), name(),
                    scope, o.token(), tw.target(), tw.key(), o.presentedSeq(), o.highestSeq()));
        }
    }

    private void onWriteReply(long myEpoch, WriteOutcome outcome) {
        if (myEpoch != epoch) {
            return;
        }
        switch (outcome) {
            case WriteOutcome.Accepted a -> {
                writeIndex++;
                nextWrite(myEpoch);
            }
            case WriteOutcome.Missing m -> {
                writeIndex++;
                nextWrite(myEpoch);
            }
            case WriteOutcome.OutOfOrder o -> {
                writeIndex++;
                nextWrite(myEpoch);
            }
            case WriteOutcome.Stale s -> onStale(myEpoch, s);
        }
    }

    private void onStale(long myEpoch, WriteOutcome.Stale stale) {
        String why = "stale: token " + stale.presented() + " is older than " + stale.highest();
        switch (spec.onStale()) {
            case ABANDON -> {
                endBelief(why);
                loseJob();
            }
            case REACQUIRE -> {
                endBelief(why);
                epoch++;
                env.later(this, Duration.ZERO, this::tryAcquire);
            }
            case BLIND_RETRY -> {
                if (blindRetries < MAX_BLIND_RETRIES) {
                    blindRetries++;
                    env.later(this, spec.idleTime(), () -> nextWrite(myEpoch));
                } else {
                    endBelief(why + " (after " + MAX_BLIND_RETRIES + " blind retries)");
                    loseJob();
                }
            }
        }
    }

    private Object valueFor(TargetWrite tw, int index) {
        // Several writes of one job to the same key are different operations, so their values differ.
        String op = spec.writes().stream().filter(w -> w.equals(tw)).count() > 1 ? ", op " + (index + 1) : "";
        String text = switch (tw.target()) {
            case ROW -> "report by " + name() + ", job " + job + op;
            case OBJECT -> "object written by " + name() + ", job " + job + op;
            case POINTER -> "objects/" + name() + "-job-" + job + op;
        };
        return tw.target() == io.fencelab.engine.fence.TargetKind.OBJECT ? text.getBytes(StandardCharsets.UTF_8) : text;
    }

    // ---- renew and release ------------------------------------------------------------------

    private void scheduleRenewal() {
        if (env.renewInterval().isZero()) {
            return;
        }
        long generation = ++renewGeneration;
        env.later(this, env.renewInterval(), () -> renew(generation));
    }

    private void renew(long generation) {
        if (generation != renewGeneration || !believes || env.finished()) {
            return;
        }
        Lease current = lease;
        if (env.renewalsDropped(name())) {
            publish(seq -> new Event.LeaseRenewalFailed(seq, env.nowMicros(), name(), spec.scope(), current.token(),
                    "dropped by a renewal-loss fault; the holder does not know"));
            scheduleRenewal();
            return;
        }
        long myEpoch = epoch;
        rpc("renew", true, () -> {
            RenewResult result = env.leases().renew(env.session(this), current, env.leaseTtl());
            switch (result) {
                case RenewResult.Renewed r -> {
                    publish(seq -> new Event.LeaseRenewed(seq, env.nowMicros(), name(), spec.scope(),
                            r.lease().token(), env.toRunMicros(r.lease().expiresAt())));
                    env.leaseChanged(this, r.lease(), false);
                }
                case RenewResult.NotHeld n -> publish(seq -> new Event.LeaseRenewalFailed(seq, env.nowMicros(),
                        name(), spec.scope(), current.token(), "not held: the lease had expired or moved on"));
            }
            return result;
        }, result -> {
            if (myEpoch != epoch || generation != renewGeneration) {
                return;
            }
            switch (result) {
                case RenewResult.Renewed r -> {
                    lease = r.lease();
                    scheduleRenewal();
                }
                case RenewResult.NotHeld n -> {
                    endBelief("renewal failed");
                    loseJob();
                }
            }
        }, this::scheduleRenewal);
    }

    private void finishJob() {
        Lease finished = lease;
        epoch++;
        jobsDone++;
        rpc("release", true, () -> {
            boolean released = env.leases().release(env.session(this), finished);
            if (released) {
                publish(seq -> new Event.LeaseReleased(seq, env.nowMicros(), name(), spec.scope(), finished.token()));
                env.leaseChanged(this, finished, true);
            }
            return released;
        }, released -> {
            endBelief(released ? "released" : "release refused: the lease was no longer held");
            nextJob();
        }, () -> {
            endBelief("release failed");
            nextJob();
        });
    }

    private void nextJob() {
        if (spec.jobs() > 0 && jobsDone >= spec.jobs()) {
            done = true;
            return;
        }
        env.later(this, spec.idleTime(), this::tryAcquire);
    }

    /** The job is given up (stale, expired, renewal failed): it counts as done, and the worker moves on. */
    private void loseJob() {
        epoch++;
        jobsDone++;
        nextJob();
    }

    private void endBelief(String reason) {
        if (believes) {
            believes = false;
            renewGeneration++;
            long token = presentedToken;
            publish(seq -> new Event.BeliefEnded(seq, env.nowMicros(), name(), spec.scope(), token, reason));
        }
    }

    // ---- messaging --------------------------------------------------------------------------

    /**
     * One request to the database: it leaves now, lands after the request delay (the statement runs
     * then, whatever the worker is doing), and the worker hears the answer after the reply delay
     * (deferred if it is paused). On a database failure it retries with {@code retry} after its idle time.
     */
    private <T> void rpc(String operation, boolean leaseOp, Supplier<T> statement, Consumer<T> onReply, Runnable retry) {
        Duration requestDelay = env.requestDelay(name());
        Duration jitter = env.requestJitter(name());
        if (jitter.isPositive()) {
            requestDelay = requestDelay.plus(Duration.ofNanos(env.random(this).nextLong(jitter.toNanos() / 1_000 + 1) * 1_000));
        }
        if (leaseOp) {
            requestDelay = requestDelay.plus(env.leaseServiceDelay(name()));
        }
        env.inFlight(this, requestDelay, () -> {
            if (env.finished()) {
                return;
            }
            T result;
            try {
                result = statement.get();
            } catch (DatabaseException e) {
                publish(seq -> new Event.OperationFailed(seq, env.nowMicros(), name(), operation, e.getMessage()));
                env.discardSession(this);
                env.later(this, spec.idleTime(), retry);
                return;
            }
            env.later(this, env.replyDelay(name()), () -> onReply.accept(result));
        });
    }

    private void publish(java.util.function.LongFunction<? extends Event> event) {
        env.events().publish(event);
    }
}

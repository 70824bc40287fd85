package io.fencelab.engine.worker;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.check.ValueDigest;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.store.CheckedWrite;
import io.fencelab.engine.store.TargetStore;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One holder: acquire a lease, work, write every target of the job with its token, renew on an
 * interval, release, and again ({@link WorkerRole#JOBS}); or, as a {@link WorkerRole#LEADER}, acquire
 * once and work job after job under that lease until it is lost. Driven by callbacks from its
 * {@link WorkerEnv}, so the simulated and live executors run the very same logic. How it renews, when
 * it gives up on its own and how it waits after a busy answer come from the run's
 * {@link LeaseProfile}.
 *
 * <p>The worker keeps what it <em>believes</em> (it holds lease N until something tells it
 * otherwise) apart from what the service says: {@code BeliefStarted/Ended} events against
 * {@code LeaseAcquired/Expired/Released}. The gap between the two is the whole story.
 *
 * <p>A crash ({@link #crash}) ends the process: its belief ends ({@code reason "crashed"}), nothing it
 * had scheduled runs, and it never hears a reply again; a request already on the wire still lands and
 * its outcome is recorded, because the service did act on it. A restart ({@link #restart}) is a fresh
 * process under the same holder name or the next one ({@code A#2}). {@link #name()} stays the
 * worker's name in the spec (what faults target); {@link #holder()} is the identity it acts under.
 */
public final class Worker {

    private static final int MAX_BLIND_RETRIES = 3;

    private final WorkerSpec spec;
    private final WorkerEnv env;
    private final Requests requests;

    /** The identity it acts under: the spec's name, or {@code name#n} after a restart as a new holder. */
    private volatile String holder;
    /** Processes so far: 1, then one more per restart. */
    private int incarnation = 1;
    /** Bumped by a crash: actions and replies scheduled by an earlier process are dropped. */
    private long life;
    private volatile boolean crashed;
    /** Bumped whenever a belief starts or ends: renew replies and deadlines of an older tenure are ignored. */
    private long tenure;
    /** Bumped on every grant and successful renewal: the renew deadline armed before it is void. */
    private long renewedMark;
    /** When the renew deadline armed last runs out (run micros); {@code Long.MAX_VALUE} with no deadline. */
    private long renewDeadlineAtMicros = Long.MAX_VALUE;
    /** Whether a job is under way (a leader between jobs has none). */
    private boolean jobInHand;

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
        this.holder = spec.name();
        this.requests = new Requests(this, env);
    }

    /** The worker's name in the spec: what faults target and executors key it by. */
    public String name() {
        return spec.name();
    }

    /** The holder identity it acts under now (differs from {@link #name()} after a restart as a new holder). */
    public String holder() {
        return holder;
    }

    /** Whether its process is up (not crashed, or restarted since). */
    public boolean running() {
        return !crashed;
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
        later(delay, this::tryAcquire);
    }

    /**
     * The process dies without releasing: its belief ends with reason {@code crashed}, everything it
     * had scheduled is dropped, and it hears no reply again. Requests already sent still land. Called by
     * the executor (a {@code CRASH} fault) on the worker's own thread of control.
     */
    public void crash() {
        life++;
        crashed = true;
        endBelief(Cause.CRASHED, "crashed");
        epoch++;
        jobInHand = false;
        outstanding = 0;
        lease = null;
    }

    /**
     * A fresh process starts where the crashed one was: no belief, no lease, its job count from zero; it
     * tries to acquire at once. With {@code newIdentity} it acts as {@code name#n}, n its incarnation
     * (2 for the first restart). Returns the holder name it acts under.
     */
    public String restart(boolean newIdentity) {
        incarnation++;
        if (newIdentity) {
            holder = spec.name() + "#" + incarnation;
        }
        crashed = false;
        done = false;
        jobsDone = 0;
        later(Duration.ZERO, this::tryAcquire);
        return holder;
    }

    /**
     * Starts now as incarnation {@code n} of this worker (a process run's agent started again after its
     * process was killed): as {@link #restart} would leave it, under {@code name#n} if {@code newIdentity}.
     */
    public void startIncarnation(int n, boolean newIdentity) {
        incarnation = n;
        if (newIdentity && n > 1) {
            holder = spec.name() + "#" + n;
        }
        later(Duration.ZERO, this::tryAcquire);
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
        if (env.finished() || done || crashed) {
            return;
        }
        String me = holder;
        rpc("acquire", true, () -> env.underSettings(() -> {
            // A lock-delay (Consul) refuses the grant before the statement: the fence SQL is the same for all.
            AcquireResult result = env.lockDelayed(spec.scope())
                    .<AcquireResult>map(d -> new AcquireResult.Busy(d.scope(), d.holder(), d.token(), d.expiresAt()))
                    .orElseGet(() -> env.leases().acquire(env.session(this), spec.scope(), me, env.leaseTtl()));
            long fencingToken = 0;
            switch (result) {
                case AcquireResult.Acquired a -> {
                    fencingToken = env.tokenScheme().tokenFor(a.lease(), env.holderClock(name()), env.random(this));
                    long token = fencingToken;
                    Long grantedAt = env.leases().countsAfterGrant() ? env.toRunMicros(a.lease().acquiredAt()) : null;
                    publish(seq -> new Event.LeaseAcquired(seq, env.nowMicros(), me, spec.scope(),
                            a.lease().token(), token, env.toRunMicros(a.lease().expiresAt()), grantedAt));
                    env.leaseChanged(this, a.lease(), false);
                }
                case AcquireResult.Busy b -> publish(seq -> new Event.LeaseBusy(seq, env.nowMicros(), me,
                        spec.scope(), b.holder(), b.token()));
                case AcquireResult.Exhausted e -> publish(seq -> new Event.LeaseExhausted(seq, env.nowMicros(),
                        me, spec.scope(), e.lastToken()));
            }
            return new Grant(result, fencingToken);
        }), this::onAcquired, this::tryAcquire);
    }

    private void onAcquired(Grant grant) {
        switch (grant.result()) {
            case AcquireResult.Acquired a -> {
                lease = a.lease();
                presentedToken = grant.fencingToken();
                believes = true;
                tenure++;
                String me = holder;
                long token = presentedToken;
                publish(seq -> new Event.BeliefStarted(seq, env.nowMicros(), me, spec.scope(), token));
                scheduleRenewal();
                armRenewDeadline();
                startJob();
            }
            case AcquireResult.Busy b -> later(env.leaseProfile().retryAfterBusy(untilExpiry(b), spec.idleTime(),
                    env.random(this)), this::tryAcquire);
            case AcquireResult.Exhausted e -> done = true;
        }
    }

    private Duration untilExpiry(AcquireResult.Busy busy) {
        if (busy.expiresAt() == null) {
            return Duration.ZERO;
        }
        return Duration.ofNanos(Math.max(0, env.toRunMicros(busy.expiresAt()) - env.nowMicros()) * 1_000);
    }

    private void startJob() {
        epoch++;
        job++;
        writeIndex = 0;
        blindRetries = 0;
        jobInHand = true;
        long myEpoch = epoch;
        later(spec.workTime(), () -> nextWrite(myEpoch));
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
            endBelief(Cause.OWN_CLOCK, "its own clock says the lease expired");
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
        TargetStore<?> target = tw.target() == TargetKind.SQL ? env.userTarget(SqlKey.fence(tw.key()))
                : env.target(tw.target(), mode);
        long token = presentedToken;
        String me = holder;
        Long opSeq = spec.sequenceWrites() ? (long) index + 1 : null;
        Object value = JobWrites.value(spec, tw, index, holder, job, token, opSeq);
        String digest = value instanceof byte[] bytes ? ValueDigest.of(bytes) : ValueDigest.of((String) value);
        publish(seq -> new Event.WriteAttempted(seq, env.nowMicros(), me, spec.scope(), token, tw.target(),
                tw.key(), opSeq));
        rpc("write", false, () -> {
            CheckedWrite written = write(target, tw.key(), token, opSeq, value);
            publish(JobWrites.outcomeEvent(written.outcome(), env, me, spec.scope(), tw, digest, token));
            if (written.contradiction() != null) {
                publish(seq -> new Event.WriteContradicted(seq, env.nowMicros(), me, spec.scope(), token, tw.target(),
                        tw.key(), written.said(), written.heldToken(), written.contradiction()));
            }
            return written.outcome();
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
    private CheckedWrite write(TargetStore<?> target, String key, long token, Long opSeq, Object value) {
        return ((TargetStore<Object>) target).writeChecked(env.session(this), spec.scope(), key, token, opSeq, value);
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
                endBelief(Cause.STALE_ANSWER, why);
                loseJob();
            }
            case REACQUIRE -> {
                endBelief(Cause.STALE_ANSWER, why);
                epoch++;
                jobInHand = false;
                later(Duration.ZERO, this::tryAcquire);
            }
            case BLIND_RETRY -> {
                if (blindRetries < MAX_BLIND_RETRIES) {
                    blindRetries++;
                    later(spec.idleTime(), () -> nextWrite(myEpoch));
                } else {
                    endBelief(Cause.STALE_ANSWER, why + " (after " + MAX_BLIND_RETRIES + " blind retries)");
                    loseJob();
                }
            }
        }
    }


    // ---- renew and release ------------------------------------------------------------------

    private void scheduleRenewal() {
        if (env.renewInterval().isZero()) {
            return;
        }
        long generation = ++renewGeneration;
        later(env.renewInterval(), () -> renew(generation));
    }

    /**
     * Under a profile with a renew deadline ({@link LeaseProfile#giveUpAfter()}): the holder stops
     * believing on its own if no renewal succeeds within it from now. Armed at the grant and at every
     * successful renewal; a later one voids the earlier.
     */
    private void armRenewDeadline() {
        Duration giveUp = env.leaseProfile().giveUpAfter();
        long mark = ++renewedMark;
        renewDeadlineAtMicros = giveUp.isZero() ? Long.MAX_VALUE : env.nowMicros() + giveUp.toNanos() / 1_000;
        if (giveUp.isZero()) {
            return;
        }
        long myTenure = tenure;
        later(giveUp, () -> {
            if (myTenure == tenure && mark == renewedMark && believes) {
                missedRenewDeadline(giveUp);
            }
        });
    }

    private void missedRenewDeadline(Duration giveUp) {
        endBelief(Cause.RENEW_DEADLINE, "renew deadline: no renewal succeeded for " + Distribution.text(giveUp));
        releaseAfterStepDown(lease);
        loseJob();
    }

    private void renew(long generation) {
        if (generation != renewGeneration || !believes || env.finished()) {
            return;
        }
        if (env.nowMicros() >= renewDeadlineAtMicros) {
            // Woken from a pause past its deadline, with the renewal and the deadline due together: the
            // deadline wins, as in client-go, whose renew request carries the already-expired deadline's context.
            missedRenewDeadline(env.leaseProfile().giveUpAfter());
            return;
        }
        Lease current = lease;
        String me = holder;
        if (env.renewalsDropped(name())) {
            publish(seq -> new Event.LeaseRenewalFailed(seq, env.nowMicros(), me, spec.scope(), current.token(),
                    "dropped by a renewal-loss fault; the holder does not know"));
            scheduleRenewal();
            return;
        }
        long myEpoch = epoch;
        long myTenure = tenure;
        rpc("renew", true, () -> env.underSettings(() -> {
            RenewResult result = env.leases().renew(env.session(this), current, env.leaseTtl());
            switch (result) {
                case RenewResult.Renewed r -> {
                    publish(seq -> new Event.LeaseRenewed(seq, env.nowMicros(), me, spec.scope(),
                            r.lease().token(), env.toRunMicros(r.lease().expiresAt())));
                    env.leaseChanged(this, r.lease(), false);
                }
                case RenewResult.NotHeld n -> publish(seq -> new Event.LeaseRenewalFailed(seq, env.nowMicros(),
                        me, spec.scope(), current.token(), "not held: the lease had expired or moved on"));
            }
            return result;
        }), result -> {
            // A job-per-lease worker stops caring about renewals once its job is over; a leader's lease outlives jobs.
            boolean stale = spec.role() == WorkerRole.JOBS ? myEpoch != epoch : myTenure != tenure;
            if (stale || generation != renewGeneration) {
                return;
            }
            switch (result) {
                case RenewResult.Renewed r -> {
                    lease = r.lease();
                    armRenewDeadline();
                    scheduleRenewal();
                }
                case RenewResult.NotHeld n -> {
                    if (env.leaseProfile().noticesLoss()) {
                        endBelief(Cause.RENEWAL_REFUSED, "renewal failed");
                        releaseAfterStepDown(lease);
                        loseJob();
                    } else {
                        // Redisson's watchdog, ShedLock's keep-alive: renewals stop, nobody tells the application.
                        renewGeneration++;
                    }
                }
            }
        }, this::scheduleRenewal);
    }

    private void finishJob() {
        jobInHand = false;
        boolean lastJob = retired || (spec.jobs() > 0 && jobsDone + 1 >= spec.jobs());
        if (spec.role() == WorkerRole.LEADER && !lastJob) {
            // The leader keeps its lease: rest, then the next job under the same token.
            epoch++;
            jobsDone++;
            long myTenure = tenure;
            later(spec.idleTime(), () -> {
                if (myTenure == tenure && believes && !env.finished()) {
                    startJob();
                }
            });
            return;
        }
        Lease finished = lease;
        String me = holder;
        epoch++;
        jobsDone++;
        rpc("release", true, () -> release(finished, me), released -> {
            if (released) {
                endBelief(Cause.RELEASED, "released");
            } else {
                endBelief(Cause.RELEASE_REFUSED, "release refused: the lease was no longer held");
            }
            nextJob();
        }, () -> {
            endBelief(Cause.RELEASE_FAILED, "release failed");
            nextJob();
        });
    }

    /** The release statement: true, with a {@code LeaseReleased} event, when the service let {@code held} go. */
    private boolean release(Lease held, String me) {
        boolean released = env.leases().release(env.session(this), held);
        if (released) {
            publish(seq -> new Event.LeaseReleased(seq, env.nowMicros(), me, spec.scope(), held.token()));
            env.leaseChanged(this, held, true);
        }
        return released;
    }

    /**
     * After it stopped leading on its own, a holder whose profile says so (client-go's
     * {@code ReleaseOnCancel}) releases the lease it held, once: a refused or failed release is left
     * at that, as client-go only logs it, and the lease runs out on the service.
     */
    private void releaseAfterStepDown(Lease held) {
        if (!env.leaseProfile().releasesOnStepDown() || held == null) {
            return;
        }
        String me = holder;
        rpc("release", true, () -> release(held, me), released -> {
        }, () -> {
        });
    }

    private void nextJob() {
        if (spec.jobs() > 0 && jobsDone >= spec.jobs()) {
            done = true;
            return;
        }
        later(spec.idleTime(), this::tryAcquire);
    }

    /**
     * The job is given up (stale, expired, renewal failed, renew deadline): it counts as done, and the
     * worker moves on; a leader is a candidate again. A leader resting between jobs loses no job.
     */
    private void loseJob() {
        epoch++;
        if (jobInHand || spec.role() == WorkerRole.JOBS) {
            jobsDone++;
        }
        jobInHand = false;
        nextJob();
    }

    private void endBelief(Cause cause, String reason) {
        if (believes) {
            believes = false;
            renewGeneration++;
            tenure++;
            long token = presentedToken;
            String me = holder;
            publish(seq -> new Event.BeliefEnded(seq, env.nowMicros(), me, spec.scope(), token, cause, reason));
        }
    }

    /** Runs {@code action} after {@code delay} unless the process crashed meanwhile. */
    void later(Duration delay, Runnable action) {
        long myLife = life;
        env.later(this, delay, () -> {
            if (myLife == life) {
                action.run();
            }
        });
    }


    /** One request to the database, sent through its {@link Requests}. */
    private <T> void rpc(String operation, boolean leaseOp, Supplier<T> statement, Consumer<T> onReply, Runnable retry) {
        requests.send(operation, leaseOp, statement, onReply, retry);
    }

    /** The current process: bumped by a crash, so what an earlier process scheduled or awaits is dropped. */
    long life() {
        return life;
    }

    void publish(java.util.function.LongFunction<? extends Event> event) {
        env.events().publish(event);
    }
}

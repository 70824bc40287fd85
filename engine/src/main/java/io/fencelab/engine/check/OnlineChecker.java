package io.fencelab.engine.check;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.SeqOrder;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.ResourceState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The safety checker fed batch by batch while a run goes on. It reads each event once, in seq
 * order, and keeps only what later witnesses may point back to, so any split of a log into batches
 * gives the {@link Judgement} {@link SafetyChecker} gives for the whole log (it is the same code).
 * It only reads the history; what it concludes stays beside it. Not thread-safe: one consumer
 * feeds it.
 */
public final class OnlineChecker {

    private final GrantOrder grants = new GrantOrder();
    private final LeaseHistory history = new LeaseHistory();
    private final ResourceWrites writes = new ResourceWrites();
    private final IssuedTokens issued = new IssuedTokens();
    private final ReplacedTokenChain chain = new ReplacedTokenChain();
    private final List<Witness> witnesses = new ArrayList<>();
    private final WriteClasses.Ledger writeClasses = new WriteClasses.Ledger();
    /** holder, scope and presented token of each grant, to the grant's seq: the write's generation. */
    private final Map<String, Long> grantSeqs = new HashMap<>();
    /** scope and presented token to the seq of the latest grant that presented it: a replaced token's generation. */
    private final Map<String, Long> tokenGrants = new HashMap<>();
    private long lastSeq;
    private long lastAtMicros;
    /** The run's RunEnded, if it was the last event accepted. */
    private Event.RunEnded ended;

    /**
     * Judges the next events of the log and returns the witnesses they newly reveal (empty if none).
     * The batch may be in any order; it must come after every event already accepted.
     *
     * @throws IllegalArgumentException if an event's seq is not after the last one accepted, since
     *                                  the invariants are about order and a replayed event would be
     *                                  judged twice
     */
    public List<Witness> accept(List<? extends Event> batch) {
        List<Event> ordered = SeqOrder.after(lastSeq, batch, "the checker");
        int before = witnesses.size();
        for (Event event : ordered) {
            judge(event);
            lastSeq = event.seq();
            lastAtMicros = event.atMicros();
            ended = event instanceof Event.RunEnded e ? e : null;
        }
        return List.copyOf(witnesses.subList(before, witnesses.size()));
    }

    /** The verdict on the events accepted so far. */
    public Verdict verdict() {
        return Verdict.of(witnesses);
    }

    /** The judgement of the events accepted so far (the final state not judged). */
    public Judgement judgement() {
        return new Judgement(verdict(), writeClasses.snapshot(), writes.kept(), false, end());
    }

    /**
     * The judgement of the events accepted so far and the run's final state (usually from
     * {@link FinalStateLoader}); final-state witnesses follow the log's, in resource order.
     */
    public Judgement judgement(List<ResourceState> finalState) {
        List<Witness> all = new ArrayList<>(witnesses);
        all.addAll(FinalStateCheck.judge(writes.summaries(), finalState));
        return new Judgement(Verdict.of(all), writeClasses.snapshot(), writes.kept(), true, end());
    }


    /** How the events accepted so far end: with RunEnded, or incomplete. */
    public LogEnd end() {
        return ended != null ? new LogEnd.Ended(ended.seq(), ended.atMicros(), ended.ending())
                : new LogEnd.Incomplete(lastSeq, lastAtMicros);
    }

    /** The seq of the last event accepted, 0 before the first. */
    public long lastSeq() {
        return lastSeq;
    }

    private static String tokenKey(String scope, long token) {
        return scope + "\u0000" + token;
    }

    private static String grantKey(String holder, String scope, long token) {
        return holder + "\u0000" + scope + "\u0000" + token;
    }

    /** A write's presented token, judged against the grants so far. */
    private void presented(Event write, ResourceId id) {
        witnesses.addAll(issued.presented(write, id));
    }

    /** A write's outcome: its token judged, and the request it answers no longer open. */
    private void answered(Event outcome, ResourceId id) {
        presented(outcome, id);
        chain.answered(id, outcome.holder(), outcome.tokenOrNull());
    }

    private void judge(Event event) {
        switch (event) {
            case Event.LeaseAcquired grant -> {
                witnesses.addAll(grants.accept(grant));
                history.granted(grant);
                grantSeqs.put(grantKey(grant.holder(), grant.scope(), grant.fencingToken()), grant.seq());
                tokenGrants.put(tokenKey(grant.scope(), grant.fencingToken()), grant.seq());
                witnesses.addAll(issued.granted(grant));
            }
            case Event.LeaseRenewed renewal -> history.renewed(renewal);
            case Event.LeaseExpired expiry -> history.expired(expiry);
            case Event.PauseStarted start -> history.pauseStarted(start);
            case Event.PauseEnded end -> history.pauseEnded(end);
            case Event.WriteAccepted write -> {
                ResourceId id = ResourceWrites.idOf(write);
                answered(write, id);
                long grant = grantSeqs.getOrDefault(grantKey(write.holder(), write.scope(), write.token()),
                        ResourceWrites.UNKNOWN_GRANT);
                long replacedGrant = write.replacedToken() == null ? ResourceWrites.UNKNOWN_GRANT
                        : tokenGrants.getOrDefault(tokenKey(write.scope(), write.replacedToken()),
                                ResourceWrites.UNKNOWN_GRANT);
                chain.accepted(id, write, write.replacedToken() == null ? null
                        : writes.newestNewerThan(id, write.replacedToken(), replacedGrant));
                ResourceWrites.Found found = writes.accept(write, grant, replacedGrant);
                writeClasses.add(found.staleOverwrite()
                        ? new WriteJudgement(write.seq(), WriteClass.STALE_OVERWRITE, found.overwrittenToken(),
                                found.overwritten() == null ? 0 : found.overwritten().seq())
                        : new WriteJudgement(write.seq(), WriteClass.ACCEPTED, null, 0));
                for (ResourceWrites.Overwrite o : found.overwrites()) {
                    witnesses.add(StaleOverwriteWitness.of(o.stale(), o.newer(), history));
                }
            }
            // A rejected write is the fence working: classified, never a violation.
            case Event.WriteRejectedStale rejected -> {
                answered(rejected, new ResourceId(rejected.target(), rejected.scope(), rejected.key()));
                writeClasses.add(new WriteJudgement(rejected.seq(), WriteClass.REJECTED_STALE, rejected.highest(), 0));
            }
            case Event.WriteMissing missing -> {
                answered(missing, new ResourceId(missing.target(), missing.scope(), missing.key()));
                writeClasses.add(new WriteJudgement(missing.seq(), WriteClass.MISSING, null, 0));
            }
            case Event.WriteOutOfOrder refused -> {
                answered(refused, new ResourceId(refused.target(), refused.scope(), refused.key()));
                writeClasses.add(new WriteJudgement(refused.seq(), WriteClass.OUT_OF_ORDER, null, 0));
            }
            // The statement's word against its row: a witness of its own, whatever the tokens say.
            case Event.WriteContradicted contradicted -> witnesses.add(new Witness(Invariant.OUTCOME_CONTRADICTED,
                    contradicted.holder() + "'s write with token " + contradicted.token() + " to "
                            + new ResourceId(contradicted.target(), contradicted.scope(), contradicted.key()) + ": "
                            + contradicted.detail(), List.of(contradicted.seq())));
            case Event.WriteAttempted attempt -> {
                ResourceId id = new ResourceId(attempt.target(), attempt.scope(), attempt.key());
                presented(attempt, id);
                chain.sent(id, attempt.holder(), attempt.token());
            }
            // The log is whole: what the chain of replaced tokens never bore out is a contradiction.
            case Event.RunEnded ignored -> witnesses.addAll(chain.contradictions());
            // The other events tell no safety fact on their own.
            case Event.LeaseBusy ignored -> { }
            case Event.LeaseExhausted ignored -> { }
            case Event.LeaseRenewalFailed ignored -> { }
            case Event.LeaseReleased ignored -> { }
            case Event.FaultInjected ignored -> { }
            case Event.FaultHealed ignored -> { }
            case Event.SettingChanged ignored -> { }
            // Where a holder runs and how its host's clock stands never enter the verdict.
            case Event.AgentReport ignored -> { }
            case Event.BeliefStarted ignored -> { }
            case Event.BeliefEnded ignored -> { }
            case Event.OperationFailed ignored -> { }
            case Event.RunStarted ignored -> { }
        }
    }
}

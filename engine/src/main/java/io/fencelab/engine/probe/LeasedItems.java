package io.fencelab.engine.probe;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.probe.Trial.Written;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The items whose holders take real leases from Fencelab's lease service: the design note's nine
 * steps, and a stale holder's multi-target job. The lease's time is a {@link VirtualClock}, passed
 * to the database as the instant expiry is judged at, so "A pauses past its expiry" takes no real time
 * and the tokens are the ones the service really grants.
 */
final class LeasedItems {

    static final Duration TTL = Duration.ofSeconds(30);

    private LeasedItems() {
    }

    /**
     * Acquire N, pause, expire, acquire N+1, write N+1, resume, write N: refused, and the row holds
     * N+1's body.
     */
    static ItemVerdict staleHolderRejected(Database database, Trial t) {
        ProbeSubject s = t.subject();
        Holders h = Holders.start(database, "probe " + s.name() + " stale holder", s.scope(), s.above(41));
        Lease a = h.acquire("A");
        t.note("A acquires token " + a.token() + " on scope " + s.scope() + " (lease " + TTL.toSeconds() + " s)");
        h.clock.advance(Duration.ofSeconds(10));
        t.note("A pauses at 10 s");
        h.clock.advance(TTL.minusSeconds(10).plusSeconds(1));
        t.note("A's lease expires at " + TTL.toSeconds() + " s while it is paused");
        Lease b = h.acquire("B");
        t.note("B acquires token " + b.token() + " at " + h.clock.elapsed().toSeconds() + " s");
        Written newer = t.write("B", b.token());
        if (!newer.cleanlyAccepted(b.token())) {
            return t.fails("B's write under its current token " + b.token() + " " + newer.whyNotAccepted(b.token()));
        }
        h.clock.advance(Duration.ofSeconds(10));
        t.note("A resumes at " + h.clock.elapsed().toSeconds() + " s, still holding token " + a.token());
        Written stale = t.write("A", a.token());
        if (stale.accepted()) {
            return t.fails("A's write under its expired token " + a.token() + " was accepted after B wrote "
                    + b.token() + (stale.rowIsMine(a.token()) ? ": the row now holds A's body" : ""));
        }
        if (!stale.rowIs(newer, b.token())) {
            return t.fails("A's write under " + a.token() + " was answered "
                    + stale.said().name().toLowerCase(java.util.Locale.ROOT) + ", yet the row no longer holds B's body "
                    + "under " + b.token());
        }
        return t.holds("A's write under expired token " + a.token() + " refused; the row keeps B's body and token "
                + b.token());
    }

    /**
     * A newer holder writes every fence, then a stale holder's job writes each: every write refused.
     * One verdict per fence, all from the same trial (the trial's schema holds every fence): a fence
     * fails when its own write let the stale holder through, so the verdicts point at the open target.
     */
    static List<ItemVerdict> everyTargetFenced(Database database, Trial t, List<ProbeSubject> subjects) {
        ProbeSubject first = subjects.getFirst();
        long start = subjects.stream().mapToLong(s -> s.above(41)).max().orElseThrow();
        Holders h = Holders.start(database, "probe every target", first.scope(), start);
        Lease a = h.acquire("A");
        t.note("A acquires token " + a.token() + " and pauses past its lease's expiry");
        h.clock.advance(TTL.plusSeconds(1));
        Lease b = h.acquire("B");
        t.note("B acquires token " + b.token());
        List<Written> newer = new ArrayList<>();
        for (ProbeSubject s : subjects) {
            newer.add(t.write(s.fence(), s.scope(), s.key(), "B", b.token()));
        }
        t.note("A resumes and runs its job, writing every target under token " + a.token());
        List<ItemVerdict> verdicts = new ArrayList<>();
        for (int i = 0; i < subjects.size(); i++) {
            ProbeSubject s = subjects.get(i);
            Written before = newer.get(i);
            Written w = t.write(s.fence(), s.scope(), s.key(), "A", a.token());
            String target = s.name() + " (target " + (i + 1) + " of " + subjects.size() + " of the job)";
            if (!before.cleanlyAccepted(b.token())) {
                verdicts.add(t.fails(s.name(), "B's write to " + target + " under its current token " + b.token() + " "
                        + before.whyNotAccepted(b.token())));
            } else if (w.accepted() || !w.rowIs(before, b.token())) {
                verdicts.add(t.fails(s.name(), "the stale holder's write to " + target + " under " + a.token()
                        + " was " + (w.accepted() ? "accepted" : "refused, yet the row changed") + " after B wrote "
                        + b.token()));
            } else {
                verdicts.add(t.holds(s.name(), "the stale holder's write to " + target + " under " + a.token()
                        + " refused after B wrote " + b.token()));
            }
        }
        return verdicts;
    }

    /** A lease service of its own run, on a virtual clock, with the scope's next token chosen. */
    private record Holders(LeaseService leases, VirtualClock clock, String scope) {

        static Holders start(Database database, String label, String scope, long firstToken) {
            RunContext run = database.newRun(label);
            VirtualClock clock = new VirtualClock();
            LeaseService leases = new LeaseService(run, clock);
            leases.startScope(scope, firstToken);
            return new Holders(leases, clock, scope);
        }

        Lease acquire(String holder) {
            return leases.acquire(scope, holder, TTL).orThrow();
        }
    }
}

package io.fencelab.engine.soak;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.WriteAccepted;
import io.fencelab.engine.resource.ResourceId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One run's checker judgement held against the audit's ({@link AuditJudge}).
 *
 * <p>Writes are paired by resource, token and replaced token: the log's {@code WriteAccepted} says
 * which token each write replaced, as the database reported it, and the audit records the same two
 * tokens, so a pair needs no report order (live threads report concurrent writes in any order).
 * Within such a group the writes are interchangeable, so the group's counts are compared: applied
 * and logged, stale by the audit and {@link WriteClass#STALE_OVERWRITE} by the checker.
 *
 * <p>What the audit cannot confirm, it does not pretend to: it has no lease history, so
 * {@link Invariant#NON_MONOTONIC_GRANT}, {@link Invariant#NON_MONOTONIC_COUNTER},
 * {@link Invariant#UNISSUED_TOKEN} and {@link Invariant#CONTRADICTORY_REPLACED_TOKEN} witnesses are
 * outside it; it has no values, so a final state that differs from the expected write only in its
 * value (same token) is outside it; refused writes (stale, out of order, missing) change nothing, so
 * it never sees them; and on a resource whose tokens it cannot place in grant order it judges
 * nothing. Those are counted as outside the audit, never as confirmed.
 *
 * @param verdict               the checker's verdict
 * @param checkerUnsafe         the checker found a stale overwrite on a resource the audit can order
 * @param auditUnsafe           the audit found one
 * @param writesCompared        applied writes on resources the audit can order
 * @param classMismatches       groups where the audit and the checker count different stale overwrites
 * @param appliedNotLogged      applied by the database, missing from the log
 * @param loggedNotApplied      logged as accepted, never applied by the database
 * @param witnessesConfirmed    witnesses the audit shows
 * @param witnessesNotConfirmed witnesses the audit contradicts or cannot find
 * @param witnessesOutside      witnesses about what the audit does not record
 * @param unorderedResources    resources whose tokens the audit cannot place in grant order
 * @param problems              each disagreement in a line
 */
public record Comparison(Verdict.Kind verdict, boolean checkerUnsafe, boolean auditUnsafe, int writesCompared,
                         int classMismatches, int appliedNotLogged, int loggedNotApplied, int witnessesConfirmed,
                         int witnessesNotConfirmed, int witnessesOutside, int unorderedResources,
                         List<String> problems) {

    public Comparison {
        problems = List.copyOf(problems);
    }

    /** The checker saw no stale overwrite where the audit shows one. */
    public boolean falseSafe() {
        return auditUnsafe && !checkerUnsafe;
    }

    /** The checker saw a stale overwrite where the audit shows none. */
    public boolean falseViolated() {
        return checkerUnsafe && !auditUnsafe;
    }

    /** Whether anything the audit can judge disagrees with the checker. */
    public boolean disagrees() {
        return !problems.isEmpty();
    }

    private record Group(ResourceId resource, long token, Long replaced) {}

    private static final class Counts {
        int applied;
        int auditStale;
        int logged;
        int checkerStale;
    }

    /** Compares {@code judgement} of the run whose log is {@code events} with the audit's {@code audit}. */
    public static Comparison of(Judgement judgement, List<? extends Event> events, AuditJudge.Judged audit) {
        Map<Group, Counts> groups = new HashMap<>();
        for (AuditJudge.Write w : audit.writes()) {
            if (audit.unordered().contains(w.resource())) {
                continue;
            }
            Counts c = groups.computeIfAbsent(new Group(w.resource(), w.entry().token(), w.entry().previousToken()),
                    k -> new Counts());
            c.applied++;
            if (w.stale()) {
                c.auditStale++;
            }
        }
        Map<Long, WriteAccepted> accepted = new HashMap<>();
        for (Event e : events) {
            if (e instanceof WriteAccepted w) {
                accepted.put(w.seq(), w);
                ResourceId id = idOf(w);
                if (audit.unordered().contains(id)) {
                    continue;
                }
                Counts c = groups.computeIfAbsent(new Group(id, w.token(), w.replacedToken()), k -> new Counts());
                c.logged++;
                if (judgement.classOf(w.seq()) == WriteClass.STALE_OVERWRITE) {
                    c.checkerStale++;
                }
            }
        }
        List<String> problems = new ArrayList<>();
        int compared = 0;
        int mismatches = 0;
        int notLogged = 0;
        int notApplied = 0;
        boolean checkerUnsafe = false;
        for (Map.Entry<Group, Counts> entry : groups.entrySet()) {
            Group g = entry.getKey();
            Counts c = entry.getValue();
            compared += c.applied;
            checkerUnsafe |= c.checkerStale > 0;
            String what = "%s token %d over %s".formatted(g.resource(), g.token(),
                    g.replaced() == null ? "nothing (created)" : "token " + g.replaced());
            if (c.applied > c.logged) {
                notLogged += c.applied - c.logged;
                problems.add("%s: the database applied %d write(s), the log reports %d".formatted(what, c.applied,
                        c.logged));
            } else if (c.logged > c.applied) {
                notApplied += c.logged - c.applied;
                problems.add("%s: the log reports %d accepted write(s), the database applied %d".formatted(what,
                        c.logged, c.applied));
            }
            if (c.auditStale != c.checkerStale) {
                mismatches++;
                problems.add("%s: the audit shows %d stale overwrite(s), the checker classified %d".formatted(what,
                        c.auditStale, c.checkerStale));
            }
        }
        int confirmed = 0;
        int notConfirmed = 0;
        int outside = 0;
        for (Witness w : judgement.verdict().witnesses()) {
            switch (confirm(w, judgement, accepted, audit, groups)) {
                case CONFIRMED -> confirmed++;
                case OUTSIDE -> outside++;
                case NOT_CONFIRMED -> {
                    notConfirmed++;
                    problems.add("witness not confirmed by the audit: " + w.invariant() + ": " + w.summary());
                }
            }
        }
        if (audit.unsafe() && !checkerUnsafe) {
            problems.addFirst("false SAFE: the audit shows " + audit.staleCount()
                    + " stale overwrite(s) the checker did not classify");
        } else if (checkerUnsafe && !audit.unsafe()) {
            problems.addFirst("false VIOLATED: the checker classified stale overwrites the audit does not show");
        }
        return new Comparison(judgement.verdict().kind(), checkerUnsafe, audit.unsafe(), compared, mismatches,
                notLogged, notApplied, confirmed, notConfirmed, outside, audit.unordered().size(), problems);
    }

    private enum Confirmation { CONFIRMED, NOT_CONFIRMED, OUTSIDE }

    private static Confirmation confirm(Witness w, Judgement judgement, Map<Long, WriteAccepted> accepted,
                                        AuditJudge.Judged audit, Map<Group, Counts> groups) {
        return switch (w.invariant()) {
            // The audit records writes, not grants, and neither the tokens presented nor the log's own consistency.
            case NON_MONOTONIC_GRANT, NON_MONOTONIC_COUNTER, UNISSUED_TOKEN, CONTRADICTORY_REPLACED_TOKEN,
                 OUTCOME_CONTRADICTED ->
                    Confirmation.OUTSIDE;
            case STALE_OVERWRITE -> {
                WriteAccepted stale = w.eventSeqs().stream().map(accepted::get).filter(Objects::nonNull)
                        .filter(a -> judgement.classOf(a.seq()) == WriteClass.STALE_OVERWRITE)
                        .reduce((a, b) -> b).orElse(null);
                if (stale == null) {
                    yield Confirmation.NOT_CONFIRMED;
                }
                if (audit.unordered().contains(idOf(stale))) {
                    yield Confirmation.OUTSIDE;
                }
                Counts c = groups.get(new Group(idOf(stale), stale.token(), stale.replacedToken()));
                yield c != null && c.auditStale > 0 ? Confirmation.CONFIRMED : Confirmation.NOT_CONFIRMED;
            }
            case FINAL_STATE_MISMATCH -> {
                // The first seq is the write the resource should hold.
                WriteAccepted want = accepted.get(w.eventSeqs().getFirst());
                if (want == null) {
                    yield Confirmation.NOT_CONFIRMED;
                }
                AuditJudge.Write last = audit.last().get(idOf(want));
                if (last == null || last.entry().token() != want.token()) {
                    yield Confirmation.CONFIRMED;
                }
                // Same token: the values differ, and the audit keeps no values.
                yield Confirmation.OUTSIDE;
            }
        };
    }

    private static ResourceId idOf(WriteAccepted w) {
        return new ResourceId(w.target(), w.scope(), w.key());
    }
}

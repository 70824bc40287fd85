package io.fencelab.engine.check;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event.LeaseAcquired;
import io.fencelab.engine.event.Event.LeaseExpired;
import io.fencelab.engine.event.Event.WriteAccepted;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Builds the minimal witness of a stale overwrite, the paused-holder timeline: the stale holder's
 * grant, the pause during which its lease ran out (if any), its lease's expiry, the newer holder's
 * grant and write, and the stale write. Nothing else, so a reader can follow it in one glance.
 */
final class StaleOverwriteWitness {

    private StaleOverwriteWitness() {
    }

    static Witness of(WriteAccepted stale, WriteAccepted newer, LeaseHistory history) {
        TreeSet<Long> seqs = new TreeSet<>();
        List<String> story = new ArrayList<>();
        String a = stale.holder();

        Optional<LeaseAcquired> staleGrant = history.grant(stale.scope(), a, stale.token(), stale.seq());
        staleGrant.ifPresentOrElse(
                g -> seqs.add(g.seq()),
                () -> story.add("no grant of token %d to %s is in the log".formatted(stale.token(), a)));
        staleGrant.ifPresent(g -> explainExpiry(g, stale, history, seqs, story));

        history.grant(newer.scope(), newer.holder(), newer.token(), newer.seq()).ifPresent(g -> seqs.add(g.seq()));
        seqs.add(newer.seq());
        seqs.add(stale.seq());

        String summary = "%s wrote with token %d at %s over %s's write with token %d (%s) on %s".formatted(
                a, stale.token(), RunTimes.seconds(stale.atMicros()), newer.holder(), newer.token(),
                RunTimes.seconds(newer.atMicros()), ResourceWrites.idOf(stale));
        if (stale.token() >= newer.token()) {
            story.addFirst("%s's lease was granted before %s's, but its token is not smaller: the tokens do not follow "
                    .formatted(a, newer.holder()) + "the order of the grants");
        }
        if (!story.isEmpty()) {
            summary += "; " + String.join("; ", story);
        }
        return new Witness(Invariant.STALE_OVERWRITE, summary, List.copyOf(seqs));
    }

    /**
     * Adds the lease's expiry and the one pause that explains the stale write: the pause during which
     * the lease ran out, or failing that the latest pause before the write.
     */
    private static void explainExpiry(LeaseAcquired grant, WriteAccepted stale, LeaseHistory history,
                                      TreeSet<Long> seqs, List<String> story) {
        String a = stale.holder();
        Optional<LeaseExpired> expiry = history.expiry(grant, stale.seq());
        expiry.ifPresent(x -> seqs.add(x.seq()));
        OptionalLong expiredAt = expiry.isPresent() ? OptionalLong.of(expiry.get().atMicros()) : history.dueMicros(grant);

        List<LeaseHistory.Pause> pauses = history.pausesBetween(a, grant.seq(), stale.seq());
        Optional<LeaseHistory.Pause> pause = pauses.stream()
                .filter(p -> expiredAt.isPresent() && p.covers(expiredAt.getAsLong()))
                .findFirst()
                .or(() -> pauses.isEmpty() ? Optional.empty() : Optional.of(pauses.getLast()));
        pause.ifPresent(p -> {
            seqs.add(p.start().seq());
            if (p.end() != null) {
                seqs.add(p.end().seq());
            }
        });

        String pauseText = pause.map(p -> "%s was paused (%s–%s)".formatted(a, RunTimes.seconds(p.start().atMicros()),
                p.end() == null ? "" : RunTimes.seconds(p.end().atMicros()))).orElse(null);
        if (expiredAt.isEmpty()) {
            if (pauseText != null) {
                story.add(pauseText);
            }
            return;
        }
        String lease = expiry.isPresent()
                ? "%s's lease expired at %s".formatted(a, RunTimes.seconds(expiredAt.getAsLong()))
                : "%s's lease was due to expire at %s".formatted(a, RunTimes.seconds(expiredAt.getAsLong()));
        if (pauseText == null) {
            story.add(lease);
        } else if (pause.get().covers(expiredAt.getAsLong())) {
            story.add(lease + " while " + pauseText);
        } else {
            story.add(lease + "; " + pauseText);
        }
    }
}

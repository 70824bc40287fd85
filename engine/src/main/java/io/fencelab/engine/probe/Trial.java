package io.fencelab.engine.probe;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.fence.ReadBack;
import io.fencelab.engine.fence.Said;
import io.fencelab.engine.fence.ScratchSchema;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlTarget;
import io.fencelab.engine.fence.SqlWriteResult;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One checklist item's trial of a fence: a fresh scratch schema with the fences' objects and setup
 * rows, one session (as a holder would hold), and the steps taken so far, which become the witness
 * when the item fails. Not thread-safe.
 */
final class Trial implements AutoCloseable {

    private static final java.util.regex.Pattern OUR_BODY =
            java.util.regex.Pattern.compile("[A-Z] token -?\\d+ seq \\d+");

    private final Database database;
    private final ScratchSchema schema;
    private final Session session;
    private final ProbeSubject subject;
    private final ChecklistItem item;
    private final List<WitnessStep> steps = new ArrayList<>();
    private long seq;

    private Trial(Database database, ScratchSchema schema, Session session, ProbeSubject subject, ChecklistItem item) {
        this.database = database;
        this.schema = schema;
        this.session = session;
        this.subject = subject;
        this.item = item;
    }

    /**
     * A fresh scratch schema named after {@code label} holding {@code fences} (the subject's alone
     * for every item but the multi-target one).
     */
    static Trial open(Database database, String label, List<SqlFence> fences, boolean keep, ProbeSubject subject,
                      ChecklistItem item) {
        ScratchSchema schema = ScratchSchema.create(database, label, fences, keep);
        try {
            return new Trial(database, schema, database.openSession(), subject, item);
        } catch (RuntimeException e) {
            schema.close();
            throw e;
        }
    }

    ProbeSubject subject() {
        return subject;
    }

    Session session() {
        return session;
    }

    SqlTarget target(String fence) {
        return schema.target(fence);
    }

    /** A step that is not a write (a lease acquired, time passing), for the witness. */
    void note(String action) {
        steps.add(new WitnessStep(action, null, null, null, null, null));
    }

    /** Writes to the subject's fence, key and scope as {@code holder} under {@code token}, and records it. */
    Written write(String holder, long token) {
        return write(subject.fence(), subject.scope(), subject.key(), holder, token);
    }

    /** Writes to {@code fence} at {@code key} in {@code scope}, and records the step. */
    Written write(SqlFence fence, String scope, String key, String holder, long token) {
        long mySeq = ++seq;
        String body = body(holder, token, mySeq);
        String action = "write token " + token + " to " + where(fence, scope, key) + " as holder " + holder;
        return record(fence, scope, key, action, body, () -> target(fence.name())
                .write(session, scope, key, token, mySeq, body, () -> { }));
    }

    /**
     * As {@link #write(String, long)}, with {@code inGap} run between the statements of a
     * several-statement write: where a check-then-write lets another holder in.
     */
    Written writeWithGap(String holder, long token, Runnable inGap) {
        long mySeq = ++seq;
        String body = body(holder, token, mySeq);
        SqlFence fence = subject.fence();
        String action = "holder " + holder + "'s write with token " + token + " goes on after the gap";
        return record(fence, subject.scope(), subject.key(), action, body, () -> target(fence.name())
                .write(session, subject.scope(), subject.key(), token, mySeq, body, inGap));
    }

    /** As {@link #write(String, long)} on {@code other}, a second holder's own session. */
    Written writeOn(Session other, String holder, long token) {
        long mySeq = ++seq;
        String body = body(holder, token, mySeq);
        SqlFence fence = subject.fence();
        String action = "write token " + token + " to " + where(fence, subject.scope(), subject.key()) + " as holder "
                + holder;
        return record(fence, subject.scope(), subject.key(), action, body, () -> target(fence.name())
                .write(other, subject.scope(), subject.key(), token, mySeq, body, () -> { }));
    }

    /** A fresh session of the trial's database, for a second holder. */
    Session otherSession() {
        return database.openSession();
    }

    /** As {@link #write(String, long)}, inside a transaction that is rolled back. */
    Written writeRolledBack(String holder, long token) {
        long mySeq = ++seq;
        String body = body(holder, token, mySeq);
        SqlFence fence = subject.fence();
        String action = "write token " + token + " to " + where(fence, subject.scope(), subject.key())
                + " as holder " + holder + " in a transaction, then ROLLBACK";
        return record(fence, subject.scope(), subject.key(), action, body, () -> target(fence.name())
                .writeRolledBack(session, subject.scope(), subject.key(), token, mySeq, body));
    }

    /** The row of the subject's key as it stands, recorded as a step. */
    ReadBack read(String action) {
        ReadBack row = read(subject.fence(), subject.scope(), subject.key());
        steps.add(new WitnessStep(action, subject.fence().read().where(), null, row.token(), shown(row.body()), null));
        return row;
    }

    ReadBack read(SqlFence fence, String scope, String key) {
        return target(fence.name()).read(session, scope, key);
    }

    private Written record(SqlFence fence, String scope, String key, String action, String body,
                           java.util.function.Supplier<SqlWriteResult> send) {
        String statement = fence.write().getFirst().where();
        try {
            SqlWriteResult r = send.get();
            String said = r.said().name().toLowerCase(Locale.ROOT)
                    + (r.contradiction() == null ? "" : " (contradiction: " + r.contradiction() + ")");
            steps.add(new WitnessStep(action, statement, said, r.readBack().token(), shown(r.readBack().body()), null));
            return new Written(body, r.said(), r.readBack(), r.contradiction(), null);
        } catch (DatabaseException e) {
            // A statement error (22003 for an int4 column past 2^31-1, say) is an answer too: the
            // witness names its SQL state, and the row is read as it stands after the rollback.
            ReadBack row = safeRead(fence, scope, key);
            steps.add(new WitnessStep(action, statement, "error: " + e.reason(), row.token(), shown(row.body()), null));
            return new Written(body, null, row, null, e.reason());
        }
    }

    private ReadBack safeRead(SqlFence fence, String scope, String key) {
        try {
            return read(fence, scope, key);
        } catch (DatabaseException e) {
            return ReadBack.ABSENT;
        }
    }

    ItemVerdict holds(String summary) {
        return new ItemVerdict(subject.name(), item, Status.HOLDS, summary, List.of());
    }

    ItemVerdict fails(String summary) {
        return fails(subject.name(), summary);
    }

    /** A failure of {@code fence}, another fence of the trial than its subject (the multi-target item). */
    ItemVerdict fails(String fence, String summary) {
        return new ItemVerdict(fence, item, Status.FAILS, summary, steps);
    }

    ItemVerdict holds(String fence, String summary) {
        return new ItemVerdict(fence, item, Status.HOLDS, summary, List.of());
    }

    ItemVerdict notApplicable(String why) {
        return new ItemVerdict(subject.name(), item, Status.NOT_APPLICABLE, why, List.of());
    }

    List<WitnessStep> steps() {
        return List.copyOf(steps);
    }

    @Override
    public void close() {
        try {
            session.close();
        } finally {
            schema.close();
        }
    }

    /** The body of a probe's write: whose, which token, which operation, so the row tells who wrote it. */
    static String body(String holder, long token, long seq) {
        return holder + " token " + token + " seq " + seq;
    }

    /**
     * A body as a witness shows it: the probe's own bodies as they are, anything else (what setup: or
     * the user's trigger put there) only as that, so no user data leaves the database.
     */
    static String shown(String body) {
        if (body == null || body.isEmpty() || OUR_BODY.matcher(body).matches()) {
            return body;
        }
        return "(a body the probe did not write)";
    }

    static String where(SqlFence fence, String scope, String key) {
        return fence.name() + " key " + key + " (scope " + scope + ")";
    }

    /**
     * One write as the trial saw it.
     *
     * @param said  what the statement answered; null when it failed with an error the rule does not name
     * @param error the error's reason (with its SQL state), else null
     */
    record Written(String body, Said said, ReadBack row, String contradiction, String error) {

        boolean accepted() {
            return said == Said.ACCEPTED;
        }

        /** The statement answered (no error) and did not accept. */
        boolean refused() {
            return said != null && said != Said.ACCEPTED;
        }

        /** The row holds this write's body under {@code token}, exactly. */
        boolean rowIsMine(long token) {
            return row.exists() && body.equals(row.body()) && row.holdsToken(token);
        }

        /** The row holds {@code other}'s body under {@code token}, exactly. */
        boolean rowIs(Written other, long token) {
            return row.exists() && other.body.equals(row.body()) && row.holdsToken(token);
        }

        /** Accepted, no contradiction, and the row holds it exactly. */
        boolean cleanlyAccepted(long token) {
            return accepted() && contradiction == null && rowIsMine(token);
        }

        /** What went wrong with a write that should have been accepted, in a few words. */
        String whyNotAccepted(long token) {
            if (error != null) {
                return "failed with " + error;
            }
            if (!accepted()) {
                return "was answered " + said.name().toLowerCase(Locale.ROOT);
            }
            if (!row.exists()) {
                return "was answered accepted, but no row holds it";
            }
            if (body.equals(row.body())) {
                return "was accepted, but the row holds it under token " + row.token() + ", not " + token;
            }
            return "was answered accepted, but the row holds token " + row.token() + " with another body";
        }
    }
}

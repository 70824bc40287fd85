package io.fencelab.engine.probe;

import io.fencelab.engine.db.Session;
import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.ReadBack;
import io.fencelab.engine.fence.Said;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.probe.Trial.Written;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The checklist items that are a short, fixed sequence of writes on one trial: each says what it
 * expects after every write and stops at the first write that breaks it, so the witness ends with
 * the step that shows the hole.
 */
final class DirectedItems {

    /** How long "later" is for a stale token's retry: longer than any per-second rule a fence may have. */
    static final Duration LATER = Duration.ofMillis(1100);

    /** The three pairs: the first fits the narrower type, the second does not. */
    static final long[][] LARGE_PAIRS = {
            {Integer.MAX_VALUE, 1L << 31},
            {1L << 53, (1L << 53) + 1},
            {Long.MAX_VALUE - 1, Long.MAX_VALUE}};

    private static final Pattern SCOPE_PARAMETER = Pattern.compile("(?<!:):scope\\b");

    private DirectedItems() {
    }

    /** 9 then 10, then 9 again (refused), 99 then 100: a {@code text} column refuses 10 after 9. */
    static ItemVerdict numericComparison(Trial t) {
        if (t.subject().floor() >= 9) {
            return t.notApplicable("setup stores token " + t.subject().floor() + " at key " + t.subject().key()
                    + ", so 9 then 10 cannot be tried there; store a token below 9 in setup: to try it");
        }
        Written nine = t.write("A", 9);
        if (!nine.cleanlyAccepted(9)) {
            return t.fails("the first write, token 9, " + nine.whyNotAccepted(9));
        }
        Written ten = t.write("B", 10);
        if (!ten.cleanlyAccepted(10)) {
            return t.fails("token 10 after 9 " + ten.whyNotAccepted(10) + ": tokens are not compared as numbers");
        }
        Written nineAgain = t.write("A", 9);
        if (nineAgain.accepted() || !nineAgain.rowIs(ten, 10)) {
            return t.fails("token 9 after 10 " + (nineAgain.accepted() ? "was accepted" : "changed the row")
                    + ": the older token overwrote the newer one");
        }
        Written ninetyNine = t.write("C", 99);
        if (!ninetyNine.cleanlyAccepted(99)) {
            return t.fails("token 99 after 10 " + ninetyNine.whyNotAccepted(99));
        }
        Written hundred = t.write("D", 100);
        if (!hundred.cleanlyAccepted(100)) {
            return t.fails("token 100 after 99 " + hundred.whyNotAccepted(100)
                    + ": tokens are not compared as numbers");
        }
        return t.holds("9 then 10 and 99 then 100 accepted and held; 9 after 10 refused");
    }

    /** 2^31-1 then 2^31, 2^53 then 2^53+1, Long.MAX_VALUE-1 then Long.MAX_VALUE, each read back exactly. */
    static ItemVerdict largeTokens(Trial t) {
        char holder = 'A';
        for (long[] pair : LARGE_PAIRS) {
            for (long token : pair) {
                if (token <= t.subject().floor()) {
                    continue;
                }
                Written w = t.write(String.valueOf(holder++), token);
                if (!w.cleanlyAccepted(token)) {
                    return t.fails("token " + token + " " + w.whyNotAccepted(token));
                }
            }
        }
        return t.holds("every large token accepted and read back exactly, up to " + Long.MAX_VALUE);
    }

    /** The same token twice: the second follows the declared {@code equalToken:} rule. */
    static ItemVerdict equalToken(Trial t) {
        long token = t.subject().above(41);
        Written first = t.write("A", token);
        if (!first.cleanlyAccepted(token)) {
            return t.fails("the first write, token " + token + ", " + first.whyNotAccepted(token));
        }
        Written again = t.write("A", token);
        if (t.subject().fence().equalToken() == EqualToken.ACCEPT) {
            return again.cleanlyAccepted(token) ? t.holds("a second write under token " + token + " accepted, as "
                    + "equalToken: accept declares")
                    : t.fails("a second write under the same token " + again.whyNotAccepted(token)
                            + ", though equalToken: accept declares it is taken");
        }
        if (again.accepted() || !again.rowIs(first, token)) {
            return t.fails("a second write under the same token " + (again.accepted() ? "was accepted" : "changed the row")
                    + ", though equalToken: reject declares it is refused");
        }
        return t.holds("a second write under token " + token + " refused, as equalToken: reject declares");
    }

    /** A key with no row: no row appears (unless firstWrite: create), and missing is told apart from stale. */
    static ItemVerdict firstWriteAndMissing(Trial t, String absentKey) {
        SqlFence fence = t.subject().fence();
        String scope = t.subject().scope();
        long token = t.subject().above(41);
        Written w = t.write(fence, scope, absentKey, "A", token);
        if (w.error() != null) {
            return t.fails("a write to key " + absentKey + ", which has no row, failed with " + w.error());
        }
        if (fence.firstWrite() == FirstWritePolicy.CREATE) {
            return w.cleanlyAccepted(token) ? t.holds("a write to key " + absentKey + " (no row) created it, as "
                    + "firstWrite: create declares")
                    : t.fails("a write to key " + absentKey + " (no row) " + w.whyNotAccepted(token)
                            + ", though firstWrite: create declares it creates the row");
        }
        if (w.row().exists()) {
            return t.fails("a write to key " + absentKey + ", which had no row, made one, though no firstWrite: create "
                    + "is declared");
        }
        if (w.accepted()) {
            return t.fails("a write to key " + absentKey + ", which has no row, was answered accepted though nothing "
                    + "was written: the statement reports success for a write it did not make");
        }
        if (fence.outcome().missing() == null) {
            return t.holds("no row appears for a key without one; the statement cannot tell missing from stale "
                    + "(no missing: declared), so a run tells them apart by the row read back");
        }
        return w.said() == Said.MISSING ? t.holds("a write to a key without a row is answered missing, and no row appears")
                : t.fails("a write to key " + absentKey + ", which has no row, was answered "
                        + w.said().name().toLowerCase(java.util.Locale.ROOT) + ", not missing as missing: declares");
    }

    /** N, then N+1 in a transaction rolled back: the row keeps N. */
    static ItemVerdict rollback(Trial t) {
        long n = t.subject().above(41);
        Written first = t.write("A", n);
        if (!first.cleanlyAccepted(n)) {
            return t.fails("the first write, token " + n + ", " + first.whyNotAccepted(n));
        }
        t.writeRolledBack("B", n + 1);
        ReadBack after = t.read("read key " + t.subject().key() + " after the rollback");
        if (!after.exists() || !first.body().equals(after.body()) || !after.holdsToken(n)) {
            return t.fails("after a write under " + (n + 1) + " was rolled back the row holds token " + after.token()
                    + ", not " + n);
        }
        Written retry = t.write("B", n + 1);
        if (!retry.cleanlyAccepted(n + 1)) {
            return t.fails("after the rollback, token " + (n + 1) + " " + retry.whyNotAccepted(n + 1)
                    + ": the rolled-back write left something behind");
        }
        return t.holds("a rolled-back write under " + (n + 1) + " left token " + n + "; " + (n + 1) + " was then accepted");
    }

    /** Whether any of the fence's statements uses {@code :scope}. */
    static boolean usesScope(SqlFence fence) {
        return java.util.stream.Stream.concat(fence.write().stream(), java.util.stream.Stream.of(fence.read()))
                .map(SqlText::sql).anyMatch(sql -> SCOPE_PARAMETER.matcher(sql).find());
    }

    /**
     * Scope A at a high token; scope B at a low one must still be accepted, and leave A's row alone.
     * Without a row in B (and no {@code firstWrite: create}) B's writes can only be refused, so what
     * is tried is the other half: a write in B, before and after A's high token, never touches A's row.
     */
    static ItemVerdict scopesApart(Trial t, String otherScope, boolean otherHasRow) {
        ProbeSubject s = t.subject();
        long low = s.above(41);
        long high = Math.max(low + 1_000_000, 1_000_000);
        if (!otherHasRow) {
            ReadBack before = t.read("read key " + s.key() + " in scope " + s.scope());
            t.write(s.fence(), otherScope, s.key(), "B", low);
            if (!sameRow(t.read("read key " + s.key() + " in scope " + s.scope()), before)) {
                return t.fails("a write in scope " + otherScope + " changed scope " + s.scope()
                        + "'s row: the statement does not keep the scopes apart");
            }
        }
        Written a = t.write("A", high);
        if (!a.cleanlyAccepted(high)) {
            return t.fails("scope " + s.scope() + "'s write under " + high + " " + a.whyNotAccepted(high));
        }
        Written b = t.write(s.fence(), otherScope, s.key(), "B", low);
        if (otherHasRow && !b.cleanlyAccepted(low)) {
            return t.fails("scope " + otherScope + "'s write under " + low + " " + b.whyNotAccepted(low)
                    + " after scope " + s.scope() + " wrote " + high + ": the scopes are not kept apart");
        }
        ReadBack aAfter = t.read("read key " + s.key() + " in scope " + s.scope());
        if (!a.body().equals(aAfter.body()) || !aAfter.holdsToken(high)) {
            return t.fails("scope " + otherScope + "'s write changed scope " + s.scope() + "'s row");
        }
        return otherHasRow
                ? t.holds("a token of " + high + " in scope " + s.scope() + " left scope " + otherScope + " free to take " + low)
                : t.holds("writes in scope " + otherScope + " left scope " + s.scope() + "'s row alone (key " + s.key()
                        + " has no row in " + otherScope + ", so whether " + otherScope + " is free to write was not "
                        + "tried; add a row for it in setup: to try that too)");
    }

    private static boolean sameRow(ReadBack a, ReadBack b) {
        return a.exists() == b.exists() && java.util.Objects.equals(a.token(), b.token())
                && java.util.Objects.equals(a.body(), b.body());
    }

    /**
     * A several-statement write raced where it can be: the stale holder's check passes, a newer holder
     * writes in the gap before its write, and the stale write must still be refused. Null when it is.
     */
    static ItemVerdict raceInTheGap(Trial t) {
        long n = t.subject().above(41);
        t.note("holder A sends its write with token " + n + "; its first statement lets it go on");
        Written[] newer = new Written[1];
        Written stale;
        try (Session other = t.otherSession()) {
            stale = t.writeWithGap("A", n, () -> newer[0] = t.writeOn(other, "B", n + 1));
        }
        if (newer[0] == null) {
            return null; // the check refused before the gap: the stale-holder items judge that
        }
        if (stale.accepted() || !stale.rowIs(newer[0], n + 1)) {
            return t.fails("holder B's token " + (n + 1) + " landed between holder A's check and its write, and "
                    + "A's token " + n + " " + (stale.accepted() ? "was accepted over it" : "changed the row"));
        }
        return null;
    }

    /** A refused token stays refused: at once, later, and after a newer write. */
    static ItemVerdict staleTokenFinal(Trial t) throws InterruptedException {
        long n = t.subject().above(41);
        Written newer = t.write("B", n + 1);
        if (!newer.cleanlyAccepted(n + 1)) {
            return t.fails("the newer holder's write, token " + (n + 1) + ", " + newer.whyNotAccepted(n + 1));
        }
        Written stale = t.write("A", n);
        if (stale.accepted() || !stale.rowIs(newer, n + 1)) {
            return t.fails("token " + n + " after " + (n + 1) + " " + (stale.accepted() ? "was accepted" : "changed the row"));
        }
        Written retry = t.write("A", n);
        if (retry.accepted() || !retry.rowIs(newer, n + 1)) {
            return t.fails("token " + n + ", refused once, was accepted when sent again at once");
        }
        Thread.sleep(LATER.toMillis());
        t.note("wait " + LATER.toMillis() + " ms");
        Written later = t.write("A", n);
        if (later.accepted() || !later.rowIs(newer, n + 1)) {
            return t.fails("token " + n + ", refused before, was accepted " + LATER.toMillis() + " ms later");
        }
        Written newest = t.write("C", n + 2);
        if (!newest.cleanlyAccepted(n + 2)) {
            return t.fails("a newer write, token " + (n + 2) + ", " + newest.whyNotAccepted(n + 2));
        }
        Written last = t.write("A", n);
        if (last.accepted() || !last.rowIs(newest, n + 2)) {
            return t.fails("token " + n + " was accepted after a newer write, " + (n + 2));
        }
        return t.holds("token " + n + " refused at once, again " + LATER.toMillis() + " ms later and after " + (n + 2));
    }

}

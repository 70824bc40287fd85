package io.fencelab.engine.probe;

/**
 * The design note's checklist for a fence, as {@code fencelab probe} tries each item against a user's
 * SQL target. The order is the order of the report.
 */
public enum ChecklistItem {
    STALE_HOLDER_REJECTED("stale holder rejected, newer state intact",
            "acquire N, pause, expire, acquire N+1, write N+1, resume, write N: rejected, N+1's body kept"),
    NUMERIC_COMPARISON("tokens compared as numbers", "9 then 10, 99 then 100"),
    LARGE_TOKENS("large tokens exact",
            "2^31-1 then 2^31, 2^53 then 2^53+1, Long.MAX_VALUE-1 then Long.MAX_VALUE"),
    EQUAL_TOKEN("equal token", "a second write under the same token follows the declared rule"),
    FIRST_WRITE_AND_MISSING("first write and missing resource",
            "a write to a key with no row: told apart from stale when missing: is declared; "
                    + "no row appears unless firstWrite: create"),
    ROLLBACK("rollback", "a write in a transaction that rolls back leaves the stored token where it was"),
    SCOPES_APART("scopes kept apart", "a high token in scope A never blocks scope B"),
    EVERY_TARGET_FENCED("every target fenced", "a stale holder's write to each target of a multi-target job is refused"),
    RACES("races", "many holders, interleaved grants, random schedules (simulated and live), judged as every run"),
    STALE_TOKEN_FINAL("stale token is final", "a rejected token retried later is rejected again");

    private final String title;
    private final String howTried;

    ChecklistItem(String title, String howTried) {
        this.title = title;
        this.howTried = howTried;
    }

    public String title() {
        return title;
    }

    public String howTried() {
        return howTried;
    }
}

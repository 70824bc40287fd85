package io.fencelab.engine.metrics;

/** A lease granted and not yet reported ended: its holder, expiry, last grant or renewal, and the longest pause since. */
final class HeldLease {
    final String holder;
    long expires;
    long renewedAt;
    long longestPauseMicros;
    String longestPauseCause;

    HeldLease(String holder, long expires, long grantedAt) {
        this.holder = holder;
        this.expires = expires;
        this.renewedAt = grantedAt;
    }

    void renewed(long newExpiry, long t) {
        expires = newExpiry;
        renewedAt = t;
        longestPauseMicros = 0;
        longestPauseCause = null;
    }
}

package io.fencelab.engine.soak;

/**
 * A soak's counts so far. Runs are counted by the checker's verdict; the disagreements by kind. Not
 * thread-safe: {@link Soak} adds outcomes one at a time.
 */
public final class SoakTally {

    private long runs;
    private long safe;
    private long violated;
    private long falseSafe;
    private long falseViolated;
    private long classMismatches;
    private long witnessesConfirmed;
    private long witnessesNotConfirmed;
    private long witnessesOutside;
    private long appliedNotLogged;
    private long loggedNotApplied;
    private long writesCompared;
    private long runsWithUnorderedResources;
    private long errors;
    private long disagreeingRuns;

    void add(Soak.Outcome o) {
        runs++;
        if (o.disagrees()) {
            disagreeingRuns++;
        }
        if (o.error() != null) {
            errors++;
            return;
        }
        Comparison c = o.comparison();
        switch (c.verdict()) {
            case SAFE -> safe++;
            case VIOLATED -> violated++;
        }
        falseSafe += c.falseSafe() ? 1 : 0;
        falseViolated += c.falseViolated() ? 1 : 0;
        classMismatches += c.classMismatches();
        witnessesConfirmed += c.witnessesConfirmed();
        witnessesNotConfirmed += c.witnessesNotConfirmed();
        witnessesOutside += c.witnessesOutside();
        appliedNotLogged += c.appliedNotLogged();
        loggedNotApplied += c.loggedNotApplied();
        writesCompared += c.writesCompared();
        runsWithUnorderedResources += c.unorderedResources() > 0 ? 1 : 0;
    }

    public long runs() {
        return runs;
    }

    public long safe() {
        return safe;
    }

    public long violated() {
        return violated;
    }

    public long falseSafe() {
        return falseSafe;
    }

    public long falseViolated() {
        return falseViolated;
    }

    /** Groups of writes whose stale-overwrite counts differ between the audit and the checker. */
    public long classMismatches() {
        return classMismatches;
    }

    public long witnessesConfirmed() {
        return witnessesConfirmed;
    }

    /** Witnesses the audit contradicts or cannot find. */
    public long witnessesNotConfirmed() {
        return witnessesNotConfirmed;
    }

    /** Witnesses about what the audit does not record (grant order, values). */
    public long witnessesOutside() {
        return witnessesOutside;
    }

    public long appliedNotLogged() {
        return appliedNotLogged;
    }

    public long loggedNotApplied() {
        return loggedNotApplied;
    }

    /** Applied writes held against the checker's classes. */
    public long writesCompared() {
        return writesCompared;
    }

    /** Runs with a resource whose tokens the audit cannot place in grant order (judged elsewhere only). */
    public long runsWithUnorderedResources() {
        return runsWithUnorderedResources;
    }

    /** Schedules that could not be run or compared. */
    public long errors() {
        return errors;
    }

    /** Runs where the checker and the audit disagreed: each saved as a scenario file by the command. */
    public long disagreeingRuns() {
        return disagreeingRuns;
    }
}

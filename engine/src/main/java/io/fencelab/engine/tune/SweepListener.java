package io.fencelab.engine.tune;

/**
 * What a sweep tells as it goes. The runner calls these one at a time (never two at once), from its
 * own threads, as results arrive; a console hands them on to its own thread.
 */
public interface SweepListener {

    /** Before the first run: how many runs the plan has and how many the results file already holds. */
    default void started(SweepPlan plan, int runs, int alreadyDone) {
    }

    /** A point whose setting makes the scenario invalid; its runs are not made. */
    default void pointSkipped(Point point, String reason) {
    }

    /** One run finished and its row is in the results file. */
    default void runFinished(ResultRow row) {
    }

    /** Whether {@link #pointFinished} should receive the point's worst run whole (to write its report). */
    default boolean wantsWorstRun(Point point) {
        return false;
    }

    /**
     * Every seed of a point has finished (in this sweep or an earlier, interrupted one).
     *
     * @param worst the point's worst run (see {@link PointSummary#WORST_FIRST}), when {@link #wantsWorstRun}
     *              said so; else null
     */
    default void pointFinished(PointSummary summary, RunDone worst) {
    }

    /** The sweep ended: every point done, or stopped (then the results so far stay and a new sweep resumes). */
    default void finished(boolean stopped) {
    }

    /** Tells every one of {@code listeners}, in order; the worst run is wanted if any of them wants it. */
    static SweepListener all(SweepListener... listeners) {
        java.util.List<SweepListener> list = java.util.List.of(listeners);
        return new SweepListener() {
            @Override
            public void started(SweepPlan plan, int runs, int alreadyDone) {
                list.forEach(l -> l.started(plan, runs, alreadyDone));
            }

            @Override
            public void pointSkipped(Point point, String reason) {
                list.forEach(l -> l.pointSkipped(point, reason));
            }

            @Override
            public void runFinished(ResultRow row) {
                list.forEach(l -> l.runFinished(row));
            }

            @Override
            public boolean wantsWorstRun(Point point) {
                return list.stream().anyMatch(l -> l.wantsWorstRun(point));
            }

            @Override
            public void pointFinished(PointSummary summary, RunDone worst) {
                list.forEach(l -> l.pointFinished(summary, worst));
            }

            @Override
            public void finished(boolean stopped) {
                list.forEach(l -> l.finished(stopped));
            }
        };
    }
}

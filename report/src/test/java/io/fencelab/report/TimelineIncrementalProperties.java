package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.OnlineChecker;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.soak.ChaosSchedules;
import io.fencelab.scenarios.Catalog;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The timeline fed batch by batch ({@link TimelineBuilder}, as the console builds it while a run
 * streams) is the timeline {@link Timeline#from} builds from the same events at once: after every
 * batch and at the end, for every catalog scenario and for random chaos schedules, split into random
 * batches, with the judgement either up to date or a batch behind (the console draws while the
 * checker catches up).
 */
class TimelineIncrementalProperties {

    private static Database db;
    private static Path dir;

    @BeforeContainer
    static void start() throws Exception {
        db = EmbeddedDatabase.startThrowaway();
        dir = Files.createTempDirectory("fencelab-incremental");
    }

    @AfterContainer
    static void stop() {
        db.close();
    }

    @Property(tries = 150)
    void aTimelineFedInBatchesEqualsTheOneBuiltAtOnce(@ForAll long seed, @ForAll FencingMode fencing,
                                                      @ForAll TokenScheme scheme, @ForAll boolean judgementLags) {
        RunSpec spec = ChaosSchedules.of(seed, fencing, scheme);
        Ran ran = run(spec, "chaos-" + seed, Backend.MEMORY);
        agree(ran, new Random(seed), judgementLags, "seed " + seed + ", " + fencing + ", " + scheme);
    }

    @Example
    void everyCatalogScenarioFedInBatchesEqualsTheOneBuiltAtOnce() {
        for (String name : Catalog.shipped().names()) {
            Ran ran = run(Catalog.shipped().resolve(name).spec(), name, Backend.POSTGRES);
            agree(ran, new Random(name.hashCode()), false, name);
            agree(ran, new Random(name.hashCode()), true, name + " (judgement a batch behind)");
        }
    }

    @Example
    void aLargeStormFedInSmallBatchesEqualsTheOneBuiltAtOnce() {
        agree(new Ran(null, SyntheticLog.events(40_000, 60, 7)), new Random(7), true, "synthetic storm");
    }

    @Example
    void aReplayedEventIsRefused() {
        List<Event> events = SyntheticLog.events(20, 3, 1);
        TimelineBuilder builder = new TimelineBuilder().accept(events.subList(0, 5), Judgement.EMPTY);
        assertThatThrownBy(() -> builder.accept(events.subList(4, 6), Judgement.EMPTY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the timeline");
    }

    private record Ran(RunResult result, List<Event> events) {}

    private static Ran run(RunSpec spec, String name, Backend backend) {
        try (Run run = Run.prepare(db, spec, dir.resolve(name + ".jsonl"), backend)) {
            RunResult result = run.runToEnd();
            return new Ran(result, EventLogReader.read(result.eventLog()));
        } catch (Exception e) {
            throw new IllegalStateException(name + " did not run", e);
        }
    }

    /**
     * Feeds {@code ran}'s events in random batches (1 to 200 events) to a checker and a builder, and
     * compares the builder's timeline after each batch with {@link Timeline#from} of the events so
     * far and the same judgement; at the end, with the run's own final judgement if it has one.
     */
    private static void agree(Ran ran, Random random, boolean judgementLags, String what) {
        List<Event> events = ran.events();
        OnlineChecker checker = new OnlineChecker();
        TimelineBuilder builder = new TimelineBuilder();
        Judgement previous = Judgement.EMPTY;
        int from = 0;
        int batches = 0;
        while (from < events.size()) {
            int to = Math.min(events.size(), from + 1 + random.nextInt(random.nextInt(10) == 0 ? 200 : 20));
            List<Event> batch = events.subList(from, to);
            checker.accept(batch);
            Judgement now = checker.judgement();
            Judgement shown = judgementLags ? previous : now;
            builder.accept(batch, shown);
            // Comparing every batch of a long log costs a full build each time: a sample is enough.
            if (to == events.size() || batches++ % 7 == 0) {
                assertThat(builder.timeline(shown)).as("%s: the timeline after %d of %d events", what, to,
                        events.size()).isEqualTo(Timeline.from(events.subList(0, to), shown));
            }
            previous = now;
            from = to;
        }
        Judgement last = ran.result() != null ? ran.result().judgement() : checker.judgement();
        assertThat(builder.timeline(last)).as("%s: the final timeline", what).isEqualTo(Timeline.from(events, last));
    }
}

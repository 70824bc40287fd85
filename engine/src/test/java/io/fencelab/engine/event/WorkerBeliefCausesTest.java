package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event.BeliefEnded;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.soak.ChaosSchedules;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every belief a worker ends in a real run carries its cause, and the words it writes beside it still
 * begin as the words old logs are read by, so an old log and a new one give the same figures.
 */
@ExtendWith(EmbeddedDatabase.class)
class WorkerBeliefCausesTest {

    @Test
    void everyBeliefEndedOfChaosRunsHasACauseItsWordsAgreeWith(Database db, @TempDir Path dir) throws Exception {
        List<BeliefEnded> ended = new ArrayList<>();
        FencingMode[] modes = FencingMode.values();
        for (long seed = 1; seed <= 12; seed++) {
            Path log = dir.resolve("events-" + seed + ".jsonl");
            try (Run run = Run.prepare(db, ChaosSchedules.of(seed, modes[(int) (seed % modes.length)],
                    TokenScheme.MONOTONIC, seed % 5 == 0), log, Backend.MEMORY)) {
                run.runToEnd();
            }
            EventLogReader.read(log).stream().filter(BeliefEnded.class::isInstance).map(BeliefEnded.class::cast)
                    .forEach(ended::add);
        }

        assertThat(ended).as("chaos runs end beliefs").isNotEmpty();
        Set<BeliefEnded.Cause> seen = EnumSet.noneOf(BeliefEnded.Cause.class);
        for (BeliefEnded e : ended) {
            assertThat(e.cause()).as("seq %d (%s) has a cause", e.seq(), e.reason()).isNotNull();
            assertThat(BeliefEnded.Cause.ofWords(e.reason())).as("the words \"%s\" read as an old log would", e.reason())
                    .isEqualTo(e.cause());
            seen.add(e.cause());
        }
        assertThat(seen).as("more than the everyday release is exercised")
                .contains(BeliefEnded.Cause.RELEASED, BeliefEnded.Cause.STALE_ANSWER, BeliefEnded.Cause.CRASHED);
    }
}

package io.fencelab.engine.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

class SoakTest {

    private static Database db;

    @BeforeAll
    static void start() {
        db = EmbeddedDatabase.startThrowaway(Soak.poolSize(2));
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    /**
     * CI's soak: 250 simulated schedules by default (100 took 43 s in a full test run on two cores; with
     * SoakCommandTest's 50, CI checks 300 schedules against the audit), more with {@code -Dfencelab.soak.schedules=N} and live ones with
     * {@code -Dfencelab.soak.live=M}.
     */
    @Test
    void randomSchedulesAgreeWithTheDatabasesOwnRecord(@TempDir Path dir) throws Exception {
        int n = Integer.getInteger("fencelab.soak.schedules", 250);
        int live = Integer.getInteger("fencelab.soak.live", 0);
        List<String> problems = new ArrayList<>();
        long start = System.nanoTime();
        SoakTally t = Soak.on(db, new Soak.Options(n, live, 1, 2, 0.05, dir)).run(o -> {
            if (o.disagrees() || o.failed()) {
                problems.add("#" + o.index() + " " + o.spec().fencing() + "/" + o.spec().tokenScheme() + " "
                        + (o.error() != null ? o.error() : o.comparison().problems()));
            }
        });
        System.out.printf("runs %d safe %d violated %d falseSafe %d falseViolated %d class %d wc %d wn %d wo %d"
                        + " notLogged %d notApplied %d compared %d unordered %d errors %d in %d ms%n",
                t.runs(), t.safe(), t.violated(), t.falseSafe(), t.falseViolated(), t.classMismatches(),
                t.witnessesConfirmed(), t.witnessesNotConfirmed(), t.witnessesOutside(), t.appliedNotLogged(),
                t.loggedNotApplied(), t.writesCompared(), t.runsWithUnorderedResources(), t.errors(),
                (System.nanoTime() - start) / 1_000_000);
        problems.forEach(System.out::println);
        assertThat(problems).as("disagreements between the checker and the audit").isEmpty();
        assertThat(t.runs()).isEqualTo(n + live);
        assertThat(t.safe() + t.violated() + t.errors()).as("every run counted once").isEqualTo(t.runs());
        assertThat(t.violated()).as("the schedules do break things").isPositive();
        assertThat(t.witnessesConfirmed()).as("and the audit sees it").isPositive();
    }
}

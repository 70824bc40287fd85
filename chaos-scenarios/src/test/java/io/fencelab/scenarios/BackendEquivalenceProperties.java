package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.JudgementJson;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.soak.ChaosSchedules;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The licence of the in-memory backend ({@link Backend#MEMORY}): the same spec and seed give a
 * byte-identical {@code events.jsonl}, the same final state and the same judgement on PostgreSQL
 * and on the model, for every catalog scenario (run simulated) and for well over a thousand random
 * schedules over every fencing mode, token scheme and fault kind. If this fails, the model is wrong
 * (or a statement changed without its model): fix the model, never this test.
 */
class BackendEquivalenceProperties {

    /** A server of its own: the restart faults stop and start it. */
    private static Database db;
    private static Path dir;

    @BeforeContainer
    static void start() throws IOException {
        db = EmbeddedDatabase.startThrowaway();
        dir = Files.createTempDirectory("fencelab-backends");
    }

    /** Wall time spent running on each backend, printed at the end: the speed-up the licence buys. */
    private static final java.util.Map<Backend, Long> nanos = new java.util.EnumMap<>(Backend.class);

    @AfterContainer
    static void stop() {
        db.close();
        nanos.forEach((backend, n) -> System.out.printf("%s: %.1f s of runs%n", backend, n / 1e9));
    }

    @Example
    void everyCatalogScenarioGivesTheSameLogOnBothBackends() throws Exception {
        List<String> differ = new ArrayList<>();
        for (String name : Catalog.shipped().names()) {
            RunSpec spec = Catalog.shipped().load(name).spec().withExecutor(ExecutorKind.SIMULATED);
            if (!spec.userFences().isEmpty()) {
                continue; // the user's own SQL fences run on PostgreSQL only: there is no in-memory model to compare
            }
            String difference = difference(name, spec);
            if (difference != null) {
                differ.add(difference);
            }
        }
        assertThat(differ).as("catalog scenarios whose logs differ between the backends").isEmpty();
    }

    @Property(tries = 1000, shrinking = ShrinkingMode.OFF)
    void randomSchedulesGiveTheSameLogOnBothBackends(@ForAll long seed, @ForAll FencingMode fencing,
                                                     @ForAll TokenScheme scheme) throws Exception {
        RunSpec spec = ChaosSchedules.of(seed, fencing, scheme);

        assertThat(difference("seed " + seed + " " + fencing + " " + scheme, spec)).isNull();
    }

    /** Each restart stops and starts the real server, a couple of seconds each: a few runs, every mode. */
    @Example
    void schedulesWithADatabaseRestartGiveTheSameLogOnBothBackends() throws Exception {
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            FencingMode fencing = FencingMode.values()[i % FencingMode.values().length];
            TokenScheme scheme = i < 3 ? TokenScheme.MONOTONIC : TokenScheme.values()[i % TokenScheme.values().length];
            String difference = difference("restart " + i + " " + fencing + " " + scheme,
                    ChaosSchedules.of(1_000 + i, fencing, scheme, true));
            if (difference != null) {
                differ.add(difference);
            }
        }
        assertThat(differ).as("schedules with a restart whose logs differ between the backends").isEmpty();
    }

    private record Ran(Path log, RunResult result, List<ResourceState> finalState) {}

    /**
     * Null when both backends agree on every byte of the log, the final state and the judgement;
     * else where they part, with both logs kept under {@code target/backend-differences}.
     */
    static String difference(String what, RunSpec spec) throws Exception {
        Ran postgres = run(spec, Backend.POSTGRES);
        Ran memory = run(spec, Backend.MEMORY);
        String found = null;
        try {
            found = differenceOf(what, postgres, memory);
            return found;
        } finally {
            if (found != null) {
                Path kept = Path.of("target", "backend-differences");
                Files.createDirectories(kept);
                String name = what.replaceAll("[^A-Za-z0-9_-]+", "-");
                Files.copy(postgres.log(), kept.resolve(name + "-postgres.jsonl"), StandardCopyOption.REPLACE_EXISTING);
                Files.copy(memory.log(), kept.resolve(name + "-memory.jsonl"), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.deleteIfExists(postgres.log());
            Files.deleteIfExists(memory.log());
        }
    }

    private static String differenceOf(String what, Ran postgres, Ran memory) throws Exception {
        byte[] a = Files.readAllBytes(postgres.log());
        byte[] b = Files.readAllBytes(memory.log());
        if (!Arrays.equals(a, b)) {
            List<String> left = Files.readAllLines(postgres.log());
            List<String> right = Files.readAllLines(memory.log());
            int i = 0;
            while (i < left.size() && i < right.size() && left.get(i).equals(right.get(i))) {
                i++;
            }
            return "%s: line %d differs%n  postgres: %s%n  memory:   %s".formatted(what, i + 1,
                    i < left.size() ? left.get(i) : "(end)", i < right.size() ? right.get(i) : "(end)");
        }
        if (!postgres.finalState().equals(memory.finalState())) {
            return "%s: final state differs%n  postgres: %s%n  memory:   %s".formatted(what,
                    postgres.finalState(), memory.finalState());
        }
        String offlinePostgres = JudgementJson.render(
                SafetyChecker.judgement(EventLogReader.read(postgres.log()), postgres.finalState()));
        String offlineMemory = JudgementJson.render(
                SafetyChecker.judgement(EventLogReader.read(memory.log()), memory.finalState()));
        if (!offlinePostgres.equals(offlineMemory)) {
            return "%s: judgement differs%n  postgres: %s%n  memory:   %s".formatted(what, offlinePostgres,
                    offlineMemory);
        }
        String onlinePostgres = JudgementJson.render(postgres.result().judgement());
        String onlineMemory = JudgementJson.render(memory.result().judgement());
        if (!onlinePostgres.equals(onlineMemory) || !onlinePostgres.equals(offlinePostgres)) {
            return "%s: the runs' own judgements differ%n  postgres: %s%n  memory:   %s".formatted(what,
                    onlinePostgres, onlineMemory);
        }
        return null;
    }

    private static Ran run(RunSpec spec, Backend backend) throws Exception {
        Path log = Files.createTempFile(dir, backend.name().toLowerCase(java.util.Locale.ROOT), ".jsonl");
        long start = System.nanoTime();
        try (Run run = Run.prepare(db, spec, log, backend)) {
            RunResult result = run.runToEnd();
            return new Ran(log, result, run.store().finalState());
        } finally {
            nanos.merge(backend, System.nanoTime() - start, Long::sum);
        }
    }
}

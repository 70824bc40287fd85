package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.JudgementJson;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.Workloads;
import io.fencelab.engine.soak.ChaosSchedules;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Simulated runs' logs are what they were: the SHA-256 of {@code events.jsonl} for every catalog
 * scenario on three seeds, for random chaos schedules (every fault kind, ties between occurrences)
 * and for the bench's storm, against digests written by the code before fault occurrences were
 * drawn lazily ({@code simulated-log-digests.txt}, made at 19ff6ee with
 * {@code -Dfencelab.writeDigests=FILE}; rewritten when {@code RunEnded.end} and {@code BeliefEnded.cause}
 * were added, the logs with those fields removed byte-identical to the ones before). A change that moves one event of one run fails here; one
 * meant to change runs' events (a catalog edit, a new event) rewrites the file, running this test with
 * {@code -Dfencelab.writeDigests=src/test/resources/io/fencelab/scenarios/simulated-log-digests.txt}
 * (relative to the module), and says so in its commit. The judgement.json of every run is held the same way
 * ({@code simulated-judgement-digests.txt}, written beside the other by the same property). A scenario
 * of the user's own SQL fences (your-own-fence) runs on PostgreSQL, the only backend that can run it; its
 * digests were added without changing any other line.
 */
@ExtendWith(EmbeddedDatabase.class)
class SimulatedLogsUnchangedTest {

    static final String DIGESTS = "io/fencelab/scenarios/simulated-log-digests.txt";
    /** The same runs' judgement.json, digested beside them (written at 10ece23, before the issue-21 renovation). */
    static final String JUDGEMENT_DIGESTS = "io/fencelab/scenarios/simulated-judgement-digests.txt";

    /** Every run of the comparison by name, each simulated. */
    static Map<String, RunSpec> runs() {
        Map<String, RunSpec> runs = new LinkedHashMap<>();
        for (String name : Catalog.shipped().names()) {
            RunSpec spec = Catalog.shipped().load(name).spec().withExecutor(ExecutorKind.SIMULATED);
            for (long seed : new long[] {1, 7, 42}) {
                runs.put(name + " seed " + seed, spec.withSeed(seed));
            }
        }
        FencingMode[] modes = FencingMode.values();
        for (long seed = 1; seed <= 30; seed++) {
            runs.put("chaos schedule " + seed, ChaosSchedules.of(seed, modes[(int) (seed % modes.length)],
                    TokenScheme.MONOTONIC, seed % 5 == 0));
        }
        runs.put("storm", Workloads.storm(20, 3, FencingMode.FENCED, 3, Duration.ofSeconds(30)));
        return runs;
    }

    @Test
    void everySimulatedLogIsByteForByteWhatItWas(Database db, @TempDir Path dir) throws Exception {
        StringBuilder logs = new StringBuilder();
        StringBuilder judgements = new StringBuilder();
        for (Map.Entry<String, RunSpec> run : runs().entrySet()) {
            Path log = dir.resolve("events.jsonl");
            RunResult result;
            // In memory where it can run (every run but one of the user's own SQL fences, which needs PostgreSQL).
            try (Run r = Run.prepare(db, run.getValue(), log, Backend.fastestFor(run.getValue()))) {
                result = r.runToEnd();
            }
            logs.append(sha256(Files.readAllBytes(log))).append("  ").append(run.getKey()).append('\n');
            judgements.append(sha256(JudgementJson.render(result.judgement()).getBytes(StandardCharsets.UTF_8)))
                    .append("  ").append(run.getKey()).append('\n');
            Files.delete(log);
        }
        String write = System.getProperty("fencelab.writeDigests");
        if (write != null) {
            Files.writeString(Path.of(write), logs, StandardCharsets.UTF_8);
            Files.writeString(Path.of(write).resolveSibling("simulated-judgement-digests.txt"), judgements,
                    StandardCharsets.UTF_8);
            return;
        }

        assertThat(logs.toString()).as("the digests of the simulated logs, against those of the code before")
                .isEqualTo(expected(DIGESTS));
        assertThat(judgements.toString()).as("the digests of the runs' judgement.json, against those of the code before")
                .isEqualTo(expected(JUDGEMENT_DIGESTS));
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static String expected(String resource) throws IOException {
        try (InputStream in = SimulatedLogsUnchangedTest.class.getClassLoader().getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

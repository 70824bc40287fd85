package io.fencelab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fencelab calibrate} on a real Redis, reduced: A holds the lease through 10 s of work and is
 * frozen at 2 s for 1 s (under the 4 s watchdog timeout: survived) or 7 s (over it: lost, B takes
 * over), ten model seeds and one real run per pause. Then bad input, each one line and exit 2.
 */
class CalibrateCommandTest {

    static final String SCENARIO = """
            title: Calibration check
            summary: A holds the lease through long work and is frozen once; B waits for it.
            story: [A is frozen, B waits, B takes over if A's lease runs out]
            duration: 12s
            lease: {profile: redisson, lockWatchdogTimeout: 4s}
            workers:
              - {name: A, scope: report, workTime: 10s, jobs: 1, writes: [{key: report-1}]}
              - {name: B, scope: report, startAt: 500ms, workTime: 1s, idleTime: 500ms, jobs: 1, writes: [{key: report-1}]}
            faults:
              - {kind: PAUSE, target: A, at: 2s, duration: 1s}
            expect: {verdict: SAFE}
            """;

    @TempDir
    Path dir;

    ProbeCommandTest.Result calibrate(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "calibrate";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--data-dir";
        all[args.length + 2] = dir.resolve("pgdata").toString();
        return ProbeCommandTest.run(all);
    }

    @Test
    void modelAndRealRedisAgreeOnWhichPauseLosesTheLease() throws Exception {
        Path file = Files.writeString(dir.resolve("cal.yaml"), SCENARIO);
        Path report = dir.resolve("cal");
        ProbeCommandTest.Result r = calibrate(file.toString(), "--service", "redis", "--model-seeds", "10",
                "--real-runs", "1", "--pauses", "1s,7s", "--report", report.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("survivable-pause edge: model survives 1 s, loses at 7 s; real survives 1 s, "
                + "loses at 7 s (they agree)");

        JsonNode json = new ObjectMapper().readTree(report.resolve("calibration.json").toFile());
        assertThat(json.get("modelRuns").asInt()).isEqualTo(20);
        assertThat(json.get("realRuns").asInt()).isEqualTo(2);
        assertThat(json.get("serviceVersion").asText()).contains("Redis").contains("Redisson").doesNotContain("127.0.0.1");
        assertThat(json.get("server").asText()).contains("started by Fencelab");
        for (String figure : new String[] {"failoverSeconds", "leaseLosses", "leaseLoadPerSecond"}) {
            JsonNode f = json.get("figures").get(figure);
            assertThat(f.get("model").get("count").asInt()).as(figure + " on the model").isPositive();
            assertThat(f.get("real").get("count").asInt()).as(figure + " on Redis").isPositive();
        }
        // each side lost the lease in every run with the 7 s pause and in none with the 1 s one
        JsonNode pauses = json.get("pauses");
        assertThat(pauses.get(0).get("modelRunsThatLostALease").asInt()).isZero();
        assertThat(pauses.get(0).get("realRunsThatLostALease").asInt()).isZero();
        assertThat(pauses.get(1).get("modelRunsThatLostALease").asInt()).isEqualTo(10);
        assertThat(pauses.get(1).get("realRunsThatLostALease").asInt()).isEqualTo(1);
        assertThat(json.get("modelEdge").get("longestSurvivedPauseSeconds").asDouble()).isEqualTo(1.0);
        assertThat(json.get("realEdge").get("shortestLostPauseSeconds").asDouble()).isEqualTo(7.0);
        assertThat(json.get("edgesAgree").asBoolean()).isTrue();

        String html = Files.readString(report.resolve("calibration.html"));
        assertThat(html).contains("<circle class=\"model\"").contains("<circle class=\"real\"")
                .contains("Lease losses by pause length").contains("Redis");
        assertThat(html).doesNotContain("redis://");
        // kept for a person to look at (and screenshot): target/calibration/
        Path kept = Files.createDirectories(Path.of("target", "calibration"));
        for (String name : new String[] {"calibration.html", "calibration.json"}) {
            Files.copy(report.resolve(name), kept.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Files.writeString(kept.resolve("stdout.txt"), r.out());
    }

    @Test
    void anUnknownServiceIsOneLine() {
        ProbeCommandTest.Result r = calibrate("paused-holder", "--service", "consul");
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).isEqualTo("fencelab: --service must be etcd, zookeeper or redis, was 'consul'");
        assertThat(calibrate("paused-holder", "--service", "postgres").exit()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void badPausesAreOneLine() {
        ProbeCommandTest.Result r = calibrate("paused-holder", "--service", "redis", "--pauses", "2s,fast");
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).startsWith("fencelab: --pauses '2s,fast': ").doesNotContain("\n")
                .doesNotContain("Exception");
    }

    @Test
    void aScenarioWithoutAPauseIsOneLine() throws Exception {
        Path file = Files.writeString(dir.resolve("nopause.yaml"), SCENARIO.replaceAll("faults:\\n.*\\n", ""));
        ProbeCommandTest.Result r = calibrate(file.toString(), "--service", "redis");
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).contains("has no PAUSE fault").doesNotContain("\n");
    }

    @Test
    void tooFewRunsAreRefused() {
        ProbeCommandTest.Result r = calibrate("paused-holder", "--service", "redis", "--real-runs", "0");
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("--real-runs");
    }
}

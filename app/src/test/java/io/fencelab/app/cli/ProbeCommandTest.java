package io.fencelab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code fencelab probe FILE}: exit 0 when every item holds, 1 when one fails (its witness printed),
 * 2 for bad input in one located line; and probe.json's shape, every token a string.
 */
class ProbeCommandTest {

    @TempDir
    static Path shared;

    static Path dataDir;

    record Result(int exit, String out, String err) {}

    @BeforeAll
    static void oneServerForAll() {
        dataDir = shared.resolve("pgdata");
    }

    static Result probe(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "probe";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--data-dir";
        all[args.length + 2] = dataDir.toString();
        return run(all);
    }

    /** The command line run in-process, with what it printed. */
    static Result run(String... all) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = FencelabCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(all);
        return new Result(exit, out.toString(), err.toString());
    }

    /** A scenario with one user fence whose write statement is {@code write} (indented by the caller). */
    static Path scenario(Path dir, String name, String write) throws Exception {
        return Files.writeString(dir.resolve(name + ".yaml"), """
                title: %s
                summary: a fence of your own
                story: [one]
                targets:
                  report:
                    kind: SQL
                    schema: |
                      CREATE TABLE report_state (scope text NOT NULL, report_id bigint NOT NULL,
                        body text NOT NULL, fencing_token bigint NOT NULL, PRIMARY KEY (scope, report_id));
                    setup: |
                      INSERT INTO report_state VALUES ('report', 17, '', 0);
                    write: |
                %s
                    accepted: rows = 1
                    read: |
                      SELECT fencing_token AS token, body FROM report_state WHERE scope = :scope AND report_id = :key
                duration: 60s
                lease: {ttl: 30s}
                workers:
                  - {name: A, scope: report, workTime: 10s, jobs: 1, writes: [{target: report, key: 17}]}
                  - {name: B, scope: report, startAt: 31s, workTime: 4s, jobs: 1, writes: [{target: report, key: 17}]}
                faults:
                  - {kind: PAUSE, target: A, at: 10s, duration: 35s}
                expect: {verdict: SAFE}
                """.formatted(name, write));
    }

    /** Two lines of a block scalar under {@code write: |}, indented as it needs. */
    static String write(String first, String second) {
        return "      " + first + "\n      " + second;
    }

    static final String CORRECT = write("UPDATE report_state SET body = :body, fencing_token = :token",
            "WHERE scope = :scope AND report_id = :key AND fencing_token <= :token");

    static final String NO_PREDICATE = write("UPDATE report_state SET body = :body, fencing_token = :token",
            "WHERE scope = :scope AND report_id = :key");

    @Test
    void everyItemHoldingExitsZeroAndWritesProbeJson(@TempDir Path dir) throws Exception {
        Path file = scenario(dir, "correct", CORRECT);
        Path out = dir.resolve("out");

        Result r = probe(file.toString(), "--out", out.toString(), "--schedules", "1", "--live", "0");

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("scratch schemas fencelab_probe").contains("nothing else of yours is written")
                .contains("every item holds");
        assertThat(r.out().lines().filter(l -> l.startsWith("  holds ") || l.startsWith("  does not apply "))).hasSize(10);
        JsonNode json = new ObjectMapper().readTree(out.resolve("probe.json").toFile());
        assertThat(out.resolve("probe.html")).content().contains("Your fence against the checklist");
        assertThat(json.get("allHold").asBoolean()).isTrue();
        assertThat(json.get("fences").get(0).asText()).isEqualTo("report");
        assertThat(json.get("verdicts")).hasSize(10);
        assertThat(json.get("verdicts").get(0).get("item").asText()).isEqualTo("STALE_HOLDER_REJECTED");
        assertThat(json.get("database").asText()).startsWith("embedded PostgreSQL").doesNotContain("password");
    }

    @Test
    void aHoleExitsOneWithItsWitnessAndTokensAsStrings(@TempDir Path dir) throws Exception {
        Path file = scenario(dir, "open", NO_PREDICATE);
        Path out = dir.resolve("out");

        Result r = probe(file.toString(), "--out", out.toString(), "--schedules", "0", "--live", "0");

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.UNEXPECTED_VERDICT);
        assertThat(r.out()).contains("FAILS           report     stale holder rejected, newer state intact")
                .contains("at write token 41 to report key 17 (scope report) as holder A [" + file + ":13]: said accepted")
                .contains("HOLES FOUND");
        JsonNode json = new ObjectMapper().readTree(out.resolve("probe.json").toFile());
        assertThat(json.get("allHold").asBoolean()).isFalse();
        JsonNode stale = json.get("verdicts").get(0);
        assertThat(stale.get("status").asText()).isEqualTo("FAILS");
        JsonNode last = stale.get("witness").get(stale.get("witness").size() - 1);
        assertThat(last.get("heldToken").isTextual()).as("tokens are decimal strings: " + last).isTrue();
        assertThat(last.get("heldToken").asText()).isEqualTo("41");
        assertThat(last.get("statement").asText()).isEqualTo(file + ":13");
        for (JsonNode v : json.get("verdicts")) {
            for (JsonNode step : v.get("witness")) {
                if (step.has("heldToken")) {
                    assertThat(step.get("heldToken").isTextual()).as(step.toString()).isTrue();
                }
            }
        }
    }

    @Test
    void aSyntaxErrorInTheStatementIsOneLocatedLineAndExitTwo(@TempDir Path dir) throws Exception {
        Path file = scenario(dir, "typo", write("UPDATE report_state SET body = :body, fencing_token = :token",
                "WHERE scope = :scope AND AND report_id = :key AND fencing_token <= :token"));

        Result r = probe(file.toString(), "--out", dir.resolve("out").toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).as("one located line, no stack trace").hasSize(1)
                .allMatch(l -> l.startsWith(file + ":14:32: ") && l.contains("syntax error"))
                .noneMatch(l -> l.contains("Exception"));
        assertThat(r.out()).doesNotContain("holds").doesNotContain("FAILS");
    }

    @Test
    void aScenarioWithoutTargetsIsBadInput(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plain.yaml"), """
                title: t
                summary: s
                story: [one]
                duration: 10s
                lease: {ttl: 5s}
                workers:
                  - {name: A, scope: s, writes: [{target: ROW, key: k}]}
                expect: {verdict: SAFE}
                """);

        Result r = probe(file.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).contains("defines no fence of your own").doesNotContain("\n");
    }
}

package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.worker.WorkerSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every class of mistake gives a located, actionable line; exact texts, since people read them. */
class ScenarioValidationTest {

    /**
     * The smallest valid file. Line numbers used below: 8 `- name: A`, 9 `scope`, 10 `writes`,
     * 11 `- key`, 12 `expect`, 13 `verdict`.
     */
    static final String MINIMAL = """
            title: T
            summary: S.
            story: [one]
            duration: 60s
            lease:
              ttl: 30s
            workers:
              - name: A
                scope: report
                writes:
                  - key: report-1
            expect:
              verdict: SAFE
            """;

    static List<String> problems(String yaml) {
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioLoader.load("t.yaml", yaml));
        assertThat(e).as("the file should be refused:\n" + yaml).isNotNull();
        return e.getMessage().lines().toList();
    }

    static String insertAfter(String anchor, String lines) {
        assertThat(MINIMAL).contains(anchor);
        return MINIMAL.replace(anchor, anchor + lines);
    }

    @Test
    void theMinimalFileLoadsWithTheDocumentedDefaults() {
        Scenario s = ScenarioLoader.load("minimal.yaml", MINIMAL);

        assertThat(s.name()).isEqualTo("minimal");
        assertThat(s.spec().executor()).isEqualTo(ExecutorKind.SIMULATED);
        assertThat(s.spec().seed()).isEqualTo(1);
        assertThat(s.spec().renewInterval()).isZero();
        assertThat(s.spec().timeScale()).isEqualTo(1.0);
        assertThat(s.spec().firstTokens()).isEmpty();
        WorkerSpec a = s.spec().workers().getFirst();
        assertThat(a.startAt()).isZero();
        assertThat(a.workTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(a.idleTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(a.jobs()).isZero();
        assertThat(a.checkDeadline()).isFalse();
        assertThat(a.writes().getFirst().mode()).as("no override: the run's fencing").isNull();
    }

    @Test
    void anUnknownKeyIsNamedWithTheNearestAllowedKey() {
        assertThat(problems(insertAfter("    scope: report\n", "    onstale: ABANDON\n"))).containsExactly(
                "t.yaml:10:5: workers[0].onstale: unknown key; did you mean onStale? (allowed: name, count, scope, "
                        + "startAt, stagger, workTime, idleTime, jobs, role, onStale, checkDeadline, sequenceWrites, pipelineWrites, "
                        + "writes)");
    }

    @Test
    void aBadEnumValueListsTheAllowedNames() {
        assertThat(problems(insertAfter("    scope: report\n", "    onStale: ABANDONN\n"))).containsExactly(
                "t.yaml:10:14: workers[0].onStale: 'ABANDONN' is not one of ABANDON, REACQUIRE, BLIND_RETRY");
    }

    @Test
    void enumNamesAreReadWithoutRegardToCase() {
        Scenario s = ScenarioLoader.load("t.yaml", MINIMAL + "fencing: unfenced\nexecutor: LIVE\n");

        assertThat(s.spec().fencing().name()).isEqualTo("UNFENCED");
        assertThat(s.spec().executor()).isEqualTo(ExecutorKind.LIVE);
    }

    @Test
    void theExecutorIsListedInLowerCase() {
        assertThat(problems(MINIMAL + "executor: simulatd\n"))
                .containsExactly("t.yaml:14:11: executor: 'simulatd' is not one of simulated, live, process");
    }

    @Test
    void aWrongTypeSaysWhatWasExpectedAndWhatWasFound() {
        assertThat(problems(MINIMAL + "seed: [1]\n")).containsExactly(
                "t.yaml:14:7: seed: expected a whole number, got a list");
        assertThat(problems(MINIMAL.replace("story: [one]", "story: once upon a time"))).containsExactly(
                "t.yaml:3:8: story: expected a list of steps (texts or mappings), got the text 'once upon a time'");
        assertThat(problems(MINIMAL + "seed: 12abc\n")).containsExactly(
                "t.yaml:14:7: seed: '12abc' is not a whole number (write decimal digits, such as 41)");
    }

    @Test
    void aDurationWithoutAUnitSuggestsOne() {
        assertThat(problems(MINIMAL.replace("ttl: 30s", "ttl: 30"))).containsExactly(
                "t.yaml:6:8: lease.ttl: '30' has no unit; write 30s, 30ms, 30m or 30h");
    }

    @Test
    void aMalformedDurationShowsTheSyntax() {
        assertThat(problems(MINIMAL.replace("duration: 60s", "duration: 1 minute"))).containsExactly(
                "t.yaml:4:11: duration: '1 minute' is not a duration (a number and a unit: 250ms, 30s, 1.5s, 2m, 1h)");
    }

    @Test
    void aZeroOrNegativeTtlIsRefused() {
        assertThat(problems(MINIMAL.replace("ttl: 30s", "ttl: 0s")))
                .containsExactly("t.yaml:6:8: lease.ttl: 0s must be more than 0s");
        assertThat(problems(MINIMAL.replace("ttl: 30s", "ttl: -5s")))
                .containsExactly("t.yaml:6:8: lease.ttl: -5s must be more than 0s");
    }

    @Test
    void aMissingRequiredKeyIsReportedAtItsMapping() {
        assertThat(problems(MINIMAL.replace("title: T\n", ""))).containsExactly(
                "t.yaml:1:1: title: missing required key (for example title: The paused holder)");
        assertThat(problems(MINIMAL.replace("  ttl: 30s\n", "  renewEvery: 10s\n"))).containsExactly(
                "t.yaml:6:3: lease.ttl: missing required key (for example ttl: 30s)");
    }

    @Test
    void duplicateWorkerNamesAreRefusedAtTheSecondName() {
        String twoAs = insertAfter("      - key: report-1\n", """
                  - name: A
                    scope: report
                    writes: [{key: report-1}]
                """);
        assertThat(problems(twoAs)).containsExactly(
                "t.yaml:12:11: workers[1].name: 'A' is already a worker or group name (workers[0])");
    }

    @Test
    void aGroupMemberNameMayNotClashWithAnotherWorker() {
        String clash = insertAfter("      - key: report-1\n", """
                  - name: A-2
                    scope: report
                    writes: [{key: report-1}]
                """).replace("  - name: A\n", "  - name: A\n    count: 3\n");
        assertThat(problems(clash)).containsExactly(
                "t.yaml:13:11: workers[1].name: 'A-2' is already a worker or group name (workers[0])");
    }

    @Test
    void aFaultTargetThatNamesNoWorkerListsTheNames() {
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: C, at: 10s, duration: 5s}\n"))
                .containsExactly("t.yaml:15:27: faults[0].target: 'C' names no worker (allowed: A, all, database)");
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: a, at: 10s, duration: 5s}\n"))
                .containsExactly("t.yaml:15:27: faults[0].target: 'a' names no worker; did you mean A? "
                        + "(allowed: A, all, database)");
    }

    @Test
    void aFaultNeedsExactlyOneOfAtAndEvery() {
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: A, duration: 5s}\n"))
                .containsExactly("t.yaml:15:5: faults[0]: needs either at (once, at: 10s) or every "
                        + "(again and again, every: {exponential: 2s})");
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: A, at: 1s, every: 2s}\n"))
                .containsExactly("t.yaml:15:45: faults[0].every: give either at (once) or every "
                        + "(again and again), not both");
    }

    @Test
    void aFaultAfterTheEndOfTheRunIsRefused() {
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: A, at: 60s}\n"))
                .containsExactly("t.yaml:15:34: faults[0].at: 60s is not before the end of the run (duration 60s)");
    }

    @Test
    void amountsAreCheckedAgainstTheFaultKind() {
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: A, at: 1s, amount: 2s}\n"))
                .containsExactly("t.yaml:15:46: faults[0].amount: PAUSE takes no amount; only REQUEST_DELAY, "
                        + "REQUEST_JITTER, REPLY_DELAY, CLOCK_SKEW and SLOW_LEASE_SERVICE do");
        assertThat(problems(MINIMAL + "faults:\n  - {kind: REQUEST_DELAY, target: A, at: 1s, amount: -2s}\n"))
                .containsExactly("t.yaml:15:54: faults[0].amount: -2s must not be negative (only CLOCK_SKEW "
                        + "takes a negative amount: a clock running behind)");
        assertThat(problems(MINIMAL + "faults:\n  - {kind: REPLY_DELAY, target: A, at: 1s}\n"))
                .containsExactly("t.yaml:15:5: faults[0].amount: REPLY_DELAY needs an amount (the delay added, "
                        + "such as 2s)");
        Scenario skewed = ScenarioLoader.load("t.yaml",
                MINIMAL + "faults:\n  - {kind: CLOCK_SKEW, target: A, at: 1s, duration: 10s, amount: -5s}\n");
        assertThat(skewed.spec().faults().getFirst().amount()).isEqualTo(Duration.ofSeconds(-5));
    }

    @Test
    void theDatabaseIsOnlyATargetForADatabaseRestart() {
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: database, at: 1s}\n"))
                .containsExactly("t.yaml:15:27: faults[0].target: 'database' is only a target for "
                        + "DATABASE_RESTART; PAUSE applies to workers (a worker, a group or all)");
        assertThat(problems(MINIMAL + "faults:\n  - {kind: DATABASE_RESTART, target: A, at: 1s}\n"))
                .containsExactly("t.yaml:15:38: faults[0].target: a DATABASE_RESTART restarts the database, "
                        + "so its target is 'database', not 'A'");
    }

    @Test
    void aGroupExpandsIntoStaggeredWorkersAndAGroupTargetIntoOneFaultEach() {
        Scenario s = ScenarioLoader.load("t.yaml", MINIMAL
                .replace("  - name: A\n", "  - name: A\n    count: 3\n    startAt: 2s\n    stagger: 500ms\n")
                + "faults:\n  - {kind: PAUSE, target: A, every: {exponential: 2s}, "
                + "duration: {pareto: {scale: 200ms, shape: 1.2, cap: 5s}}}\n");

        assertThat(s.spec().workers()).extracting(WorkerSpec::name).containsExactly("A-1", "A-2", "A-3");
        assertThat(s.spec().workers()).extracting(WorkerSpec::startAt)
                .containsExactly(Duration.ofMillis(2000), Duration.ofMillis(2500), Duration.ofMillis(3000));
        assertThat(s.spec().faults()).extracting(FaultSpec::target).containsExactly("A-1", "A-2", "A-3");
        assertThat(s.spec().faults().getFirst()).isEqualTo(new FaultSpec(FaultKind.PAUSE, "A-1",
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(2))),
                new Distribution.Pareto(Duration.ofMillis(200), 1.2, Duration.ofSeconds(5)), Duration.ZERO));
    }

    @Test
    void distributionsAreChecked() {
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: A, at: 1s, duration: {uniform: [3s, 1s]}}\n"))
                .containsExactly("t.yaml:15:63: faults[0].duration.uniform[1]: the maximum 1s is below the minimum 3s");
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: all, every: {gaussian: 1s}}\n"))
                .containsExactly("t.yaml:15:40: faults[0].every.gaussian: unknown key "
                        + "(allowed: fixed, uniform, exponential, pareto, empirical, empiricalRate)");
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: all, every: 0s}\n"))
                .containsExactly("t.yaml:15:39: faults[0].every: 0s must be more than 0s");
    }

    @Test
    void scopesNeedAUserAndATokenOfAtLeastOne() {
        assertThat(problems(MINIMAL + "scopes:\n  reprot: 41\n  report: 0\n")).containsExactly(
                "t.yaml:15:3: scopes.reprot: no worker uses this scope (workers use report)",
                "t.yaml:16:11: scopes.report: 0 is out of range (at least 1)");
        Scenario big = ScenarioLoader.load("t.yaml", MINIMAL + "scopes:\n  report: \"9223372036854775807\"\n");
        assertThat(big.spec().firstTokens()).containsEntry("report", Long.MAX_VALUE);
    }

    @Test
    void expectationsAreCheckedAgainstTheEngine() {
        String yaml = MINIMAL + """
                  min: {staleRejections: 2, writes: 1}
                  max: {staleRejections: 1}
                  events: {LeaseExpird: 1}
                  invariants: [STALE_OVERWRITE]
                """;
        assertThat(problems(yaml)).containsExactly(
                "t.yaml:14:29: expect.min.writes: unknown key (allowed: acquisitions, renewals, renewalFailures, "
                        + "staleRejections, acceptedWrites)",
                "t.yaml:16:12: expect.events.LeaseExpird: 'LeaseExpird' is not an event type; did you mean "
                        + "LeaseExpired? (allowed: RunStarted, RunEnded, LeaseAcquired, LeaseBusy, LeaseExhausted, "
                        + "LeaseRenewed, LeaseRenewalFailed, LeaseExpired, LeaseReleased, PauseStarted, PauseEnded, "
                        + "FaultInjected, FaultHealed, WriteAttempted, WriteAccepted, WriteRejectedStale, WriteMissing, "
                        + "WriteOutOfOrder, WriteContradicted, BeliefStarted, BeliefEnded, SettingChanged, AgentReport, OperationFailed)",
                "t.yaml:17:15: expect.invariants: a SAFE run has no witnesses; expect VIOLATED or remove the invariants");
        assertThat(problems(MINIMAL + "  min: {staleRejections: 2}\n  max: {staleRejections: 1}\n"))
                .containsExactly("t.yaml:15:26: expect.max.staleRejections: at most 1 is below the minimum 2");
    }

    @Test
    void everyProblemOfAFileIsReportedInFileOrder() {
        String yaml = MINIMAL.replace("duration: 60s", "duration: 60")
                .replace("ttl: 30s", "ttl: 0s")
                .replace("verdict: SAFE", "verdict: SAVE");
        assertThat(problems(yaml)).containsExactly(
                "t.yaml:4:11: duration: '60' has no unit; write 60s, 60ms, 60m or 60h",
                "t.yaml:6:8: lease.ttl: 0s must be more than 0s",
                "t.yaml:13:12: expect.verdict: 'SAVE' is not one of SAFE, VIOLATED");
    }

    @Test
    void aYamlSyntaxErrorIsOneShortLocatedLine() {
        assertThat(problems(MINIMAL.replace("  ttl: 30s", "  ttl: 30s\n    oops: 1"))).containsExactly(
                "t.yaml:7:9: YAML syntax: a ':' is not allowed here (check the indentation, or put text containing ': ' in quotes)");
        assertThat(problems("title: [unclosed\n")).containsExactly(
                "t.yaml:2:1: YAML syntax: expected ',' or ']', but got the end of the file");
        assertThat(problems("title: T\n\tsummary: S\n")).singleElement().asString()
                .startsWith("t.yaml:2:1: YAML syntax: found character '\\t' that cannot start any token");
    }

    @Test
    void aBadlyIndentedLineIsCalledThat() {
        assertThat(problems(MINIMAL.replace("    scope: report", "   scope: report"))).containsExactly(
                "t.yaml:9:4: YAML syntax: this line's indentation does not fit the lines above it "
                        + "(expected the end of a block, found a new key)");
    }

    @Test
    void booleansAreTrueOrFalseAndYamlYesNoWordsAreTextInNames() {
        assertThat(problems(insertAfter("    scope: report\n", "    checkDeadline: yes\n"))).containsExactly(
                "t.yaml:10:20: workers[0].checkDeadline: write true or false, not 'yes'");
        Scenario s = ScenarioLoader.load("t.yaml", MINIMAL.replace("scope: report", "scope: on"));
        assertThat(s.spec().workers().getFirst().scope()).isEqualTo("on");
    }

    @Test
    void duplicateKeysAreRefused() {
        assertThat(problems(MINIMAL + "title: U\n"))
                .containsExactly("t.yaml:14:1: YAML syntax: duplicate key 'title' (first written at line 1)");
    }

    @Test
    void anEmptyFileOrAListIsNotAScenario() {
        assertThat(problems("# nothing yet\n")).containsExactly("t.yaml:1:1: (top level): the file is empty; a "
                + "scenario needs at least title, summary, story, duration, lease, workers and expect");
        assertThat(problems("- a\n- b\n")).singleElement().asString()
                .startsWith("t.yaml:1:1: (top level): expected a mapping of keys (title, summary, story,");
    }

    @Test
    void absurdNestingIsASyntaxErrorNotAStackOverflow() {
        assertThat(problems("title: " + "[".repeat(100_000) + "\n")).containsExactly(
                "t.yaml:1:1008: YAML syntax: lists and mappings are nested more than 1000 deep");
    }

    @Test
    void reservedNamesCannotNameAWorker() {
        assertThat(problems(MINIMAL.replace("name: A", "name: all"))).containsExactly(
                "t.yaml:8:11: workers[0].name: 'all' is reserved for fault targets; choose another name");
    }

    @Test
    void jsonIsAcceptedToo() {
        String json = """
                {"title": "T", "summary": "S.", "story": ["one"], "duration": "60s", "lease": {"ttl": "30s"},
                 "scopes": {"report": "41"},
                 "workers": [{"name": "A", "scope": "report", "writes": [{"target": "ROW", "key": "report-1"}]}],
                 "expect": {"verdict": "SAFE", "min": {"acceptedWrites": 1}}}
                """;
        Scenario fromJson = ScenarioLoader.load("t.json", json);
        Scenario fromYaml = ScenarioLoader.load("t.yaml", MINIMAL.replace("verdict: SAFE",
                "verdict: SAFE\n  min: {acceptedWrites: 1}") + "scopes: {report: 41}\n");

        assertThat(fromJson.spec()).isEqualTo(fromYaml.spec());
        assertThat(fromJson.expectation()).isEqualTo(fromYaml.expectation());
    }

    @Test
    void jsonErrorsAreLocatedToo() {
        assertThat(problems("{\"title\": \"T\",\n \"seed\": true}")).contains(
                "t.yaml:2:10: seed: expected a whole number, got the value true");
    }

    @Test
    void filesThatCannotBeReadSaySo(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.yaml");
        assertThatThrownBy(() -> ScenarioLoader.load(missing)).isInstanceOf(ScenarioException.class)
                .hasMessage(missing + ": no such file");
        Path latin1 = dir.resolve("latin1.yaml");
        Files.write(latin1, "title: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> ScenarioLoader.load(latin1)).hasMessage(latin1 + ": is not UTF-8 text; save it as UTF-8");
    }

    @Test
    void validateReportsInsteadOfThrowing(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), MINIMAL.replace("ttl: 30s", "ttl: 0s"));
        Path good = Files.writeString(dir.resolve("good.yaml"), MINIMAL);

        ValidationResult refused = ScenarioLoader.validate(bad);
        assertThat(refused.valid()).isFalse();
        assertThat(refused.messages()).containsExactly(bad + ":6:8: lease.ttl: 0s must be more than 0s");
        ValidationResult accepted = ScenarioLoader.validate(good);
        assertThat(accepted.valid()).isTrue();
        assertThat(accepted.scenario().name()).isEqualTo("good");
    }
}

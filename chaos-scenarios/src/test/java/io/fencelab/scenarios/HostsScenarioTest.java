package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.run.ExecutorKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code hosts:} places a process run's workers on agent hosts, by number or by name; mistakes are located. */
class HostsScenarioTest {

    /** Workers in file order: A-1, A-2 (a group), B, C. Line 7 is `executor`, line 21 is `hosts`. */
    static final String PROCESS = """
            title: T
            summary: S.
            story: [one]
            duration: 60s
            lease:
              ttl: 30s
            executor: process
            workers:
              - name: A
                count: 2
                scope: report
                writes: [{key: report-1}]
              - name: B
                scope: report
                writes: [{key: report-1}]
              - name: C
                scope: report
                writes: [{key: report-1}]
            expect:
              verdict: SAFE
            """;

    private static String withHosts(String hosts) {
        return PROCESS + "hosts: " + hosts + "\n";
    }

    @Test
    void countsTakeTheWorkersInFileOrderAndTheRestStayOnTheRunsMachine() {
        Scenario s = ScenarioLoader.load("t.yaml", withHosts("{a: 2, b: 1}"));

        assertThat(s.spec().executor()).isEqualTo(ExecutorKind.PROCESS);
        assertThat(s.spec().hosts()).as("A-1 and A-2 on a, B on b, C on the run's machine")
                .isEqualTo(Map.of("A-1", "a", "A-2", "a", "B", "b"));
    }

    @Test
    void namesPlaceWorkersAndAGroupNameStandsForItsMembers() {
        Scenario s = ScenarioLoader.load("t.yaml", withHosts("{h1: [C], h2: [A]}"));

        assertThat(s.spec().hosts()).isEqualTo(Map.of("A-1", "h2", "A-2", "h2", "C", "h1"));
    }

    @Test
    void countsTakeOnlyWorkersNoHostNamed() {
        Scenario s = ScenarioLoader.load("t.yaml", withHosts("{x: 2, y: [A-1]}"));

        assertThat(s.spec().hosts()).as("y names A-1, so x's two are the next unnamed ones: A-2 and B")
                .isEqualTo(Map.of("A-1", "y", "A-2", "x", "B", "x"));
    }

    @Test
    void withoutHostsEveryWorkerRunsOnTheRunsMachine() {
        assertThat(ScenarioLoader.load("t.yaml", PROCESS).spec().hosts()).isEmpty();
    }

    @Test
    void hostsWithoutAProcessRunAreRefused() {
        assertThat(problems(withHosts("{a: 1}").replace("executor: process", "executor: live"))).containsExactly(
                "t.yaml:21:8: hosts: only a process run places workers on hosts; add executor: process (this run is live)");
        assertThat(problems(withHosts("{a: 1}").replace("executor: process\n", ""))).containsExactly(
                "t.yaml:20:8: hosts: only a process run places workers on hosts; add executor: process (this run is "
                        + "simulated)");
    }

    @Test
    void moreWorkersCountedThanThereAreIsRefused() {
        assertThat(problems(withHosts("{a: 3, b: 2}"))).containsExactly(
                "t.yaml:21:18: hosts.b: 2 workers counted, but 1 are left to place (the run has 4 workers; 3 placed "
                        + "before this host)");
    }

    @Test
    void anUnknownWorkerIsNamedWithTheNearestName() {
        assertThat(problems(withHosts("{a: [b, Z]}"))).containsExactly(
                "t.yaml:21:13: hosts.a[0]: 'b' is not a worker or group; did you mean B? (workers: A-1, A-2, B, C)",
                "t.yaml:21:16: hosts.a[1]: 'Z' is not a worker or group (workers: A-1, A-2, B, C)");
    }

    @Test
    void aWorkerPlacedTwiceIsRefused() {
        assertThat(problems(withHosts("{a: [A], b: [A-2]}"))).containsExactly(
                "t.yaml:21:21: hosts.b[0]: A-2 is placed twice: already by hosts.a[0]; a worker runs on one host");
    }

    @Test
    void aHostNameOutsideTheAllowedCharactersIsRefused() {
        String rule = "is not a host name: 1 to 64 of A-Z a-z 0-9 _ . -, beginning with a letter, digit or _, "
                + "and not 'local' (the run's own machine)";
        assertThat(problems(withHosts("{\"a b\": 1, " + "h".repeat(65) + ": 1, -x: 1, local: 1}"))).containsExactly(
                "t.yaml:21:9: hosts.a b: 'a b' " + rule,
                "t.yaml:21:19: hosts." + "h".repeat(60) + "…: '" + "h".repeat(60) + "…' " + rule,
                "t.yaml:21:89: hosts.-x: '-x' " + rule,
                "t.yaml:21:96: hosts.local: 'local' " + rule);
    }

    @Test
    void aHostTakesANumberOrAListOfNames() {
        assertThat(problems(withHosts("{a: yes, b: 0}"))).containsExactly(
                "t.yaml:21:12: hosts.a: expected a number of workers (a: 2) or a list of worker names (a: [A, B]), got "
                        + "the value yes",
                "t.yaml:21:20: hosts.b: 0 is out of range (from 1 to 10000)");
        assertThat(problems(withHosts("[a, b]"))).containsExactly(
                "t.yaml:21:8: hosts: expected a mapping of host name to a number of workers or a list of worker names "
                        + "(hosts: {a: 2, b: [C]}), got a list");
    }

    @Test
    void theDocsExampleDoesWhatItsCommentsSay() throws Exception {
        String fragment = ScenarioDocsTest.blocks().stream().filter(ScenarioDocsTest.Block::isHostsFragment)
                .findFirst().orElseThrow().text();
        String around = "title: T\nsummary: S.\nstory: [one]\nduration: 60s\nlease: {ttl: 30s}\nexpect: {verdict: SAFE}\n";

        Scenario byCount = ScenarioLoader.load("doc.yaml", around + fragment);
        Scenario byName = ScenarioLoader.load("doc.yaml", around + fragment.replace("hosts: {a: 2, b: 1}", "")
                .replace("# hosts:", "hosts:"));

        assertThat(byCount.spec().hosts()).isEqualTo(Map.of("A-1", "a", "A-2", "a", "B", "b"));
        assertThat(byName.spec().hosts()).isEqualTo(Map.of("A-1", "a", "A-2", "a", "C", "b"));
    }

    @Test
    void aWrittenSpecKeepsItsHosts() {
        Scenario s = ScenarioLoader.load("t.yaml", withHosts("{a: 2, b: [C]}"));

        String written = ScenarioWriter.write(s.spec(), s.notes(), Verdict.Kind.SAFE);
        Scenario back = ScenarioLoader.load("t.yaml", written);

        assertThat(written).as("written by name").contains("hosts:\n  a:\n    - A-1\n    - A-2\n  b:\n    - C\n");
        assertThat(back.spec()).isEqualTo(s.spec());
        assertThat(back.spec().hosts()).isEqualTo(Map.of("A-1", "a", "A-2", "a", "C", "b"));
    }
}

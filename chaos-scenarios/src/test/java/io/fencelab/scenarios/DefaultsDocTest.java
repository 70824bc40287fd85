package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One table of keys and defaults (Defaults): the compiler uses it, and docs/SCENARIOS.md says exactly it. */
class DefaultsDocTest {

    /** Rewrites docs/SCENARIOS.md from Defaults instead of failing (or run DefaultsDoc.main from the top directory). */
    static final String UPDATE = "./mvnw -q -pl chaos-scenarios -am test -Dtest=DefaultsDocTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dfencelab.updateDocs=true";

    private static String doc() throws IOException {
        return Files.readString(ScenarioDocsTest.DOC);
    }

    @Test
    void theDocIsWhatDefaultsDocWrites() throws IOException {
        String doc = doc();
        String written = DefaultsDoc.update(doc);
        if (Boolean.getBoolean("fencelab.updateDocs") && !written.equals(doc)) {
            Files.writeString(ScenarioDocsTest.DOC, written);
            return;
        }

        assertThat(doc).as("docs/SCENARIOS.md is out of date with Defaults; rewrite it with: " + UPDATE)
                .isEqualTo(written);
    }

    @Test
    void everyKeyIsDocumentedInItsSectionWithExactlyItsDefault() throws IOException {
        String doc = doc();
        Map<String, String> rows = DefaultsDoc.documented(doc);

        assertThat(DefaultsDoc.undocumented(doc)).as("keys with no row in any section's table").isEmpty();
        rows.forEach((path, shown) -> assertThat(shown).as("the default docs/SCENARIOS.md gives %s", path)
                .isEqualTo(DefaultsDoc.cell(Defaults.at(path).orElseThrow())));
        assertThat(doc).as("the generated table, in the doc").contains(DefaultsDoc.table());
    }

    @Test
    void theCompleteExampleUsesEveryKeyOfTheFormat() throws IOException {
        // The doc promises that its complete example shows every key once.
        // The doc promises that its complete example shows every key once, and each lease profile's own
        // keys in the profile fragments beside it: one file cannot hold two profiles.
        String example = ScenarioDocsTest.blocks().stream().filter(ScenarioDocsTest.Block::isScenario)
                .reduce((first, last) -> last).orElseThrow().text();
        Set<String> used = new LinkedHashSet<>();
        paths(YamlTree.parse(example, new Problems("example.yaml")), "", used);
        for (ScenarioDocsTest.Block fragment : ScenarioDocsTest.blocks().stream()
                .filter(b -> b.isLeaseFragment() || b.isTargetsFragment() || b.isHostsFragment()).toList()) {
            paths(YamlTree.parse(fragment.text(), new Problems("fragment.yaml")), "", used);
        }

        assertThat(used).containsExactlyInAnyOrderElementsOf(Defaults.all().stream().map(Defaults.Key::path).toList());
    }

    @Test
    void everyLeaseFragmentOfTheDocFitsTheCompleteExample() throws IOException {
        String example = ScenarioDocsTest.blocks().stream().filter(ScenarioDocsTest.Block::isScenario)
                .reduce((first, last) -> last).orElseThrow().text();
        String lease = example.substring(example.indexOf("\nlease:\n") + 1, example.indexOf("\nfencing:") + 1);
        List<ScenarioDocsTest.Block> fragments = ScenarioDocsTest.blocks().stream()
                .filter(ScenarioDocsTest.Block::isLeaseFragment).toList();

        assertThat(fragments).as("one per profile but generic, which the example shows")
                .hasSize(LeaseProfile.PROFILES.size() - 1);
        for (ScenarioDocsTest.Block fragment : fragments) {
            Scenario s = ScenarioLoader.load("example.yaml", example.replace(lease, fragment.text()));
            assertThat(fragment.text()).as("the fragment names its profile").contains(s.spec().lease().key());
        }
    }

    @Test
    void everyTargetsFragmentOfTheDocFitsTheCompleteExample() throws IOException {
        String example = ScenarioDocsTest.blocks().stream().filter(ScenarioDocsTest.Block::isScenario)
                .reduce((first, last) -> last).orElseThrow().text();
        List<ScenarioDocsTest.Block> fragments = ScenarioDocsTest.blocks().stream()
                .filter(ScenarioDocsTest.Block::isTargetsFragment).toList();

        assertThat(fragments).as("the issue's example and the function's").hasSize(2);
        for (ScenarioDocsTest.Block fragment : fragments) {
            Scenario s = ScenarioLoader.load("example.yaml", example.replace("\nworkers:\n",
                    "\n" + fragment.text() + "workers:\n"));
            assertThat(s.fences()).as("the fragment's targets").hasSize(1);
        }
    }

    @Test
    void whatAFileLeavesOutTakesTheTablesDefault() {
        Scenario s = ScenarioLoader.load("least.yaml", """
                title: t
                summary: s
                story: [one]
                duration: 10s
                lease: {ttl: 5s}
                workers: [{name: A, scope: x, writes: [{key: k}]}]
                faults: [{kind: PAUSE, target: A, at: 1s}]
                expect: {verdict: SAFE}
                """);
        RunSpec spec = s.spec();
        WorkerSpec a = spec.workers().getFirst();
        TargetWrite write = a.writes().getFirst();
        FaultSpec fault = spec.faults().getFirst();

        assertThat(spec.executor()).isEqualTo(Defaults.EXECUTOR.value());
        assertThat(spec.seed()).isEqualTo(Defaults.SEED.value());
        assertThat(spec.timeScale()).isEqualTo(Defaults.TIME_SCALE.value());
        assertThat(spec.renewInterval()).isEqualTo(Defaults.LEASE_RENEW_EVERY.value());
        assertThat(spec.fencing()).isEqualTo(Defaults.FENCING.value());
        assertThat(spec.tokenScheme()).isEqualTo(Defaults.TOKEN_SCHEME.value());
        assertThat(spec.firstWrite()).isEqualTo(Defaults.FIRST_WRITE.value());
        assertThat(spec.firstTokens()).as("scopes: none").isEmpty();
        assertThat(spec.workers()).as("count %s", Defaults.WORKER_COUNT.value()).hasSize(1);
        assertThat(a.startAt()).isEqualTo(Defaults.WORKER_START_AT.value());
        assertThat(a.workTime()).isEqualTo(Defaults.WORKER_WORK_TIME.value());
        assertThat(a.idleTime()).isEqualTo(Defaults.WORKER_IDLE_TIME.value());
        assertThat((long) a.jobs()).isEqualTo(Defaults.WORKER_JOBS.value());
        assertThat(a.onStale()).isEqualTo(Defaults.WORKER_ON_STALE.value());
        assertThat(a.checkDeadline()).isEqualTo(Defaults.WORKER_CHECK_DEADLINE.value());
        assertThat(a.sequenceWrites()).isEqualTo(Defaults.WORKER_SEQUENCE_WRITES.value());
        assertThat(a.pipelineWrites()).isEqualTo(Defaults.WORKER_PIPELINE_WRITES.value());
        assertThat(write.target()).isEqualTo(Defaults.WRITE_TARGET.value());
        assertThat(write.mode()).as("the run's fencing").isNull();
        assertThat(fault.duration()).isEqualTo(Defaults.FAULT_DURATION.value());
        assertThat(fault.amount()).isEqualTo(Defaults.FAULT_AMOUNT.value());
        assertThat(spec.lease().key()).isEqualTo(Defaults.LEASE_PROFILE.value());
        assertThat(a.role()).isEqualTo(Defaults.WORKER_ROLE.value());
        assertThat(s.expectation().endReason()).isEqualTo(Defaults.EXPECT_END_REASON.value());
    }

    @Test
    void whatATargetLeavesOutTakesTheTablesDefault() {
        SqlFence f = ScenarioLoader.load("own.yaml", TargetCompilerTest.ISSUE).fences().getFirst();

        assertThat(f.equalToken()).isEqualTo(Defaults.TARGET_EQUAL_TOKEN.value());
        assertThat(f.firstWrite()).isEqualTo(Defaults.TARGET_FIRST_WRITE.value());
    }

    /** The key paths a parsed file uses, descending only into mappings that hold keys of the format. */
    private static void paths(YamlNode node, String path, Set<String> out) {
        if (node instanceof YamlNode.Mapping m && holdsKeys(path + ".*")) {
            // A mapping of names (targets): each entry's keys are the format's `targets.*` keys.
            m.fields().values().forEach(f -> paths(f.value(), path + ".*", out));
        } else if (node instanceof YamlNode.Mapping m && holdsKeys(path)) {
            for (YamlNode.Field f : m.fields().values()) {
                String p = Fields.child(path, f.key());
                out.add(p);
                paths(f.value(), p, out);
            }
        } else if (node instanceof YamlNode.Sequence s && holdsKeys(path + "[]")) {
            s.items().forEach(item -> paths(item, path + "[]", out));
        }
    }

    private static boolean holdsKeys(String path) {
        return path.isEmpty() || Defaults.all().stream().anyMatch(k -> k.parent().equals(path));
    }
}

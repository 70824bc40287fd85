package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.RunResult;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** docs/SCENARIOS.md shows files and messages; they must be what the loader really does. */
@ExtendWith(EmbeddedDatabase.class)
class ScenarioDocsTest {

    static final Path DOC = Path.of("..", "docs", "SCENARIOS.md");
    private static final Pattern FENCE = Pattern.compile("```(\\w+)\\n(.*?)```", Pattern.DOTALL);

    record Block(String language, String text) {
        /** A whole scenario file (the doc also shows {@code lease:} fragments, one per profile). */
        boolean isScenario() {
            return language.equals("yaml") && text.startsWith("title:");
        }

        /** A {@code targets:} mapping to put in a scenario: the user's own fences. */
        boolean isTargetsFragment() {
            return language.equals("yaml") && text.startsWith("targets:");
        }

        /** A process run's {@code executor}, {@code workers} and {@code hosts}: where its workers run. */
        boolean isHostsFragment() {
            return language.equals("yaml") && text.startsWith("executor: process");
        }

        /** A {@code lease:} mapping to put in a scenario: one profile with its settings. */
        boolean isLeaseFragment() {
            return language.equals("yaml") && text.startsWith("lease:");
        }
    }

    static List<Block> blocks() throws IOException {
        Matcher m = FENCE.matcher(Files.readString(DOC));
        List<Block> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(new Block(m.group(1), m.group(2)));
        }
        return blocks;
    }

    @Test
    void everyExampleScenarioLoadsAndMeetsItsExpectation(Database db, @TempDir Path dir) throws Exception {
        List<Block> scenarios = blocks().stream().filter(Block::isScenario).toList();
        assertThat(scenarios).hasSize(2);
        for (int i = 0; i < scenarios.size(); i++) {
            Scenario s = ScenarioLoader.load("example-" + i + ".yaml", scenarios.get(i).text());
            RunResult result = PausedHolderScenarioTest.run(db, s, dir);
            assertThat(s.expectation().mismatches(result, EventLogReader.read(result.eventLog())))
                    .as("example %d in SCENARIOS.md should show %s", i, s.expectation().describe()).isEmpty();
        }
    }

    @Test
    void theValidationExampleGivesTheMessagesShown() throws Exception {
        List<Block> text = blocks().stream().filter(b -> b.language().equals("text")).toList();
        Block numbered = text.stream().filter(b -> b.text().startsWith(" 1  title:")).findFirst().orElseThrow();
        Block messages = text.get(text.indexOf(numbered) + 1);
        String file = numbered.text().lines().map(l -> l.substring(4)).reduce("", (a, l) -> a + l + "\n");

        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioLoader.load("paused.yaml", file));

        assertThat(e.getMessage() + "\n").isEqualTo(messages.text());
    }
}

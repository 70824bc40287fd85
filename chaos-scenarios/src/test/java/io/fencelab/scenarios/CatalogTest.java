package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunResult;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(EmbeddedDatabase.class)
class CatalogTest {

    static Stream<String> catalogNames() {
        return Catalog.shipped().names().stream();
    }

    @Test
    void theIndexListsThePausedHolderWithItsNotes() {
        assertThat(Catalog.shipped().names()).contains("paused-holder");
        assertThat(Catalog.shipped().entries()).filteredOn(e -> e.name().equals("paused-holder")).singleElement()
                .satisfies(e -> assertThat(e.title()).isEqualTo("The paused holder"))
                .satisfies(e -> assertThat(e.oneLine()).startsWith("A holder that stops").endsWith("make."))
                .satisfies(e -> assertThat(e.expectation()).isEqualTo("SAFE with exactly 1 stale rejection"));
    }

    @ParameterizedTest
    @MethodSource("catalogNames")
    void everyCatalogScenarioLoadsUnderItsOwnName(String name) {
        Scenario s = Catalog.shipped().load(name);

        assertThat(s.name()).isEqualTo(name);
        assertThat(s.spec().name()).isEqualTo(name);
        assertThat(s.notes().story()).as("a catalog scenario tells its story").isNotEmpty();
    }

    // Every catalog scenario is run against its expectation in CatalogScenariosTest.

    @Test
    void resolvingPrefersAnExistingFileOverACatalogName(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("paused-holder"),
                ScenarioValidationTest.MINIMAL.replace("title: T", "title: Mine"));

        assertThat(Catalog.shipped().resolve(file.toString()).notes().title()).isEqualTo("Mine");
        assertThat(Catalog.shipped().resolve("paused-holder").notes().title()).isEqualTo("The paused holder");
        assertThat(Catalog.shipped().resolve("paused-holder.yaml").name()).isEqualTo("paused-holder");
    }

    @Test
    void anUnknownNameListsTheCatalog() {
        assertThatThrownBy(() -> Catalog.shipped().resolve("paused-holdr")).isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith("paused-holdr: no such file, and no catalog scenario of that name (catalog: ")
                .hasMessageContaining("paused-holder");
        assertThatThrownBy(() -> Catalog.shipped().load("nope")).isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith("nope: no catalog scenario of that name (catalog: ");
    }
}

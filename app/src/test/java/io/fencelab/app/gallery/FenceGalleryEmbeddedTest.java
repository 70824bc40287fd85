package io.fencelab.app.gallery;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.probe.ProbeReport;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gallery probed on the embedded PostgreSQL: each broken fence fails exactly the checklist items
 * its file names, the correct one holds every item. Each probe's page is left in
 * {@code target/probe-gallery/embedded/NAME/probe.html}. Each file is also a scenario, and its story
 * runs as it says.
 */
@ExtendWith(EmbeddedDatabase.class)
class FenceGalleryEmbeddedTest {

    private static final Path OUT = Path.of("target", "probe-gallery", "embedded");

    static Stream<String> gallery() {
        return FenceGallery.names().stream().filter(n -> !n.equals("correct"));
    }

    @Test
    void theCorrectFenceHoldsEveryItem(Database db) throws Exception {
        ProbeReport report = FenceGallery.probe(db, "correct", OUT.resolve("correct"));

        FenceGallery.assertEveryItemHolds(report);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gallery")
    void eachBrokenFenceFailsExactlyItsItems(String name, Database db) throws Exception {
        ProbeReport report = FenceGallery.probe(db, name, OUT.resolve(name));

        FenceGallery.assertFailsExactlyItsItems(name, report);
    }

    static Stream<String> everyFile() {
        return FenceGallery.names().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyFile")
    void eachFileIsAlsoAStoryThatRunsAsItSays(String name, Database db, @TempDir Path dir) throws Exception {
        FenceGallery.assertStoryRunsAsItSays(db, name, dir);
    }
}

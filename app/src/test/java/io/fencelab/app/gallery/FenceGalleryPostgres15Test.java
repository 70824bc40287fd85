package io.fencelab.app.gallery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.probe.ProbeReport;
import io.fencelab.testing.ExternalPostgres;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gallery probed on a user's kind of server: the machine's PostgreSQL 15 (the
 * {@code postgresql-15} package), started by the test, reached by URL with a password, another major
 * version than the embedded one. The same verdicts as on the embedded server, and the same stories.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FenceGalleryPostgres15Test {

    private static final Path OUT = Path.of("target", "probe-gallery", "postgres15");

    private ExternalPostgres server;
    private Database db;

    @BeforeAll
    void startServer() {
        server = ExternalPostgres.start();
        db = server.open(16);
    }

    @AfterAll
    void stopServer() {
        if (db != null) {
            db.close();
        }
        if (server != null) {
            server.close();
        }
    }

    Stream<String> gallery() {
        return FenceGallery.names().stream().filter(n -> !n.equals("correct"));
    }

    @Test
    void theProbeRunsOnPostgres15() {
        assertThat(db.serverVersion()).as("the external server, not the embedded one").startsWith("15.");
        assertThat(db.isEmbedded()).isFalse();
    }

    @Test
    void theCorrectFenceHoldsEveryItem() throws Exception {
        ProbeReport report = FenceGallery.probe(db, "correct", OUT.resolve("correct"));

        FenceGallery.assertEveryItemHolds(report);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gallery")
    void eachBrokenFenceFailsExactlyItsItems(String name) throws Exception {
        ProbeReport report = FenceGallery.probe(db, name, OUT.resolve(name));

        FenceGallery.assertFailsExactlyItsItems(name, report);
    }

    Stream<String> everyFile() {
        return FenceGallery.names().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyFile")
    void eachFileIsAlsoAStoryThatRunsAsItSays(String name, @TempDir Path dir) throws Exception {
        FenceGallery.assertStoryRunsAsItSays(db, name, dir);
    }
}

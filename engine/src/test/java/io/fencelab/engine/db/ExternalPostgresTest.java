package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.testing.ExternalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/** The test helper that stands in for a user's own server: the machine's PostgreSQL 15, started and stopped by the test. */
class ExternalPostgresTest {

    @Test
    void startsTheMachinesPostgres15AndFencelabRunsOnItUntilItIsClosed() throws Exception {
        String url;
        try (ExternalPostgres server = ExternalPostgres.start();
             Database db = server.open(2)) {
            url = server.jdbcUrl();
            assertThat(db.isEmbedded()).as("reached by URL, as a user's server is").isFalse();
            assertThat(db.serverVersion()).as("the installed postgresql-15, not the embedded server").startsWith("15.");
            assertThat(db.newRun("external-15").runId()).isPositive();
            assertThat(url).as("no credentials in the URL").doesNotContain(server.password());
        }
        assertThatThrownBy(() -> DriverManager.getConnection(url, ExternalPostgres.SUPERUSER, "x").close())
                .as("the server is stopped on close").isInstanceOf(java.sql.SQLException.class);
    }

    @Test
    void closingDeletesTheServersDirectory() {
        Path dir;
        try (ExternalPostgres server = ExternalPostgres.start()) {
            dir = server.directory();
            assertThat(dir.resolve("data/PG_VERSION")).as("initdb made a cluster there").hasContent("15");
        }
        assertThat(Files.exists(dir)).as("nothing left in the temp area").isFalse();
    }
}

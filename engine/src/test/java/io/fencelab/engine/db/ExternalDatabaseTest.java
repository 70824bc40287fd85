package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.testing.EmbeddedDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The external-URL path, against a second embedded PostgreSQL standing in for a shared server. */
class ExternalDatabaseTest {

    private static Database server;

    @BeforeAll
    static void startServer() {
        server = EmbeddedDatabase.startThrowaway();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void aJdbcUrlConnectsToThatServerAndStartsNothing() {
        DatabaseConfig config = DatabaseConfig.fromEnvironment(Map.of(DatabaseConfig.ENV_JDBC_URL, server.jdbcUrl()));

        try (Database external = Database.open(config)) {
            assertThat(external.isEmbedded()).isFalse();
            assertThat(external.embeddedPort()).isEqualTo(-1);
            RunContext run = external.newRun("external");
            long token = new LeaseService(run, new VirtualClock()).acquire("s", "A", Duration.ofSeconds(1))
                    .orThrow().token();

            assertThat(token).isEqualTo(1);
            assertThat(server.existingRun(run.runId()).label()).as("the run lives on the external server")
                    .isEqualTo("external");
        }
    }

    @Test
    void twoEnginesOnOneServerShareTokenCounters() {
        DatabaseConfig config = DatabaseConfig.external(server.jdbcUrl(), null, null);
        try (Database first = Database.open(config); Database second = Database.open(config)) {
            RunContext run = first.newRun("shared");
            LeaseService fromFirst = new LeaseService(run, new VirtualClock());
            LeaseService fromSecond = new LeaseService(second.existingRun(run.runId()), new VirtualClock());

            fromFirst.release(fromFirst.acquire("s", "A", Duration.ofSeconds(1)).orThrow());
            long next = fromSecond.acquire("s", "B", Duration.ofSeconds(1)).orThrow().token();

            assertThat(next).as("agents in other processes see the same counter").isEqualTo(2);
        }
    }

    @Test
    void anUnreachableServerGivesAClearErrorWithoutThePassword() {
        DatabaseConfig config = DatabaseConfig.external(
                "jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=2", "fencelab", "s3cret");

        assertThatThrownBy(() -> Database.open(config))
                .isInstanceOf(DatabaseException.class)
                .hasMessageContaining("could not connect to jdbc:postgresql://127.0.0.1:1/nowhere")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void passwordsAreRedactedFromUrls() {
        assertThat(DatabaseConfig.redact("jdbc:postgresql://h/db?user=u&password=hunter2&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=u&password=***&ssl=true");
    }

    @Test
    void stoppingAnExternalServerIsRefused() {
        try (Database external = Database.open(DatabaseConfig.external(server.jdbcUrl(), null, null))) {
            assertThatThrownBy(external::restartEmbedded).isInstanceOf(IllegalStateException.class);
        }
    }
}

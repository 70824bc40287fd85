package io.fencelab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.testing.ExternalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fencelab probe --jdbc-url} on a user's kind of server (the machine's PostgreSQL 15, started by
 * the test, reached with a password in the URL): it says which scratch schemas it writes in, leaves
 * none behind and nothing of the user's changed, and names the server without its credentials.
 */
class ProbeCommandExternalTest {

    @Test
    void aProbeOnTheUsersServerWritesOnlyInItsScratchSchemasAndShowsNoCredentials(@TempDir Path dir) throws Exception {
        try (ExternalPostgres server = ExternalPostgres.start()) {
            String url = server.jdbcUrl() + "?user=" + server.user() + "&password=" + server.password();
            try (Database db = server.open(2)) {
                db.jdbi().useHandle(h -> h.execute("CREATE TABLE public.report_state (id bigint PRIMARY KEY, "
                        + "fencing_token bigint NOT NULL); INSERT INTO public.report_state VALUES (17, 5)"));
            }
            Path file = ProbeCommandTest.scenario(dir, "mine", ProbeCommandTest.CORRECT);
            Path out = dir.resolve("out");

            ProbeCommandTest.Result r = ProbeCommandTest.run("probe", file.toString(), "--jdbc-url", url,
                    "--out", out.toString(), "--schedules", "1", "--live", "0");

            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
            assertThat(r.out()).contains("on jdbc:postgresql://127.0.0.1:" + server.port() + "/postgres (PostgreSQL 15.")
                    .contains("your statements run only in scratch schemas fencelab_probe");
            String json = Files.readString(out.resolve("probe.json"));
            for (String shown : List.of(r.out(), r.err(), json, Files.readString(out.resolve("probe.html")))) {
                assertThat(shown).doesNotContain(server.password()).doesNotContain("user=");
            }
            try (Database db = server.open(2)) {
                List<String> left = db.jdbi().withHandle(h -> h.createQuery(
                        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'fencelab\\_%' ORDER BY 1")
                        .mapTo(String.class).list());
                assertThat(left).as("every scratch schema dropped after the probe").isEmpty();
                long token = db.jdbi().withHandle(h -> h.createQuery(
                        "SELECT fencing_token FROM public.report_state WHERE id = 17").mapTo(Long.class).one());
                assertThat(token).as("the user's own table of the same name is untouched").isEqualTo(5);
            }
        }
    }
}

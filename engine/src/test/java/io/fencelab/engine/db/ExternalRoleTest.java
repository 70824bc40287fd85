package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.testing.EmbeddedDatabase;
import org.junit.jupiter.api.Test;

/**
 * docs/SECURITY.md's advice for an external server, followed to the letter on a second server: a
 * role that owns one schema and nothing else runs Fencelab, and nothing lands outside that schema.
 */
class ExternalRoleTest {

    @Test
    void aRoleWithRightsOnItsOwnSchemaOnlyRunsFencelab() {
        try (Database server = EmbeddedDatabase.startThrowaway(2)) {
            server.jdbi().useHandle(h -> {
                h.execute("CREATE DATABASE lab");
            });
            String labUrl = server.jdbcUrlWithoutSecret().replace("/postgres?", "/lab?");
            try (Database admin = Database.open(DatabaseConfig.external(labUrl, "postgres", server.password().orElseThrow()), 2)) {
                admin.jdbi().useHandle(h -> {
                    h.execute("CREATE ROLE fencelab LOGIN PASSWORD 'role-secret'");
                    h.execute("CREATE SCHEMA fencelab AUTHORIZATION fencelab");
                    h.execute("REVOKE ALL ON DATABASE lab FROM PUBLIC");
                    h.execute("GRANT CONNECT ON DATABASE lab TO fencelab");
                });
                long publicBefore = objectsIn(admin, "public");

                String url = labUrl.replaceFirst("\\?user=postgres", "?currentSchema=fencelab");
                try (Database asRole = Database.open(DatabaseConfig.external(url, "fencelab", "role-secret"), 2)) {
                    RunContext run = asRole.newRun("role test");
                    assertThat(run.runId()).isPositive();
                }
                assertThat(objectsIn(admin, "fencelab")).as("Fencelab's tables are in its schema").isPositive();
                assertThat(objectsIn(admin, "public")).as("nothing new outside it").isEqualTo(publicBefore);
            }
        }
    }

    private static long objectsIn(Database db, String schema) {
        return db.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = :s")
                .bind("s", schema).mapTo(Long.class).one());
    }
}

package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two rules of {@link Scrub}, side by side on the same messages: a person may be told where the
 * database is but not its password; a run's record is told neither.
 */
class ScrubTest {

    private static final String SECRET = "s3cretPW";

    @ParameterizedTest
    @ValueSource(strings = {
            "could not connect to jdbc:postgresql://fl:s3cretPW@db.example.org:5433/db: refused",
            "could not connect to jdbc:postgresql://db.example.org:5433/db?user=fl&password=s3cretPW: refused",
            "could not connect to postgresql://fl:s3cretPW@db.example.org:5433/db;password=s3cretPW"})
    void aPersonIsToldWhereButARecordIsToldNeitherWhereNorThePassword(String message) {
        assertThat(Scrub.forPerson(message)).as("for a person: %s", message)
                .doesNotContain(SECRET).contains("db.example.org");
        assertThat(Scrub.forRecord(message)).as("for a record: %s", message)
                .doesNotContain(SECRET).doesNotContain("db.example.org").doesNotContain("fl:");
    }

    @ParameterizedTest
    @ValueSource(strings = {"FATAL: password authentication failed for user \"fl\" (s3cretPW)", "s3cretPW rejected"})
    void aKnownSecretIsMaskedWhereverAMessageQuotesIt(String message) {
        assertThat(Scrub.forPerson(message, null, "", SECRET)).as("masked: %s", message)
                .doesNotContain(SECRET).contains("***");
    }
}

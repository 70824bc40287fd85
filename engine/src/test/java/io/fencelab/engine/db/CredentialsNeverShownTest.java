package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A password given in any form of URL never comes back in an error (the report found one form that did). */
class CredentialsNeverShownTest {

    private static final String SECRET = "s3cretPW";

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:postgresql://fl:s3cretPW@127.0.0.1:1/db",
            "jdbc:postgresql://fl:s3cretPW@nosuchhost.invalid/db",
            "jdbc:postgresql://127.0.0.1:1/db?user=fl&password=s3cretPW",
            "jdbc:postgresql://127.0.0.1:1/db?password=s3cretPW&user=fl",
            "jdbc:postgresql://127.0.0.1:1/db?PASSWORD=s3cretPW",
            "jdbc:postgresql://127.0.0.1:1,127.0.0.1:2/db?user=fl&password=s3cretPW",
            "jdbc:postgresql:db?password=s3cretPW",
            "postgresql://fl:s3cretPW@127.0.0.1:1/db"})
    void aConnectionErrorNeverNamesThePassword(String url) {
        Throwable failure = catchThrowable(() -> Database.open(DatabaseConfig.external(url, null, null), 1).close());
        assertThat(failure).as("connecting to %s must fail", url).isInstanceOf(DatabaseException.class);
        assertThat(failure.getMessage()).as("the error for %s", url).doesNotContain(SECRET);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:postgresql://127.0.0.1:1/db",
            "jdbc:postgresql://fl@127.0.0.1:1/db"})
    void aPasswordGivenApartNeverShowsEither(String url) {
        Throwable failure = catchThrowable(() -> Database.open(DatabaseConfig.external(url, "fl", SECRET), 1).close());
        assertThat(failure).isInstanceOf(DatabaseException.class);
        assertThat(failure.getMessage()).doesNotContain(SECRET);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:postgresql://fl:s3cretPW@host/db",
            "jdbc:postgresql://host/db?user=fl&password=s3cretPW&ssl=true",
            "could not connect to jdbc:postgresql://fl:s3cretPW@host/db: refused",
            "url=jdbc:postgresql://host/db;password=s3cretPW;"})
    void redactingMasksEveryForm(String text) {
        assertThat(DatabaseConfig.redactAll(text)).doesNotContain(SECRET).contains("***");
    }
}

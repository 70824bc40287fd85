package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;

/** What a run records of a failed statement names what went wrong, never where the database is or who connects. */
class DatabaseExceptionTest {

    @Test
    void theDriversConnectionRefusedLosesItsHostAndPort() {
        DatabaseException e = DatabaseException.from(new PSQLException("Connection to localhost:5432 refused. Check "
                + "that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
                PSQLState.CONNECTION_UNABLE_TO_CONNECT));

        assertThat(e.reason()).as("OperationFailed's reason").doesNotContain("localhost").doesNotContain("5432")
                .startsWith("database error (SQL state 08001): Connection to the server refused.");
        assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "could not connect: jdbc:postgresql://fl:s3cretPW@db.example.org:6543/lab?sslmode=require",
            "could not connect: postgresql://fl:s3cretPW@db.example.org/lab",
            "could not connect to db.example.org:6543 as user=fl password=s3cretPW",
            "FATAL: password authentication failed for user \"fl\" (s3cretPW at [2001:db8::1]:6543)"})
    void noConnectionStringHostUserOrPasswordSurvives(String message) {
        DatabaseException e = new DatabaseException(message);

        assertThat(e.reason()).as("scrubbed: " + e.reason()).doesNotContain("s3cretPW@").doesNotContain("db.example.org")
                .doesNotContain("6543").doesNotContain("\"fl\"").doesNotContain("user=fl").doesNotContain("jdbc:")
                .doesNotContain("password=s3cretPW");
    }

    @Test
    void aServerErrorKeepsItsOwnWordsAndDropsItsDetail() {
        ServerErrorMessage server = new ServerErrorMessage(
                "SERROR\0C42501\0Mpermission denied for table lease\0Dthe row held value s3cret\0\0");
        DatabaseException e = DatabaseException.from(new PSQLException(server));

        assertThat(e.endCause()).as("RunEnded's cause: the server's primary message")
                .isEqualTo("permission denied for table lease");
        assertThat(e.reason()).as("OperationFailed's form")
                .isEqualTo("database error (SQL state 42501): ERROR: permission denied for table lease");
        assertThat(e.failure().breaksRun()).as("no fault explains a revoked right").isTrue();
    }

    @Test
    void aKilledConnectionReadsAsItAlwaysHas() {
        ServerErrorMessage server = new ServerErrorMessage(
                "SFATAL\0C57P01\0Mterminating connection due to administrator command\0\0");

        assertThat(DatabaseException.from(new PSQLException(server)).reason())
                .as("the memory model's KILLED: both backends must log the same words")
                .isEqualTo("database error (SQL state 57P01): FATAL: terminating connection due to administrator command");
    }

    @Test
    void aLoginRefusedDoesNotNameTheRole() {
        ServerErrorMessage server = new ServerErrorMessage(
                "SFATAL\0C28P01\0Mpassword authentication failed for user \"fencelab_run\"\0\0");
        DatabaseException e = DatabaseException.from(new PSQLException(server));

        assertThat(e.endCause()).isEqualTo("the database refused the login");
        assertThat(e.reason()).doesNotContain("fencelab_run");
    }
}

package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one boundary between a failed statement a fault explains and a database broken for good. */
class DatabaseFailureTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "57P01, CONNECTION_LOST", "57P03, CONNECTION_LOST", "08006, CONNECTION_LOST", "08001, CONNECTION_LOST",
            "40001, CONFLICT", "40P01, CONFLICT", "55P03, CONFLICT", "57014, CONFLICT"})
    void whatAScenariosFaultsExplainLetsTheRunGoOn(String sqlState, DatabaseFailure expected) {
        assertThat(DatabaseFailure.of(sqlState)).as("SQL state " + sqlState).isEqualTo(expected);
        assertThat(expected.breaksRun()).as(expected + " is recorded as OperationFailed and the run goes on").isFalse();
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "42501, PERMISSION_DENIED", "28P01, PERMISSION_DENIED", "28000, PERMISSION_DENIED",
            "42P01, SCHEMA_MISSING", "42883, SCHEMA_MISSING", "42703, SCHEMA_MISSING", "3F000, SCHEMA_MISSING",
            "3D000, SCHEMA_MISSING", "57P04, SCHEMA_MISSING",
            "53100, DISK_FULL", "53200, OUT_OF_RESOURCES", "53300, OUT_OF_RESOURCES", "53400, OUT_OF_RESOURCES",
            "58030, SERVER_ERROR", "58P01, SERVER_ERROR", "XX000, SERVER_ERROR", "XX001, SERVER_ERROR",
            "22021, REFUSED", "25006, REFUSED", "42601, REFUSED"})
    void whatNoFaultExplainsEndsTheRun(String sqlState, DatabaseFailure expected) {
        assertThat(DatabaseFailure.of(sqlState)).as("SQL state " + sqlState).isEqualTo(expected);
        assertThat(expected.breaksRun()).as(expected + " makes the experiment meaningless").isTrue();
    }

    @org.junit.jupiter.api.Test
    void aFailureWithoutAStateIsALostConnection() {
        assertThat(DatabaseFailure.of((String) null)).as("a pool's time-out carries no state of its own")
                .isEqualTo(DatabaseFailure.CONNECTION_LOST);
    }

    @org.junit.jupiter.api.Test
    void theStateIsFoundThroughAPoolsWrapping() {
        Exception wrapped = new RuntimeException("pool", new java.sql.SQLTransientConnectionException("timed out", null,
                new java.sql.SQLException("password authentication failed", "28P01")));

        assertThat(DatabaseFailure.of(wrapped)).as("the first SQL state in the chain of causes")
                .isEqualTo(DatabaseFailure.PERMISSION_DENIED);
    }
}

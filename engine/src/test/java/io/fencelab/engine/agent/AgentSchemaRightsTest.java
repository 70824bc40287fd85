package io.fencelab.engine.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.DatabaseFailure;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RunRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A role that cannot use the process-run tables is refused before a run, naming the right it lacks,
 * and one holding a run's rights can drain events (the one table a run deletes from).
 */
@ExtendWith(EmbeddedDatabase.class)
class AgentSchemaRightsTest {

    @ParameterizedTest
    @CsvSource({"DELETE, agent_event", "UPDATE, agent_order", "INSERT, agent_host", "UPDATE, agent_run",
            "SELECT, agent"})
    void aMissingRightOnAnAgentTableIsNamed(String right, String table, Database server) {
        try (RunRole role = RunRole.create(server, "fencelab_agent_rights", 2)) {
            server.jdbi().useHandle(h -> h.execute("REVOKE " + right + " ON " + table + " FROM fencelab_agent_rights"));
            assertThatThrownBy(() -> role.database().newRun("refused"))
                    .isInstanceOfSatisfying(DatabaseException.class, e -> {
                        assertThat(e.failure()).isEqualTo(DatabaseFailure.PERMISSION_DENIED);
                        assertThat(e.getMessage()).contains("no " + right + " on table " + table);
                    });
        }
    }

    @Test
    void aRunsRoleCanUseEveryAgentTable(Database server) throws Exception {
        try (RunRole role = RunRole.create(server, "fencelab_agent_user", 2)) {
            long run = role.database().newRun("process").runId();
            AgentTables tables = new AgentTables(role.database());
            tables.createRun(run, "plan");
            tables.addAgent(run, "w#1", null);
            tables.agentUp(run, "w#1", 1, null);
            tables.sendEvent(run, "w#1", 1, 0, "{}");
            assertThat(tables.drainEvents(run)).hasSize(1);
            long order = tables.order(AgentTables.Order.toAgent(run, "w#1", AgentTables.OrderKind.END, null));
            tables.done(order, new AgentTables.OrderResult(true, null, null, null, null));
            assertThat(tables.awaitOrder(order, java.time.Duration.ZERO)).isPresent();
            tables.hostJoined("rights-host", "m", 1, ClockOffset.NONE);
            tables.heartbeat("rights-host", ClockOffset.NONE);
            tables.hostLeft("rights-host");
            tables.endRun(run);
            assertThat(tables.runOver(run)).isTrue();
        }
    }
}

package io.fencelab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.agent.AgentTables.HostRow;
import io.fencelab.engine.agent.AgentTables.Order;
import io.fencelab.engine.agent.AgentTables.OrderKind;
import io.fencelab.engine.agent.AgentTables.OrderResult;
import io.fencelab.engine.agent.ProcessSignals;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code fencelab agent-host} in this JVM against the embedded database: orders go in through
 * {@link AgentTables} as a run would send them, and the host's answers come back through the same
 * tables. Full runs through agents are the process executor's tests.
 */
@ExtendWith(EmbeddedDatabase.class)
class AgentHostCommandTest {

    private static final Duration ANSWER_LIMIT = Duration.ofSeconds(20);

    @Test
    void startOfABogusAgentNameIsRefusedSayingWhatIsAllowed(Database db) throws Exception {
        try (Host host = Host.start(db, "bogus-start")) {
            long run = db.newRun("bogus-start").runId();

            OrderResult result = host.ask(Order.toHost(run, host.name, "w1;touch /tmp/x", OrderKind.START));

            assertThat(result.ok()).as("a START with a name no worker can have").isFalse();
            assertThat(result.pid()).as("nothing was started").isNull();
            assertThat(result.detail()).isEqualTo("agent name must be 1 to 64 of A-Z a-z 0-9 _ . # -, beginning with"
                    + " a letter, digit or _, was \"w1;touch /tmp/x\"");
            assertThat(host.output()).contains("start w1;touch /tmp/x of run " + run + ": refused");
        }
    }

    @Test
    void freezeOfAnAgentItDidNotStartIsRefused(Database db) throws Exception {
        try (Host host = Host.start(db, "foreign-freeze")) {
            long run = db.newRun("foreign-freeze").runId();
            long someoneElses = ProcessHandle.current().pid();

            OrderResult result = host.ask(Order.toHost(run, host.name, "w1", OrderKind.FREEZE));

            assertThat(result.ok()).isFalse();
            assertThat(result.detail()).isEqualTo("no agent w1 of run " + run + " was started by this host");
            assertThat(ProcessSignals.state(someoneElses)).as("this JVM was not stopped").isNotEqualTo(Optional.of('T'));
        }
    }

    @Test
    void anAgentItStartedIsFrozenConfirmedOnTheDatabasesClockThenThawedAndKilled(Database db) throws Exception {
        try (Host host = Host.start(db, "freezer", "--clock-offset", "7s")) {
            AgentTables tables = new AgentTables(db);
            long run = db.newRun("freezer").runId();
            // A run that never starts: its agent waits for time zero, which is all this test needs of it.
            tables.createRun(run, "never compiled: the run does not start");
            tables.addAgent(run, "w1", host.name);

            OrderResult started = host.ask(Order.toHost(run, host.name, "w1", OrderKind.START));
            assertThat(started.ok()).as(started.detail()).isTrue();
            long pid = started.pid();
            assertThat(ProcessHandle.of(pid)).as("the agent's process").isPresent();

            Instant before = dbNow(db);
            OrderResult frozen = host.ask(Order.toHost(run, host.name, "w1", OrderKind.FREEZE));
            Instant after = dbNow(db);
            assertThat(frozen.ok()).as(frozen.detail()).isTrue();
            assertThat(ProcessSignals.state(pid)).as("the kernel shows it stopped").contains('T');
            // The host's clock is 7 s ahead; its measured offset brings the times back to the database's.
            assertThat(frozen.delivered()).as("delivered, on the database's clock")
                    .isBetween(before.minusMillis(250), after.plusMillis(250));
            assertThat(frozen.confirmed()).as("confirmed no earlier than delivered").isAfterOrEqualTo(frozen.delivered())
                    .isBefore(after.plusMillis(250));

            assertThat(host.ask(Order.toHost(run, host.name, "w1", OrderKind.THAW)).ok()).isTrue();
            assertThat(ProcessSignals.state(pid)).as("running again").isNotEqualTo(Optional.of('T'));

            OrderResult killed = host.ask(Order.toHost(run, host.name, "w1", OrderKind.KILL));
            assertThat(killed.ok()).as(killed.detail()).isTrue();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("the agent is gone").isNotEqualTo(
                    Optional.of(true));
        }
    }

    @Test
    void itsHeartbeatAdvancesAndItIsLiveUntilItStopsThenMarkedLeft(Database db) throws Exception {
        AgentTables tables = new AgentTables(db);
        String name;
        try (Host host = Host.start(db, "beating")) {
            name = host.name;
            Instant first = tables.host(name).orElseThrow().lastSeen();
            Thread.sleep(2_500);
            HostRow later = tables.host(name).orElseThrow();

            assertThat(later.lastSeen()).as("heartbeats, one a second").isAfter(first.plusMillis(900));
            assertThat(tables.liveHosts(Duration.ofSeconds(3))).extracting(HostRow::name).contains(name);
            assertThat(later.machine()).isNotBlank();
            assertThat(later.pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(host.output()).contains("agent host " + name + " joined jdbc:postgresql://")
                    .contains("clock offset ").doesNotContain(db.password().orElseThrow());
        }
        HostRow gone = tables.host(name).orElseThrow();
        assertThat(gone.left()).as("marked left when it stops").isTrue();
        assertThat(tables.liveHosts(Duration.ofSeconds(3))).extracting(HostRow::name).doesNotContain(name);
    }

    @Test
    void aHostWithoutTheRunsDatabaseSaysSoInOneLine() {
        StringWriter err = new StringWriter();
        int exit = FencelabCommand.commandLine().setErr(new PrintWriter(err))
                .execute("agent-host", "--name", "h1", "--data-dir", "/nonexistent");

        assertThat(exit).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString().strip()).isEqualTo("fencelab: agent-host needs the run's database: --jdbc-url URL "
                + "(or FENCELAB_JDBC_URL)");
    }

    private static Instant dbNow(Database db) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT clock_timestamp()")
                .mapTo(java.time.OffsetDateTime.class).one()).toInstant();
    }

    /** An agent host on a thread of this JVM, stopped (interrupted) on close. */
    private static final class Host implements AutoCloseable {
        private static final AtomicInteger NEXT = new AtomicInteger();

        final String name;
        private final Thread thread;
        private final StringWriter out = new StringWriter();
        private final AgentTables tables;
        private volatile int exit = -1;

        private Host(Database db, String name, String... extra) {
            this.name = name;
            this.tables = new AgentTables(db);
            String[] args = new String[]{"agent-host", "--jdbc-url", db.jdbcUrl(), "--name", name};
            String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.Arrays.stream(extra))
                    .toArray(String[]::new);
            var cli = FencelabCommand.commandLine().setOut(new PrintWriter(out, true));
            thread = new Thread(() -> exit = cli.execute(all), "agent-host " + name);
        }

        static Host start(Database db, String prefix, String... extra) throws InterruptedException {
            Host host = new Host(db, prefix + "-" + NEXT.incrementAndGet(), extra);
            host.thread.start();
            long deadline = System.nanoTime() + ANSWER_LIMIT.toNanos();
            while (host.tables.host(host.name).map(h -> !h.left()).orElse(false) == Boolean.FALSE) {
                assertThat(host.thread.isAlive()).as("agent host running: " + host.output()).isTrue();
                assertThat(System.nanoTime() - deadline).as("joined within " + ANSWER_LIMIT).isNegative();
                Thread.sleep(50);
            }
            return host;
        }

        OrderResult ask(Order order) throws InterruptedException {
            long id = tables.order(order);
            return tables.awaitOrder(id, ANSWER_LIMIT).orElseThrow(() -> new AssertionError(
                    "no answer within " + ANSWER_LIMIT + " to " + order + "; host said: " + output()));
        }

        String output() {
            synchronized (out) {
                return out.toString();
            }
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join(ANSWER_LIMIT.toMillis());
            assertThat(thread.isAlive()).as("the host stops when interrupted").isFalse();
            assertThat(exit).as(output()).isEqualTo(ExitCodes.OK);
        }
    }
}

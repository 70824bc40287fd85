package io.fencelab.engine.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.agent.AgentTables.AgentEventRow;
import io.fencelab.engine.agent.AgentTables.HostRow;
import io.fencelab.engine.agent.AgentTables.Order;
import io.fencelab.engine.agent.AgentTables.OrderKind;
import io.fencelab.engine.agent.AgentTables.OrderResult;
import io.fencelab.engine.agent.AgentTables.RunPlan;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RunContext;
import io.fencelab.testing.EmbeddedDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The tables a process run, its agents and the agent hosts talk through, on a real PostgreSQL. */
@ExtendWith(EmbeddedDatabase.class)
class AgentTablesTest {

    @Test
    void aPlanHasNoStartUntilTheRunStartsAndIsOverOnceItEnds(RunContext run) {
        AgentTables tables = new AgentTables(run.database());
        long id = run.runId();
        assertThat(tables.plan(id)).as("no plan before createRun").isEmpty();
        assertThat(tables.runOver(id)).as("a run with no plan is over for an agent: it leaves").isTrue();

        tables.createRun(id, "name: plan text\n");
        RunPlan waiting = tables.plan(id).orElseThrow();
        assertThat(waiting.plan()).isEqualTo("name: plan text\n");
        assertThat(waiting.start()).as("no time zero yet: agents wait").isNull();
        assertThat(waiting.over()).isFalse();

        Instant before = dbNow(run.database());
        Instant start = tables.startRun(id);
        assertThat(start).as("time zero is the database's now").isAfterOrEqualTo(before);
        assertThat(tables.plan(id).orElseThrow().start()).isEqualTo(start);
        assertThat(tables.startRun(id)).as("starting again keeps the first time zero").isEqualTo(start);
        assertThat(tables.runOver(id)).isFalse();

        tables.endRun(id);
        assertThat(tables.runOver(id)).isTrue();
        assertThat(tables.plan(id).orElseThrow().over()).isTrue();
    }

    @Test
    void startingARunWithoutAPlanSaysSo(RunContext run) {
        assertThatThrownBy(() -> new AgentTables(run.database()).startRun(run.runId()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("run " + run.runId() + " is not a process run");
    }

    @Test
    void anAgentSaysItIsUpWithItsPidAndHost(RunContext run) {
        AgentTables tables = new AgentTables(run.database());
        long id = run.runId();
        tables.createRun(id, "plan");
        tables.addAgent(id, "w#1", "a");
        tables.addAgent(id, "w#2", null);
        assertThat(tables.agents(id)).extracting(AgentTables.AgentRow::pid).containsOnlyNulls();

        tables.agentUp(id, "w#1", 4242, null);
        tables.agentUp(id, "w#2", 4343, "runner");
        List<AgentTables.AgentRow> agents = tables.agents(id);
        assertThat(agents.get(0)).as("placed on a, keeps it").satisfies(a -> {
            assertThat(a.host()).isEqualTo("a");
            assertThat(a.pid()).isEqualTo(4242L);
            assertThat(a.up()).isNotNull();
        });
        assertThat(agents.get(1).host()).isEqualTo("runner");

        tables.addAgent(id, "w#1", "b");
        assertThat(tables.agents(id).get(0)).as("added again (a restart): placed anew, old pid forgotten")
                .satisfies(a -> {
                    assertThat(a.host()).isEqualTo("b");
                    assertThat(a.pid()).isNull();
                });
        assertThatThrownBy(() -> tables.agentUp(id, "w#9", 1, null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has no agent w#9");
    }

    @Test
    void eventsOfTwoAgentsAreTakenOnceEach(RunContext run) {
        AgentTables tables = new AgentTables(run.database());
        long id = run.runId();
        tables.createRun(id, "plan");
        tables.sendEvent(id, "w#2", 1, 500, "{\"e\":\"b1\"}");
        tables.sendEvent(id, "w#1", 1, 100, "{\"e\":\"a1\"}");
        tables.sendEvent(id, "w#1", 2, 200, "{\"e\":\"a2\"}");

        List<AgentEventRow> first = tables.drainEvents(id);
        assertThat(first).containsExactly(
                new AgentEventRow("w#1", 1, 100, "{\"e\":\"a1\"}"),
                new AgentEventRow("w#1", 2, 200, "{\"e\":\"a2\"}"),
                new AgentEventRow("w#2", 1, 500, "{\"e\":\"b1\"}"));
        assertThat(tables.drainEvents(id)).as("taken once").isEmpty();

        tables.sendEvent(id, "w#2", 2, 600, "{\"e\":\"b2\"}");
        assertThat(tables.drainEvents(id)).extracting(AgentEventRow::localSeq).containsExactly(2L);
    }

    @Test
    void anEventCommittedDuringADrainIsTakenByTheNextOne(RunContext run) throws Exception {
        AgentTables tables = new AgentTables(run.database());
        long id = run.runId();
        tables.createRun(id, "plan");
        tables.sendEvent(id, "w#1", 1, 10, "{}");
        // An agent's insert, held open while the run drains: the drain must neither wait for it nor lose it.
        try (Connection agent = run.database().dataSource().getConnection()) {
            agent.setAutoCommit(false);
            try (var insert = agent.prepareStatement(
                    "INSERT INTO agent_event (run_id, agent, local_seq, at_micros, body) VALUES (?, 'w#1', 2, 20, '{}')")) {
                insert.setLong(1, id);
                insert.executeUpdate();
            }
            assertThat(tables.drainEvents(id)).extracting(AgentEventRow::localSeq).containsExactly(1L);
            agent.commit();
        }
        assertThat(tables.drainEvents(id)).extracting(AgentEventRow::localSeq).containsExactly(2L);
    }

    @Test
    void manyAgentsSendingWhileTheRunDrainsLoseNothingAndDuplicateNothing(RunContext run) throws Exception {
        AgentTables tables = new AgentTables(run.database());
        long id = run.runId();
        tables.createRun(id, "plan");
        int agents = 4;
        int each = 150;
        ExecutorService pool = Executors.newFixedThreadPool(agents);
        List<Future<?>> senders = new ArrayList<>();
        for (int a = 0; a < agents; a++) {
            String name = "w#" + a;
            senders.add(pool.submit(() -> {
                for (int seq = 1; seq <= each; seq++) {
                    tables.sendEvent(id, name, seq, seq, "{}");
                }
            }));
        }
        List<AgentEventRow> taken = new ArrayList<>();
        while (senders.stream().anyMatch(f -> !f.isDone())) {
            taken.addAll(tables.drainEvents(id));
        }
        for (Future<?> f : senders) {
            f.get();
        }
        taken.addAll(tables.drainEvents(id));
        pool.shutdown();
        assertThat(taken).as("every event exactly once").hasSize(agents * each)
                .extracting(e -> e.agent() + "/" + e.localSeq()).doesNotHaveDuplicates();
    }

    @Test
    void anOrderWakesAListenerAndIsReadByTheOneItIsFor(RunContext run) throws Exception {
        AgentTables tables = new AgentTables(run.database());
        long id = run.runId();
        tables.createRun(id, "plan");
        try (AgentTables.Listener listener = tables.listen()) {
            assertThat(listener.awaitNotification(Duration.ofMillis(20))).as("nothing yet").isEmpty();
            long sent = System.nanoTime();
            long toAgent = tables.order(Order.toAgent(id, "w#1", OrderKind.FAULT, "{\"kind\":\"PAUSE\"}"));
            List<Long> woke = listener.awaitNotification(Duration.ofSeconds(2));
            long waited = System.nanoTime() - sent;
            assertThat(woke).as("the NOTIFY carries the run id").contains(id);
            assertThat(Duration.ofNanos(waited)).as("woken within 100 ms").isLessThan(Duration.ofMillis(100));

            long toHost = tables.order(Order.toHost(id, "h-" + id, "w#1", OrderKind.FREEZE));
            assertThat(listener.awaitNotification(Duration.ofSeconds(2))).contains(id);

            assertThat(tables.ordersForAgent(id, "w#1")).as("the agent's own order, not its host's about it")
                    .containsExactly(new Order(toAgent, id, null, "w#1", OrderKind.FAULT, "{\"kind\":\"PAUSE\"}"));
            assertThat(tables.ordersForHost("h-" + id))
                    .containsExactly(new Order(toHost, id, "h-" + id, "w#1", OrderKind.FREEZE, null));

            tables.done(toAgent, new OrderResult(true, null, null, null, "applied"));
            assertThat(tables.ordersForAgent(id, "w#1")).as("a done order is not pending").isEmpty();
        }
    }

    @Test
    void anOrderToNobodyIsRefused(RunContext run) {
        assertThatThrownBy(() -> new AgentTables(run.database())
                .order(new Order(0, run.runId(), null, null, OrderKind.END, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("neither");
    }

    @Test
    void awaitOrderReturnsTheResultAsSoonAsItIsDone(RunContext run) throws Exception {
        AgentTables tables = new AgentTables(run.database());
        long id = run.runId();
        tables.createRun(id, "plan");
        long order = tables.order(Order.toHost(id, "h", "w#1", OrderKind.FREEZE));
        assertThat(tables.awaitOrder(order, Duration.ofMillis(30))).as("not done yet").isEmpty();

        Instant delivered = dbNow(run.database());
        Instant confirmed = delivered.plusNanos(1_500_000);
        CountDownLatch started = new CountDownLatch(1);
        Thread host = Thread.ofVirtual().start(() -> {
            started.countDown();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
            tables.done(order, new OrderResult(true, 777L, delivered, confirmed, "stopped"));
        });
        started.await();
        long asked = System.nanoTime();
        Optional<OrderResult> result = tables.awaitOrder(order, Duration.ofSeconds(5));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
        host.join();
        assertThat(result).contains(new OrderResult(true, 777L, delivered, confirmed, "stopped"));
        assertThat(took).as("within a few ms of being done, not at the limit").isLessThan(1_000);

        tables.done(order, new OrderResult(false, null, null, null, "late"));
        assertThat(tables.awaitOrder(order, Duration.ZERO)).as("the first result stays")
                .map(OrderResult::detail).contains("stopped");
        assertThatThrownBy(() -> tables.awaitOrder(-5, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no order -5");
    }

    @Test
    void aHostJoinsBeatsAndIsLiveUntilItLeavesOrFallsSilent(Database db) throws Exception {
        AgentTables tables = new AgentTables(db);
        String name = "host-" + System.nanoTime();
        Instant at = dbNow(db);
        tables.hostJoined(name, "machine-1", 99, new ClockOffset(-7_000_000, 300, at));
        HostRow joined = tables.host(name).orElseThrow();
        assertThat(joined.machine()).isEqualTo("machine-1");
        assertThat(joined.clockOffsetMicros()).isEqualTo(-7_000_000);
        assertThat(joined.clockUncertaintyMicros()).isEqualTo(300);
        assertThat(joined.left()).isFalse();
        assertThat(tables.liveHosts(Duration.ofSeconds(5))).extracting(HostRow::name).contains(name);

        Thread.sleep(300);
        assertThat(tables.liveHosts(Duration.ofMillis(200))).as("silent for longer than 200 ms")
                .extracting(HostRow::name).doesNotContain(name);
        tables.heartbeat(name, new ClockOffset(-6_999_000, 200, at));
        assertThat(tables.liveHosts(Duration.ofMillis(200))).as("a heartbeat makes it live again")
                .extracting(HostRow::name).contains(name);
        HostRow beat = tables.host(name).orElseThrow();
        assertThat(beat.lastSeen()).isAfter(joined.lastSeen());
        assertThat(beat.clockOffsetMicros()).isEqualTo(-6_999_000);

        tables.hostLeft(name);
        assertThat(tables.host(name).orElseThrow().left()).isTrue();
        assertThat(tables.liveHosts(Duration.ofSeconds(5))).extracting(HostRow::name).doesNotContain(name);
        tables.hostJoined(name, "machine-1", 100, ClockOffset.NONE);
        assertThat(tables.host(name).orElseThrow()).as("joins again").satisfies(h -> {
            assertThat(h.left()).isFalse();
            assertThat(h.pid()).isEqualTo(100);
        });
        assertThatThrownBy(() -> tables.heartbeat("never-" + name, ClockOffset.NONE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has not joined");
        assertThat(tables.host("never-" + name)).isEmpty();
    }

    static Instant dbNow(Database db) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT clock_timestamp()")
                .map((rs, ctx) -> rs.getObject(1, java.time.OffsetDateTime.class).toInstant()).one());
    }
}

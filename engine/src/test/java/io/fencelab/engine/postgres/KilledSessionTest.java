package io.fencelab.engine.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.Session;
import io.fencelab.testing.EmbeddedDatabase;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A connection-kill fault must not leave a dead connection in the pool: a soak once took the
 * database for gone because another run's reachability check borrowed the connection a kill had
 * terminated, which its worker had given back without using it again.
 */
class KilledSessionTest {

    private static final int POOL = 4;
    private static Database db;

    @BeforeAll
    static void start() {
        db = EmbeddedDatabase.startThrowaway(POOL);
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    @Test
    void aKilledSessionGivenBackUnusedNeverReachesTheNextBorrower() throws Exception {
        PostgresRunStore store = PostgresRunStore.open(db, "killed-session", new VirtualClock());
        for (int round = 0; round < 3; round++) {
            PostgresSession opened = (PostgresSession) store.openSession();
            Session victim = opened.session();
            int pid = victim.backendPid();
            store.kill(opened);
            awaitGone(pid);
            victim.close(); // the worker never used it again

            // Every connection the pool has must answer; the dead one would be handed out first
            // (a pool prefers the connection this thread gave back last).
            List<Session> borrowed = new ArrayList<>();
            try {
                for (int i = 0; i < POOL; i++) {
                    Session s = db.openSession();
                    borrowed.add(s);
                    assertThat(s.backendPid()).isNotEqualTo(pid);
                }
            } finally {
                borrowed.forEach(Session::close);
            }
            assertThat(db.isReachable()).isTrue();
        }
        store.close();
    }

    @Test
    void theKilledSessionItselfFailsItsNextStatement() throws Exception {
        PostgresRunStore store = PostgresRunStore.open(db, "killed-session-fails", new VirtualClock());
        PostgresSession opened = (PostgresSession) store.openSession();
        Session victim = opened.session();
        int pid = victim.backendPid();
        store.kill(opened);
        awaitGone(pid);
        assertThatThrownBy(() -> {
            try (ResultSet rs = victim.prepared("SELECT 1").executeQuery()) {
                rs.next();
            }
        }).isInstanceOf(SQLException.class);
        victim.close();
        assertThat(db.isReachable()).isTrue();
        store.close();
    }

    private static void awaitGone(int pid) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            Integer left = db.jdbi().withHandle(h -> h.createQuery(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = :pid").bind("pid", pid).mapTo(Integer.class).one());
            if (left == 0) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("backend " + pid + " still there 10 s after pg_terminate_backend");
    }
}

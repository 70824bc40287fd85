package io.fencelab.engine.fence;

import static io.fencelab.engine.fence.SqlFences.CORRECT;
import static io.fencelab.engine.fence.SqlFences.READ;
import static io.fencelab.engine.fence.SqlFences.report;
import static io.fencelab.engine.fence.SqlFences.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.fencelab.testing.EmbeddedDatabase;

/** The user's own statement, written through {@link SqlTarget} on the embedded PostgreSQL. */
@ExtendWith(EmbeddedDatabase.class)
class SqlTargetTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void theDesignNotesFenceRefusesTheStaleHolderAndKeepsTheNewerBody(RunContext run, Database db) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        leases.startScope("report", 9);
        try (ScratchSchema scratch = SqlFences.create(db, report("bigint", CORRECT));
             Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            // 1-3. A acquires 9, is paused, and its lease expires
            Lease a = leases.acquire("report", "A", TTL).orThrow();
            clock.advance(TTL.plusSeconds(1));
            // 4-5. B acquires 10 and writes
            Lease b = leases.acquire("report", "B", TTL).orThrow();
            assertThat(b.token()).isEqualTo(10);
            SqlWriteResult newer = target.write(session, "report", "17", b.token(), 1L, "B wrote with 10", () -> { });
            assertThat(newer.said()).isEqualTo(Said.ACCEPTED);
            assertThat(newer.outcome()).isEqualTo(new WriteOutcome.Accepted(10, null));
            // 6-7. A resumes and writes with its old token
            SqlWriteResult late = target.write(session, "report", "17", a.token(), 2L, "A wrote with 9", () -> { });

            // 8. refused: the rule declares no stale, so the row tells which refusal it was
            assertThat(late.said()).as("rows = 0 is not accepted").isEqualTo(Said.REFUSED);
            assertThat(late.outcome()).isEqualTo(new WriteOutcome.Stale(9, 10));
            assertThat(late.contradiction()).isNull();
            // 9. the newer state is intact
            assertThat(target.read(session, "report", "17")).isEqualTo(new ReadBack("10", "B wrote with 10"));
            assertThat(session.connection().getAutoCommit()).as("the session is back in autocommit").isTrue();
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aFunctionFenceIsReadByItsResult(Database db) {
        String function = """
                CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL, fencing_token bigint NOT NULL);
                CREATE FUNCTION fence_write(p_key bigint, p_token bigint, p_body text) RETURNS text
                LANGUAGE plpgsql AS $$
                DECLARE held bigint;
                BEGIN
                  SELECT fencing_token INTO held FROM report_state WHERE report_id = p_key FOR UPDATE;
                  IF NOT FOUND THEN RETURN 'missing'; END IF;
                  IF held > p_token THEN RETURN 'stale'; END IF;
                  UPDATE report_state SET body = p_body, fencing_token = p_token WHERE report_id = p_key;
                  RETURN 'ok';
                END $$;
                """;
        SqlFence fence = new SqlFence("report", SqlText.of(function), List.of(), SqlText.of(SqlFences.SETUP),
                List.of(SqlText.of("SELECT fence_write(:key, :token, :body)")),
                rule("result = 'ok'", "result = 'stale'", "result = 'missing'"), SqlText.of(READ), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, fence); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");

            assertThat(target.write(session, "s", "17", 5, null, "five", () -> { }).said()).isEqualTo(Said.ACCEPTED);
            SqlWriteResult stale = target.write(session, "s", "17", 4, null, "four", () -> { });
            assertThat(stale.said()).isEqualTo(Said.STALE);
            assertThat(stale.outcome()).isEqualTo(new WriteOutcome.Stale(4, 5));
            SqlWriteResult missing = target.write(session, "s", "18", 6, null, "six", () -> { });
            assertThat(missing.said()).isEqualTo(Said.MISSING);
            assertThat(missing.outcome()).isEqualTo(new WriteOutcome.Missing("report:18"));
            assertThat(missing.readBack().exists()).isFalse();
        }
    }

    @Test
    void aRaisedErrorIsStaleWhenTheRuleNamesItsSqlState(Database db) {
        String function = """
                CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL, fencing_token bigint NOT NULL);
                CREATE FUNCTION fence_write(p_key bigint, p_token bigint, p_body text) RETURNS text
                LANGUAGE plpgsql AS $$
                BEGIN
                  UPDATE report_state SET body = p_body, fencing_token = p_token
                  WHERE report_id = p_key AND fencing_token <= p_token;
                  IF NOT FOUND THEN RAISE EXCEPTION 'stale token %', p_token; END IF;
                  RETURN 'ok';
                END $$;
                """;
        SqlFence fence = new SqlFence("report", SqlText.of(function), List.of(), SqlText.of(SqlFences.SETUP),
                List.of(SqlText.of("SELECT fence_write(:key, :token, :body)")),
                rule("result = 'ok'", "sqlstate = 'P0001'", null), SqlText.of(READ), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, fence); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            assertThat(target.write(session, "s", "17", 5, null, "five", () -> { }).said()).isEqualTo(Said.ACCEPTED);

            SqlWriteResult stale = target.write(session, "s", "17", 4, null, "four", () -> { });

            assertThat(stale.said()).isEqualTo(Said.STALE);
            assertThat(stale.readBack()).as("read after the failed statement's rollback")
                    .isEqualTo(new ReadBack("5", "five"));
            assertThat(stale.outcome()).isEqualTo(new WriteOutcome.Stale(4, 5));
        }
    }

    @Test
    void aFenceFunctionWithAStandardBodyIsMadeWhole(Database db) {
        String schema = SqlFences.TABLE.formatted("bigint") + """
                CREATE FUNCTION fence_write(p_key bigint, p_token bigint, p_body text) RETURNS bigint LANGUAGE sql
                BEGIN ATOMIC
                  UPDATE report_state SET body = p_body, fencing_token = p_token
                   WHERE report_id = p_key AND fencing_token <= p_token;
                  SELECT CASE WHEN fencing_token = p_token THEN 1 ELSE 0 END FROM report_state WHERE report_id = p_key;
                END;
                """;
        SqlFence fence = new SqlFence("report", SqlText.of(schema), List.of(), SqlText.of(SqlFences.SETUP),
                List.of(SqlText.of("SELECT fence_write(:key, :token, :body)")), rule("result = '1'", null, null),
                SqlText.of(READ), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, fence); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            assertThat(target.write(session, "s", "17", 5, null, "five", () -> { }).said()).isEqualTo(Said.ACCEPTED);
            assertThat(target.write(session, "s", "17", 4, null, "four", () -> { }).said()).isEqualTo(Said.REFUSED);
        }
    }

    @Test
    void aFunctionThatAppliesTheWriteAndSaysMissingIsContradicted(Database db) {
        String liar = SqlFences.TABLE.formatted("bigint") + """
                CREATE FUNCTION fence_write(p_key bigint, p_token bigint, p_body text) RETURNS text LANGUAGE plpgsql AS $$
                BEGIN
                  UPDATE report_state SET body = p_body, fencing_token = p_token WHERE report_id = p_key;
                  RETURN CASE WHEN p_token > 5 THEN 'ok' ELSE 'missing' END;
                END $$;
                """;
        SqlFence fence = new SqlFence("report", SqlText.of(liar), List.of(), SqlText.of(SqlFences.SETUP),
                List.of(SqlText.of("SELECT fence_write(:key, :token, :body)")),
                rule("result = 'ok'", "result = 'stale'", "result = 'missing'"), SqlText.of(READ), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, fence); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            assertThat(target.write(session, "s", "17", 7, null, "seven", () -> { }).contradiction()).isNull();

            SqlWriteResult lie = target.write(session, "s", "17", 3, null, "three", () -> { });

            assertThat(lie.said()).isEqualTo(Said.MISSING);
            assertThat(lie.contradiction()).isEqualTo("it said missing, but the row for key 17 exists (token 3, "
                    + "holding this write)");
        }
    }

    @Test
    void aTextTokenColumnAcceptsNineAfterTen(Database db) {
        try (ScratchSchema scratch = SqlFences.create(db, report("text", CORRECT)); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            target.write(session, "s", "17", 10, null, "ten", () -> { });

            SqlWriteResult nine = target.write(session, "s", "17", 9, null, "nine", () -> { });

            assertThat(nine.said()).as("'10' <= '9' as text").isEqualTo(Said.ACCEPTED);
            assertThat(nine.readBack()).isEqualTo(new ReadBack("9", "nine"));
            assertThat(nine.contradiction()).as("the statement told the truth about what it did").isNull();
        }
    }

    @Test
    void aFloatTokenColumnContradictsAcceptedAboveTwoToTheFiftyThree(Database db) {
        long big = 1L << 53;
        try (ScratchSchema scratch = SqlFences.create(db, report("float8", CORRECT)); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            assertThat(target.write(session, "s", "17", big, null, "2^53", () -> { }).contradiction()).isNull();

            SqlWriteResult next = target.write(session, "s", "17", big + 1, null, "2^53+1", () -> { });

            assertThat(next.said()).isEqualTo(Said.ACCEPTED);
            assertThat(next.readBack()).isEqualTo(new ReadBack(Long.toString(big), "2^53+1"));
            assertThat(next.contradiction())
                    .isEqualTo("it said accepted and the row holds this write, but under token 9007199254740992, "
                            + "not 9007199254740993");
        }
    }

    @Test
    void anIntTokenColumnFailsAboveTwoToTheThirtyOne(Database db) {
        try (ScratchSchema scratch = SqlFences.create(db, report("int4", CORRECT)); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            target.write(session, "s", "17", Integer.MAX_VALUE, null, "2^31-1", () -> { });

            assertThatThrownBy(() -> target.write(session, "s", "17", 1L << 31, null, "2^31", () -> { }))
                    .isInstanceOf(DatabaseException.class)
                    .hasMessageContaining("22003");
            assertThat(target.read(session, "s", "17")).as("the failed write changed nothing")
                    .isEqualTo(new ReadBack(Integer.toString(Integer.MAX_VALUE), "2^31-1"));
            assertThat(session.connection().getAutoCommit()).as("autocommit restored after the error").isTrue();
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void checkThenWriteLetsANewerWriteInsideTheGapBeOverwritten(Database db) {
        SqlFence checkThenWrite = new SqlFence("report", SqlText.of(SqlFences.TABLE.formatted("bigint")), List.of(),
                SqlText.of(SqlFences.SETUP),
                List.of(SqlText.of("SELECT 1 FROM report_state WHERE report_id = :key AND fencing_token <= :token"),
                        SqlText.of("UPDATE report_state SET body = :body, fencing_token = :token WHERE report_id = :key")),
                rule("rows = 1", null, null), SqlText.of(READ), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, checkThenWrite);
             Session old = db.openSession(); Session newer = db.openSession()) {
            SqlTarget target = scratch.target("report");
            target.write(old, "s", "17", 9, null, "nine", () -> { });

            // The old holder checked with 9 and was let through; in the gap the newer holder writes 10.
            SqlWriteResult late = target.write(old, "s", "17", 9, null, "nine again", () ->
                    assertThat(target.write(newer, "s", "17", 10, null, "ten", () -> { }).said()).isEqualTo(Said.ACCEPTED));

            assertThat(late.said()).as("the stale write went through").isEqualTo(Said.ACCEPTED);
            assertThat(late.readBack()).as("10's body is overwritten by 9").isEqualTo(new ReadBack("9", "nine again"));

            SqlWriteResult refused = target.write(old, "s", "17", 8, null, "eight", () -> { });
            assertThat(refused.said()).as("a check that finds no row stops the write").isEqualTo(Said.REFUSED);
            assertThat(refused.outcome()).isEqualTo(new WriteOutcome.Stale(8, 9));
        }
    }

    @Test
    void aCheckThatAnswersFalseStopsTheWrite(Database db) {
        SqlFence checkThenWrite = new SqlFence("report", SqlText.of(SqlFences.TABLE.formatted("bigint")), List.of(),
                SqlText.of(SqlFences.SETUP),
                List.of(SqlText.of("SELECT fencing_token <= :token FROM report_state WHERE report_id = :key"),
                        SqlText.of("UPDATE report_state SET body = :body, fencing_token = :token WHERE report_id = :key")),
                rule("rows = 1", null, null), SqlText.of(READ), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, checkThenWrite); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            assertThat(target.write(session, "s", "17", 9, null, "nine", () -> { }).said()).isEqualTo(Said.ACCEPTED);

            SqlWriteResult late = target.write(session, "s", "17", 8, null, "eight", () -> { });

            assertThat(late.said()).isEqualTo(Said.REFUSED);
            assertThat(late.readBack()).isEqualTo(new ReadBack("9", "nine"));
        }
    }

    @Test
    void aCheckThatRaisesTheDeclaredSqlStateIsStale(Database db) {
        String schema = SqlFences.TABLE.formatted("bigint") + """
                CREATE FUNCTION check_token(p_key bigint, p_token bigint) RETURNS boolean LANGUAGE plpgsql AS $$
                BEGIN
                  IF (SELECT fencing_token FROM report_state WHERE report_id = p_key) > p_token THEN
                    RAISE EXCEPTION 'stale' USING ERRCODE = 'FE001';
                  END IF;
                  RETURN true;
                END $$;
                """;
        SqlFence checkThenWrite = new SqlFence("report", SqlText.of(schema), List.of(), SqlText.of(SqlFences.SETUP),
                List.of(SqlText.of("SELECT check_token(:key, :token)"),
                        SqlText.of("UPDATE report_state SET body = :body, fencing_token = :token WHERE report_id = :key")),
                rule("rows = 1", "sqlstate = 'FE001'", null), SqlText.of(READ), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, checkThenWrite); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            assertThat(target.write(session, "s", "17", 9, null, "nine", () -> { }).said()).isEqualTo(Said.ACCEPTED);

            SqlWriteResult late = target.write(session, "s", "17", 8, null, "eight", () -> { });

            assertThat(late.said()).isEqualTo(Said.STALE);
            assertThat(late.outcome()).isEqualTo(new WriteOutcome.Stale(8, 9));
        }
    }

    @Test
    void aRolledBackWriteLeavesTheStoredTokenWhereItWas(Database db) {
        try (ScratchSchema scratch = SqlFences.create(db, report("bigint", CORRECT)); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            target.write(session, "s", "17", 5, null, "five", () -> { });

            SqlWriteResult doomed = target.writeRolledBack(session, "s", "17", 6, null, "six");

            assertThat(doomed.readBack()).as("seen inside its own transaction").isEqualTo(new ReadBack("6", "six"));
            assertThat(target.read(session, "s", "17")).isEqualTo(new ReadBack("5", "five"));
        }
    }

    @Test
    void theFinalStateReadsEveryKeyWrittenAsSqlResources(Database db) {
        try (ScratchSchema scratch = SqlFences.create(db, report("bigint", CORRECT)); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            target.write(session, "s", "17", 5, null, "five", () -> { });
            target.write(session, "s", "99", 5, null, "nowhere", () -> { });

            List<ResourceState> states = scratch.finalState();

            assertThat(states).as("key 99 has no row, so it has no state").containsExactly(new ResourceState(
                    TargetKind.SQL, "s", "report:17", 5, io.fencelab.engine.check.ValueDigest.of("five")));
        }
    }

    @Test
    void oneSessionServesTwoScratchSchemasWhoseColumnsDifferInType(Database db) {
        try (Session session = db.openSession();
             ScratchSchema numbers = SqlFences.create(db, report("bigint", CORRECT));
             ScratchSchema texts = SqlFences.create(db, report("text", CORRECT))) {
            // past the driver's threshold (5), where it prepares a statement on the server, in turns
            for (long token = 1; token <= 8; token++) {
                for (ScratchSchema scratch : List.of(numbers, texts)) {
                    assertThat(scratch.target("report").write(session, "s", "17", token, token, "w" + token, () -> { })
                            .said()).as("%s, token %d", scratch.name(), token).isEqualTo(Said.ACCEPTED);
                }
            }
            assertThat(numbers.target("report").write(session, "s", "17", 10, null, "ten", () -> { }).said())
                    .as("the bigint column compares numbers").isEqualTo(Said.ACCEPTED);
            assertThat(texts.target("report").write(session, "s", "17", 10, null, "ten", () -> { }).said())
                    .as("the text column still compares text: '8' > '10'").isEqualTo(Said.REFUSED);
        }
    }

    @Test
    void scopesAreBoundSoAHighTokenInOneNeverBlocksAnother(Database db) {
        SqlFence scoped = new SqlFence("report", SqlText.of("""
                CREATE TABLE report_state (scope text, report_id bigint, body text NOT NULL, fencing_token bigint NOT NULL,
                                           PRIMARY KEY (scope, report_id));
                INSERT INTO report_state VALUES ('a', 17, '', 0), ('b', 17, '', 0);
                """), List.of(), null,
                List.of(SqlText.of("UPDATE report_state SET body = :body, fencing_token = :token "
                        + "WHERE scope = :scope AND report_id = :key AND fencing_token <= :token")),
                rule("rows = 1", null, null),
                SqlText.of("SELECT fencing_token AS token, body FROM report_state WHERE scope = :scope AND report_id = :key"),
                null, null);
        try (ScratchSchema scratch = SqlFences.create(db, scoped); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");
            target.write(session, "a", "17", 1000, null, "a at 1000", () -> { });

            SqlWriteResult b = target.write(session, "b", "17", 3, null, "b at 3", () -> { });

            assertThat(b.said()).isEqualTo(Said.ACCEPTED);
            assertThat(target.read(session, "a", "17")).isEqualTo(new ReadBack("1000", "a at 1000"));
            assertThat(scratch.finalState()).extracting(ResourceState::scope, ResourceState::token)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 1000L), org.assertj.core.groups.Tuple.tuple("b", 3L));
        }
    }

    @Test
    void aQuestionMarkOperatorOfTheUsersReachesPostgres(Database db) {
        String write = CORRECT + " AND '{\"fenced\": true}'::jsonb ? 'fenced'";
        try (ScratchSchema scratch = SqlFences.create(db, report("bigint", write)); Session session = db.openSession()) {
            assertThat(scratch.target("report").write(session, "s", "17", 1, null, "one", () -> { }).said())
                    .isEqualTo(Said.ACCEPTED);
        }
    }
}

package io.fencelab.engine.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.RunContext;
import io.fencelab.testing.EmbeddedDatabase;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedDatabase.class)
class LeaseServiceTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void firstAcquisitionOfANewScopeGetsTokenOne(RunContext run) {
        LeaseService leases = new LeaseService(run, new VirtualClock());

        AcquireResult result = leases.acquire("report", "A", TTL);

        assertThat(result).isInstanceOfSatisfying(AcquireResult.Acquired.class, a -> {
            assertThat(a.lease().token()).isEqualTo(1);
            assertThat(a.lease().holder()).isEqualTo("A");
            assertThat(a.lease().expiresAt()).isEqualTo(VirtualClock.DEFAULT_EPOCH.plus(TTL));
        });
    }

    @Test
    void aStartedScopeIssuesTheChosenFirstTokenThenCountsUp(RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        leases.startScope("report", 41);

        Lease a = leases.acquire("report", "A", TTL).orThrow();
        leases.release(a);
        Lease b = leases.acquire("report", "B", TTL).orThrow();
        leases.release(b);
        Lease c = leases.acquire("report", "C", TTL).orThrow();

        assertThat(new long[] {a.token(), b.token(), c.token()}).containsExactly(41, 42, 43);
    }

    @Test
    void aCounterIsNeverMovedBackwards(RunContext run) {
        LeaseService leases = new LeaseService(run, new VirtualClock());
        leases.startScope("report", 100);
        leases.release(leases.acquire("report", "A", TTL).orThrow());

        boolean moved = leases.startScope("report", 5);

        assertThat(moved).as("rewinding a counter must be refused").isFalse();
        assertThat(leases.acquire("report", "B", TTL).orThrow().token()).isEqualTo(101);
    }

    @Test
    void anUnexpiredLeaseIsBusyAndNamesItsHolder(RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        clock.advance(Duration.ofSeconds(29));

        AcquireResult result = leases.acquire("report", "B", TTL);

        assertThat(result).isEqualTo(new AcquireResult.Busy("report", "A", a.token(), a.expiresAt()));
    }

    @Test
    void anExpiredLeaseIsGrantedToTheNextHolderWithTheNextToken(RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        clock.advance(TTL);

        Lease b = leases.acquire("report", "B", TTL).orThrow();

        assertThat(b.token()).isEqualTo(a.token() + 1);
        assertThat(b.holder()).isEqualTo("B");
    }

    @Test
    void renewExtendsOnlyWhileTheLeaseIsCurrent(RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        clock.advance(Duration.ofSeconds(20));

        RenewResult renewed = leases.renew(a, TTL);
        assertThat(renewed).isInstanceOfSatisfying(RenewResult.Renewed.class,
                r -> assertThat(r.lease().expiresAt()).isEqualTo(clock.now().plus(TTL)));

        clock.advance(Duration.ofSeconds(31));
        assertThat(leases.renew(((RenewResult.Renewed) renewed).lease(), TTL))
                .as("a lease past its expiry cannot be renewed")
                .isInstanceOf(RenewResult.NotHeld.class);
    }

    @Test
    void renewBySupersededHolderFailsEvenIfTheNewLeaseIsLive(RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        clock.advance(TTL);
        leases.acquire("report", "B", TTL).orThrow();

        assertThat(leases.renew(a, TTL)).isEqualTo(new RenewResult.NotHeld(a));
    }

    @Test
    void releaseFreesTheScopeButNeverReusesItsToken(RunContext run) {
        LeaseService leases = new LeaseService(run, new VirtualClock());
        Lease a = leases.acquire("report", "A", TTL).orThrow();

        assertThat(leases.release(a)).isTrue();
        assertThat(leases.release(a)).as("a second release acts on nothing").isFalse();
        Lease b = leases.acquire("report", "B", TTL).orThrow();

        assertThat(b.token()).isGreaterThan(a.token());
    }

    @Test
    void scopesHaveIndependentSequences(RunContext run) {
        LeaseService leases = new LeaseService(run, new VirtualClock());
        leases.startScope("customer-17", 8);
        leases.startScope("customer-24", 3);

        long c17 = leases.acquire("customer-17", "A", TTL).orThrow().token();
        long c24 = leases.acquire("customer-24", "A", TTL).orThrow().token();

        assertThat(c17).isEqualTo(8);
        assertThat(c24).isEqualTo(3);
    }

    @Test
    void runsAreIsolatedFromEachOther(RunContext run, io.fencelab.engine.db.Database db) {
        RunContext other = db.newRun("other");
        LeaseService mine = new LeaseService(run, new VirtualClock());
        LeaseService theirs = new LeaseService(other, new VirtualClock());
        mine.startScope("report", 500);
        mine.acquire("report", "A", TTL).orThrow();

        Lease inOtherRun = theirs.acquire("report", "B", TTL).orThrow();

        assertThat(inOtherRun.token()).as("the other run has its own counter and its own free lease").isEqualTo(1);
    }

    @Test
    void tokensNearTheTopOfTheRangeAreIssuedExactly(RunContext run) {
        LeaseService leases = new LeaseService(run, new VirtualClock());
        leases.startScope("report", Long.MAX_VALUE - 1);

        Lease a = leases.acquire("report", "A", TTL).orThrow();
        leases.release(a);
        Lease b = leases.acquire("report", "B", TTL).orThrow();

        assertThat(a.token()).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(b.token()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void acquisitionAtLongMaxValueFailsWithExhaustionAndNeverWraps(RunContext run) {
        LeaseService leases = new LeaseService(run, new VirtualClock());
        leases.startScope("report", Long.MAX_VALUE);
        leases.release(leases.acquire("report", "A", TTL).orThrow());

        AcquireResult result = leases.acquire("report", "B", TTL);

        assertThat(result).isEqualTo(new AcquireResult.Exhausted("report", Long.MAX_VALUE));
        assertThatThrownBy(result::orThrow).isInstanceOf(TokenExhaustedException.class)
                .hasMessageContaining("never wrap");
        assertThat(leases.current("report")).get()
                .extracting(LeaseService.ScopeState::lastToken).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void expiryIsJudgedByTheRunClockNotTheDatabaseClock(RunContext run) {
        // The virtual clock is set far in the future; the database's own clock would say the lease is live.
        VirtualClock clock = new VirtualClock(java.time.Instant.parse("2100-01-01T00:00:00Z"));
        LeaseService leases = new LeaseService(run, clock);
        leases.acquire("report", "A", TTL).orThrow();
        clock.advance(TTL.plusSeconds(1));

        assertThat(leases.acquire("report", "B", TTL)).isInstanceOf(AcquireResult.Acquired.class);
    }

    @Test
    void liveModeJudgesExpiryByTheDatabaseClock(RunContext run) {
        LeaseService leases = new LeaseService(run, new io.fencelab.engine.clock.LiveClock());
        Lease a = leases.acquire("report", "A", Duration.ofMillis(200)).orThrow();

        assertThat(leases.acquire("report", "B", TTL)).as("still held").isInstanceOf(AcquireResult.Busy.class);
        sleep(Duration.ofMillis(300));
        Lease b = leases.acquire("report", "B", TTL).orThrow();

        assertThat(b.token()).isEqualTo(a.token() + 1);
    }

    @Test
    void aNonPositiveTtlIsRefused(RunContext run) {
        LeaseService leases = new LeaseService(run, new VirtualClock());

        assertThatThrownBy(() -> leases.acquire("report", "A", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttl");
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

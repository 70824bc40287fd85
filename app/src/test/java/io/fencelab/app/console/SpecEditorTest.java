package io.fencelab.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.app.console.model.Parameters;
import io.fencelab.app.console.run.SpecEditor;
import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.lease.TokenRecipe;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.scenarios.Catalog;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SpecEditorTest {

    private final RunSpec story = Catalog.shipped().load("paused-holder").spec();

    @Test
    void theScenariosOwnParametersGiveBackTheSameSpec() {
        assertThat(SpecEditor.apply(story, SpecEditor.parametersOf(story))).isEqualTo(story);
    }

    @Test
    void leaseFencingTokensAndExecutorAreReplacedAndTheSeedKept() {
        Parameters p = new Parameters(12.5, 3, 2, Parameters.PauseLength.AS_SCENARIO, 10, 0, FencingMode.UNFENCED,
                TokenScheme.RANDOM_UUID, ExecutorKind.LIVE);
        RunSpec edited = SpecEditor.apply(story, p);
        assertThat(edited.leaseTtl()).isEqualTo(Duration.ofMillis(12_500));
        assertThat(edited.renewInterval()).isEqualTo(Duration.ofSeconds(3));
        assertThat(edited.fencing()).isEqualTo(FencingMode.UNFENCED);
        assertThat(edited.tokenScheme()).isEqualTo(TokenScheme.RANDOM_UUID);
        assertThat(edited.executor()).isEqualTo(ExecutorKind.LIVE);
        assertThat(edited.seed()).isEqualTo(story.seed());
        assertThat(edited.faults()).isEqualTo(story.faults());
    }

    @Test
    void extraWorkersCopyTheScenariosWorkersUnderNewNames() {
        RunSpec edited = SpecEditor.apply(story, with(SpecEditor.parametersOf(story), 5));
        assertThat(edited.workers()).extracting(WorkerSpec::name).containsExactly("A", "B", "A2", "B2", "A3");
        assertThat(edited.workers().get(2).scope()).isEqualTo("report");
        assertThat(edited.workers().get(2).startAt()).isGreaterThan(story.workers().get(0).startAt());
    }

    @Test
    void fewerWorkersDropTheFaultsAimedAtTheOnesRemoved() {
        RunSpec onlyB = new RunSpec(story.name(), story.workers().reversed(), story.firstTokens(), story.leaseTtl(),
                story.renewInterval(), story.fencing(), story.tokenScheme(), story.firstWrite(), story.faults(),
                story.seed(), story.duration(), story.executor(), story.timeScale());
        RunSpec edited = SpecEditor.apply(onlyB, with(SpecEditor.parametersOf(onlyB), 1));
        assertThat(edited.workers()).extracting(WorkerSpec::name).containsExactly("B");
        assertThat(edited.faults()).as("A's pause has no one to pause").isEmpty();
    }

    @Test
    void aPauseDistributionReplacesTheLengthOfEveryPauseAndNoneRemovesThem() {
        Parameters base = SpecEditor.parametersOf(story);
        RunSpec pareto = SpecEditor.apply(story, new Parameters(base.leaseTtlSeconds(), base.renewEverySeconds(),
                base.workers(), Parameters.PauseLength.PARETO, 6, 0, base.fencing(), base.tokenScheme(),
                base.executor()));
        assertThat(pareto.faults()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(FaultKind.PAUSE);
            assertThat(f.target()).isEqualTo("A");
            assertThat(f.duration()).isEqualTo(new Distribution.Pareto(Duration.ofSeconds(2), 1.5, Duration.ofSeconds(60)));
        });
        RunSpec none = SpecEditor.apply(story, new Parameters(base.leaseTtlSeconds(), base.renewEverySeconds(),
                base.workers(), Parameters.PauseLength.NONE, 6, 0, base.fencing(), base.tokenScheme(), base.executor()));
        assertThat(none.faults()).isEmpty();
    }

    @Test
    void networkDelayDelaysEveryHoldersRequestsForTheWholeRun() {
        Parameters base = SpecEditor.parametersOf(story);
        RunSpec delayed = SpecEditor.apply(story, new Parameters(base.leaseTtlSeconds(), base.renewEverySeconds(),
                base.workers(), base.pauses(), base.pauseSeconds(), 250, base.fencing(), base.tokenScheme(),
                base.executor()));
        assertThat(delayed.faults()).contains(new FaultSpec(FaultKind.REQUEST_DELAY, FaultSpec.ALL,
                new FaultStart.At(Duration.ZERO), new Distribution.Fixed(story.duration()), Duration.ofMillis(250)));
    }

    @Test
    void aFaultByHandStartsAtTheGivenRunTimeOnTheGivenHolder() {
        RunSpec withKill = SpecEditor.withFault(story, FaultKind.CONNECTION_KILL, "B", 31_500_000,
                Duration.ofSeconds(10), Duration.ZERO);
        assertThat(withKill.faults()).hasSize(2).last().isEqualTo(new FaultSpec(FaultKind.CONNECTION_KILL, "B",
                new FaultStart.At(Duration.ofMillis(31_500)), new Distribution.Fixed(Duration.ZERO), Duration.ZERO));
    }

    @Test
    void impossibleParametersAreRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> new Parameters(0, 0, 2, Parameters.PauseLength.AS_SCENARIO, 1, 0, FencingMode.FENCED,
                TokenScheme.MONOTONIC, ExecutorKind.SIMULATED)).hasMessageContaining("lease ttl must be more than 0 s");
        assertThatThrownBy(() -> new Parameters(1, 0, 0, Parameters.PauseLength.AS_SCENARIO, 1, 0, FencingMode.FENCED,
                TokenScheme.MONOTONIC, ExecutorKind.SIMULATED)).hasMessageContaining("workers must be 1 to 1000");
    }

    @Test
    void aRealServiceTakesItsOwnClientWithTheSheetsTtlAsTheCommandLineDoes() {
        LeaseServiceSpec redis = new LeaseServiceSpec(ServiceKind.REDIS, TokenRecipe.LUA, null);
        Parameters p = new Parameters(20, 0, 2, Parameters.PauseLength.AS_SCENARIO, 10, 0, FencingMode.FENCED,
                TokenScheme.MONOTONIC, ExecutorKind.LIVE, redis);
        RunSpec edited = SpecEditor.apply(story, p);
        assertThat(edited.service()).isEqualTo(redis);
        assertThat(edited.lease()).isEqualTo(new LeaseProfile.Redisson(Duration.ofSeconds(20)));
        assertThat(SpecEditor.parametersOf(edited).service()).as("read back from the spec").isEqualTo(redis);
    }

    @Test
    void aSimulatedRunOnARealServiceIsRefusedAndEachChoiceBringsTheOtherAlong() {
        LeaseServiceSpec etcd = new LeaseServiceSpec(ServiceKind.ETCD, null, null);
        assertThatThrownBy(() -> new Parameters(1, 0, 2, Parameters.PauseLength.AS_SCENARIO, 1, 0, FencingMode.FENCED,
                TokenScheme.MONOTONIC, ExecutorKind.SIMULATED, etcd)).hasMessageContaining("choose the executor LIVE");
        assertThat(Parameters.executorFor(etcd, ExecutorKind.SIMULATED)).isEqualTo(ExecutorKind.PROCESS);
        assertThat(Parameters.executorFor(etcd, ExecutorKind.PROCESS)).isEqualTo(ExecutorKind.PROCESS);
        assertThat(Parameters.serviceFor(ExecutorKind.SIMULATED, etcd)).isEqualTo(LeaseServiceSpec.POSTGRES);
        assertThat(Parameters.serviceFor(ExecutorKind.LIVE, etcd)).isEqualTo(etcd);
    }

    private static Parameters with(Parameters p, int workers) {
        return new Parameters(p.leaseTtlSeconds(), p.renewEverySeconds(), workers, p.pauses(), p.pauseSeconds(),
                p.networkDelayMillis(), p.fencing(), p.tokenScheme(), p.executor());
    }
}

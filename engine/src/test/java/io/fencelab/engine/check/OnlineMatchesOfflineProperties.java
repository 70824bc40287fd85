package io.fencelab.engine.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.RandomLog;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/** However a log is cut into batches, the online checker reaches the offline verdict, witness for witness. */
class OnlineMatchesOfflineProperties {

    @Property(tries = 200)
    void onlineInRandomBatchesEqualsOffline(@ForAll long seed, @ForAll @IntRange(min = 1, max = 300) int length) {
        List<Event> log = RandomLog.generate(seed, length);
        List<ResourceState> finalState = List.of(
                new ResourceState(TargetKind.ROW, "report", "k1", 3, "d1"),
                new ResourceState(TargetKind.OBJECT, "ledger", "k2", 2, "d0"));

        OnlineChecker online = new OnlineChecker();
        List<Witness> announced = new ArrayList<>();
        for (List<Event> batch : RandomLog.batches(log, new SplittableRandom(seed ^ 0x5DEECE66DL))) {
            announced.addAll(online.accept(batch));
        }
        Verdict offline = SafetyChecker.judge(log);

        Statistics.label("verdict").collect(offline.kind());
        assertThat(online.verdict()).as("online verdict after random batches, seed %d", seed).isEqualTo(offline);
        assertThat(announced).as("witnesses announced batch by batch").isEqualTo(offline.witnesses());
        assertThat(online.judgement(finalState).verdict()).as("with a final state")
                .isEqualTo(SafetyChecker.judge(log, finalState));
        assertThat(online.judgement().writes().all()).as("every write classified as offline, seed %d", seed)
                .containsExactlyElementsOf(SafetyChecker.judgement(log).writes().all());
    }
}

package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.fence.FencingMode;
import io.fencelab.testing.Specs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which runs may use the in-memory backend; its equivalence with PostgreSQL is BackendEquivalenceProperties'. */
class BackendTest {

    @Test
    void aLiveRunIsRefusedTheInMemoryBackendWithTheReason(@TempDir Path dir) {
        RunSpec live = Specs.twoHolders(FencingMode.FENCED).withExecutor(ExecutorKind.LIVE);

        assertThat(Backend.MEMORY.refusal(live)).get().asString()
                .as("a user asking for memory on a live run learns why and what to use")
                .contains("simulated runs only").contains("postgres");
        assertThatThrownBy(() -> Run.prepare(null, live, dir.resolve("events.jsonl"), Backend.MEMORY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("simulated runs only");
        assertThat(Backend.fastestFor(live)).isEqualTo(Backend.POSTGRES);
    }

    @Test
    void aSimulatedRunMayUseEitherBackendAndSweepsDefaultToMemory() {
        RunSpec simulated = Specs.twoHolders(FencingMode.FENCED).withExecutor(ExecutorKind.SIMULATED);

        assertThat(Backend.MEMORY.refusal(simulated)).isEmpty();
        assertThat(Backend.POSTGRES.refusal(simulated)).isEmpty();
        assertThat(Backend.fastestFor(simulated)).isEqualTo(Backend.MEMORY);
    }
}

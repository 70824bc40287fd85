package io.fencelab.engine.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Freezing, thawing and killing a real child process of this JVM. */
@EnabledOnOs(OS.LINUX)
class ProcessSignalsTest {

    private Process child;

    @BeforeEach
    void startChild() throws Exception {
        child = new ProcessBuilder("sleep", "30").start();
    }

    @AfterEach
    void stopChild() {
        child.destroyForcibly();
    }

    @Test
    void aFrozenProcessIsStoppedUntilThawed() {
        long pid = child.pid();
        ProcessSignals.Frozen frozen = ProcessSignals.freeze(pid, Duration.ofSeconds(2));
        assertThat(frozen.pid()).isEqualTo(pid);
        assertThat(frozen.confirmedNanos()).as("confirmed after delivered").isGreaterThanOrEqualTo(frozen.deliveredNanos());
        assertThat(Duration.ofNanos(frozen.confirmedNanos() - frozen.deliveredNanos()))
                .as("a stop shows in /proc within a few ms").isLessThan(Duration.ofMillis(100));
        assertThat(ProcessSignals.state(pid)).as("stopped").hasValueSatisfying(s -> assertThat(s).isIn('T', 't'));

        ProcessSignals.thaw(pid);
        assertThat(ProcessSignals.state(pid)).as("running or sleeping again")
                .hasValueSatisfying(s -> assertThat(s).isNotIn('T', 't'));
    }

    @Test
    void aKilledProcessIsGone() throws Exception {
        long pid = child.pid();
        ProcessSignals.freeze(pid, Duration.ofSeconds(2)); // SIGKILL ends a frozen process too
        ProcessSignals.kill(pid, Duration.ofSeconds(2));
        assertThat(child.waitFor(2, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("killed by signal 9").isEqualTo(128 + 9);
        assertThat(ProcessSignals.state(pid)).as("no /proc entry once reaped").isEmpty();
        ProcessSignals.thaw(pid); // thawing a process that is gone is no error
    }

    @Test
    void aProcessThatDoesNotExistIsAClearError() throws Exception {
        long pid = child.pid();
        child.destroyForcibly().waitFor();
        assertThatThrownBy(() -> ProcessSignals.freeze(pid, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot freeze process " + pid + ": there is no such process");
        assertThatThrownBy(() -> ProcessSignals.kill(pid, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("there is no such process");
    }

    @Test
    void theStateIsReadAfterACommandNameWithSpacesAndParentheses() {
        assertThat(ProcessSignals.stateOf("123 (my (odd) name) T 1 123 123 0 -1")).isEqualTo('T');
        assertThat(ProcessSignals.stateOf("7 (java) S 1 7")).isEqualTo('S');
    }
}

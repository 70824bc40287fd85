package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdict in words for witnesses that no write sentence tells: a log that contradicts itself. */
class VerdictTextTest {

    @Test
    void aTokenNoGrantIssuedIsToldAsTheLogContradictingItself() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "report", 41, 30);
        log.attempted(45, "A", "report", 43, TargetKind.ROW, "report-1");
        log.accepted(45, "A", "report", 43, TargetKind.ROW, "report-1", "sha256:5d41", null);
        log.runEnded(46);

        List<String> text = VerdictText.of(log.events(), SafetyChecker.judgement(log.events()));

        assertThat(text).as("the witness in words, then the headline that names its kind").containsSubsequence(
                "The log contradicts itself (unissued token): A presented token 43 on ROW report/report-1 at 45.0s, "
                        + "but no grant on scope report in the log had issued it.",
                "Unsafe: 1 violation found (1 unissued token).");
    }
}

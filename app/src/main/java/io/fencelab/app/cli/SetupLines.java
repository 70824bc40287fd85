package io.fencelab.app.cli;

import io.fencelab.engine.run.RunSpec;
import java.io.PrintWriter;
import java.util.List;

/**
 * What a scenario sets its holders up against, as {@code validate} and {@code run} print it: the lease
 * client with all its settings, and the pauses each holder gets ({@code engine.chaos.PauseProfile}),
 * one line per distinct set of pauses.
 */
final class SetupLines {

    private SetupLines() {
    }

    static void print(PrintWriter out, RunSpec spec) {
        out.printf("  lease:  %s%n", spec.lease().describe());
        List<String> pauses = spec.pauseProfile().lines();
        for (int i = 0; i < pauses.size(); i++) {
            out.printf("  %s %s%n", i == 0 ? "pauses:" : "       ", pauses.get(i));
        }
    }
}

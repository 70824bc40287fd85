package io.fencelab.app.cli;

import io.fencelab.engine.fence.SqlFence;
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
        for (SqlFence fence : spec.userFences().fences()) {
            out.printf("  fence:  %s, your SQL (%s), in a scratch schema made for the run; "
                    + "nothing outside it is written%n", fence.name(), fence.write().getFirst().where());
        }
    }
}

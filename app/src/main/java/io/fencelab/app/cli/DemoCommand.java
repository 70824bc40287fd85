package io.fencelab.app.cli;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.StoredValue;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Tells the design note's paused-holder story against real PostgreSQL, step by step, first with
 * fencing and then without, printing what happens at each moment of (virtual) time.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the paused-holder story headless, with and without fencing, and print each step.")
public final class DemoCommand implements Callable<Integer> {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Spec
    CommandSpec spec;

    private PrintWriter out = new PrintWriter(System.out, true);

    DemoCommand withDatabase(DatabaseOptions options) {
        this.database = options;
        return this;
    }

    /** Prints to {@code writer} (when run from another command, which has no spec of its own to lend). */
    DemoCommand withOut(PrintWriter writer) {
        this.out = writer;
        return this;
    }

    @Override
    public Integer call() {
        if (spec != null) {
            out = spec.commandLine().getOut();
        }
        try (Database db = Database.open(database.resolve())) {
            out.println("Fencelab: the paused-holder story, on " + db.describe());
            out.println();
            out.println("With fencing (the resource compares the token and writes in one statement):");
            tell(db.newRun("demo: paused holder, fenced"), FencingMode.FENCED);
            out.println();
            out.println("Without fencing (the resource takes any write):");
            tell(db.newRun("demo: paused holder, unfenced"), FencingMode.UNFENCED);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private void tell(RunContext run, FencingMode mode) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        FencedTarget<String> report = FencedTarget.row(run, mode, FirstWritePolicy.CREATE);
        leases.startScope("report", 41);

        Lease a = leases.acquire("report", "A", TTL).orThrow();
        say(clock, "A acquires the lease on \"report\": token " + a.token() + ", expires at 30s");
        at(clock, 5, "A starts preparing an update");
        at(clock, 10, "A pauses (a GC stall) for 35 s and cannot observe time passing");
        at(clock, 30, "A's lease expires; A, paused, does not notice");
        at(clock, 31, "");
        Lease b = leases.acquire("report", "B", TTL).orThrow();
        say(clock, "B acquires the lease: token " + b.token());
        at(clock, 35, "");
        say(clock, "B writes the report with token " + b.token() + " -> "
                + describe(report.write("report", "report-1", b.token(), "B's report")));
        at(clock, 45, "");
        WriteOutcome late = report.write("report", "report-1", a.token(), "A's older result");
        say(clock, "A resumes and writes with token " + a.token() + " -> " + describe(late));
        StoredValue<String> finalState = report.read("report", "report-1").orElseThrow();
        out.println("  The report holds " + finalState.value() + " (token " + finalState.token() + "). "
                + (late instanceof WriteOutcome.Stale
                        ? "The resource refused the stale holder."
                        : "A's stale write overwrote B's newer work."));
    }

    private void at(VirtualClock clock, int second, String line) {
        clock.advanceTo(clock.start().plusSeconds(second));
        if (!line.isEmpty()) {
            say(clock, line);
        }
    }

    private void say(VirtualClock clock, String line) {
        out.printf("  %3ds  %s%n", clock.elapsed().toSeconds(), line);
    }

    private static String describe(WriteOutcome outcome) {
        return switch (outcome) {
            case WriteOutcome.Accepted a -> "accepted";
            case WriteOutcome.Stale s -> "REJECTED as stale (the report already accepted token " + s.highest() + ")";
            case WriteOutcome.Missing m -> "missing: no resource " + m.key();
            case WriteOutcome.OutOfOrder o -> "rejected: out of order within token " + o.token();
        };
    }
}

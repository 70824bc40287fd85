package io.fencelab.report;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.Workloads;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The design note's paused-holder story, run for real, and the report input a caller would build from it. */
final class Stories {

    static final String SUMMARY = "A lease is permission with a deadline. A holder that pauses past its lease's expiry "
            + "still believes it holds the lease; only the resource, comparing fencing tokens, can stop its late write.";
    static final List<String> STEPS = List.of(
            "A acquires the lease on report with token 41 (30 s lease).",
            "A pauses at 10 s for 35 s, as in a long garbage-collection stop.",
            "A's lease expires at 30 s; the lease service does not wait for A.",
            "B acquires the lease at 31 s with token 42 and writes the report at 35 s.",
            "A resumes at 45 s, still believing it holds the lease, and writes with token 41.");

    private Stories() {
    }

    record Ran(RunResult result, List<Event> events) {}

    static Ran run(Database db, FencingMode mode, Path dir) throws Exception {
        RunSpec spec = Workloads.pausedHolder(mode);
        RunResult result;
        try (Run run = Run.prepare(db, spec, dir.resolve("run-" + mode + ".jsonl"))) {
            result = run.runToEnd();
        }
        return new Ran(result, EventLogReader.read(result.eventLog()));
    }

    static ReportInput input(Ran ran, String title) {
        boolean fenced = ran.result().spec().fencing() == FencingMode.FENCED;
        String expected = fenced ? "SAFE: A's stale write is rejected" : "VIOLATED: A's stale write overwrites B's";
        boolean met = ran.result().verdict().isSafe() == fenced;
        Map<String, String> config = new LinkedHashMap<>();
        RunSpec spec = ran.result().spec();
        config.put("fencing", spec.fencing().name());
        config.put("token scheme", spec.tokenScheme().name());
        config.put("lease ttl", spec.leaseTtl().toSeconds() + " s");
        config.put("first token (report)", "41");
        config.put("workers", "A (starts 0 s, writes after 10 s), B (starts 31 s, writes after 4 s)");
        config.put("faults", "pause A at 10 s for 35 s");
        config.put("duration", spec.duration().toSeconds() + " s");
        return new ReportInput("paused-holder", title, SUMMARY, STEPS, ran.result(), ran.events(), config, expected,
                met, met ? List.of() : List.of("verdict was " + ran.result().verdict().kind()));
    }
}

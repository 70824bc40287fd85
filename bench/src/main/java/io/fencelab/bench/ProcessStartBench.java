package io.fencelab.bench;

import io.fencelab.app.service.JvmAgents;
import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.Workloads;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process section of {@code bench-runs}: how long a process run of N agents takes to be ready
 * (every agent JVM started, joined and said it is up: the run publishes {@code RunStarted} only
 * then), with the agents' AOT cache and without, beside the same N workers as a live run (threads in
 * this JVM), whose time to {@code RunStarted} is the baseline. The workload is the storm's workers,
 * one scope each and no faults, for a short run: what is measured is the start, not the run.
 */
final class ProcessStartBench {

    /** The target: 50 agents ready in under 10 s on 2 cores. */
    static final Duration TARGET = Duration.ofSeconds(10);

    /** How a run's agents are started. */
    enum Start {
        LIVE_THREADS("live run, threads in this JVM"),
        PROCESSES_NO_CACHE("process run, agents without the AOT cache"),
        PROCESSES_CACHE("process run, agents with the AOT cache");

        final String words;

        Start(String words) {
            this.words = words;
        }
    }

    /**
     * One run's start: from {@code runToEnd()} to {@code RunStarted} on the bus, the whole run, how it
     * ended, and for process runs how many agents the database saw up and the time from the first to
     * the last (on the database's clock; -1 for live runs).
     */
    record Measurement(Start start, int workers, double readyMillis, double totalMillis, String endReason,
                       int agentsUp, double upSpreadMillis) {
    }

    private ProcessStartBench() {
    }

    /** The spec measured: {@code workers} fenced workers, each on its own scope, no faults. */
    static RunSpec spec(int workers, Duration length, ExecutorKind executor) {
        return Workloads.storm(workers, workers, FencingMode.FENCED, 1, length).toBuilder()
                .faults(List.of()).executor(executor).build();
    }

    /** Runs {@code workers} workers started as {@code start} says and measures the run's start. */
    static Measurement measure(Database db, Start start, int workers, Duration length) throws IOException,
            InterruptedException {
        ExecutorKind executor = start == Start.LIVE_THREADS ? ExecutorKind.LIVE : ExecutorKind.PROCESS;
        Path dir = Files.createTempDirectory("fencelab-bench-process");
        Path log = dir.resolve("events.jsonl");
        String before = System.getProperty(JvmAgents.AOT_CACHE_PROPERTY);
        if (start == Start.PROCESSES_NO_CACHE) {
            System.setProperty(JvmAgents.AOT_CACHE_PROPERTY, "off");
        }
        try (Run run = Run.prepare(db, spec(workers, length, executor), log)) {
            AtomicLong startedAt = new AtomicLong();
            run.bus().subscribe("bench-ready", batch -> {
                for (Event e : batch) {
                    if (e instanceof Event.RunStarted) {
                        startedAt.compareAndSet(0, System.nanoTime());
                    }
                }
            });
            long t0 = System.nanoTime();
            RunResult result = run.runToEnd();
            long t1 = System.nanoTime();
            int up = -1;
            double spread = -1;
            if (executor == ExecutorKind.PROCESS) {
                List<Instant> ups = new AgentTables(db).agents(run.store().runId()).stream()
                        .map(AgentTables.AgentRow::up).filter(Objects::nonNull).sorted().toList();
                up = ups.size();
                spread = ups.isEmpty() ? 0 : Duration.between(ups.getFirst(), ups.getLast()).toNanos() / 1e6;
            }
            double ready = startedAt.get() == 0 ? Double.NaN : (startedAt.get() - t0) / 1e6;
            return new Measurement(start, workers, ready, (t1 - t0) / 1e6, result.endReason(), up, spread);
        } finally {
            if (before == null) {
                System.clearProperty(JvmAgents.AOT_CACHE_PROPERTY);
            } else {
                System.setProperty(JvmAgents.AOT_CACHE_PROPERTY, before);
            }
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * The section as {@code bench-runs} prints it: the AOT cache made first (its training is a one-off
     * per program, timed on its own line), then the live baseline, the process run without the cache
     * and with it, each with its ratio to the baseline and the target.
     */
    static void print(PrintWriter out, Database db, int agents, Duration length) throws IOException,
            InterruptedException {
        long t0 = System.nanoTime();
        new JvmAgents().prepare();
        out.printf(Locale.ROOT, "process: the agents' AOT cache ready in %.0f ms (made once per program; "
                + "quick when it exists)%n", (System.nanoTime() - t0) / 1e6);
        Measurement live = measure(db, Start.LIVE_THREADS, agents, length);
        out.println(line(live, live));
        for (Start start : List.of(Start.PROCESSES_NO_CACHE, Start.PROCESSES_CACHE)) {
            out.println(line(measure(db, start, agents, length), live));
            out.flush();
        }
    }

    /** One measurement as a line: ready time, against the baseline and the target. */
    static String line(Measurement m, Measurement baseline) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s, %d workers: ready in %.0f ms",
                m.start().words, m.workers(), m.readyMillis()));
        if (m.agentsUp() >= 0) {
            b.append(String.format(Locale.ROOT, " (%d agents up, first to last %.0f ms)", m.agentsUp(),
                    m.upSpreadMillis()));
            b.append(String.format(Locale.ROOT, "; ÷ live = %.1f; target %d s: %s",
                    m.readyMillis() / baseline.readyMillis(), TARGET.toSeconds(),
                    m.readyMillis() < TARGET.toMillis() ? "met" : "MISSED"));
        }
        b.append(String.format(Locale.ROOT, "; whole run %.0f ms (%s)", m.totalMillis(), m.endReason()));
        return b.toString();
    }
}

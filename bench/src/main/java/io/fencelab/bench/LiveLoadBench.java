package io.fencelab.bench;

import static io.fencelab.bench.ConsoleBenchCommand.onFx;

import io.fencelab.app.console.ConsoleProbe;
import io.fencelab.bench.FxProbe.Samples;
import io.fencelab.bench.PulseTimer.Pulses;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;
import javafx.stage.Stage;

/**
 * Part (c) of {@code bench-console}: the real console (as {@code ./fencelab} builds it) runs a live
 * run of many workers the way a user runs one: it opens {@link LiveStorm}'s scenario file, waits
 * for the run to be prepared and presses play. While the run goes, it measures the FX pulse (as
 * parts (a) and (b) do), how long a {@code Platform.runLater} posted every 10 ms waits for the FX
 * thread ({@link FxProbe}), how far the screen is behind the run, and where the CPU goes (FX
 * thread, render thread, the busiest threads, the whole machine). The baseline is the same window
 * for as long, with the run prepared and not started. Then the run's own event log is replayed at
 * 1x in the same window: the same events at the same pace, without 1,000 workers and PostgreSQL
 * competing for the cores, which separates the console's own cost from the run's.
 *
 * <p>How far behind: every pulse, after layout, notes the playhead (the driver's run time: real
 * time since the run started) and the events shown. After the run, the events' own times say how
 * many had been published by each playhead, so "events not yet shown" is published minus shown,
 * and "behind the playhead" is the playhead minus the newest event shown.
 */
final class LiveLoadBench {

    static final int SCOPES = 50;

    /** One window of time: its pulses, its probes, and the CPU spent. */
    record Window(Pulses pulses, Samples probes, Cpu cpu) {}

    /**
     * CPU time spent in a window, in ms: the FX thread, the render thread, this process, the whole
     * machine, and this process's threads by name (numbers in names folded: carrier threads of
     * virtual threads add up as one).
     */
    record Cpu(double fxMillis, double renderMillis, double processMillis, double machineMillis, double wallMillis,
               Map<String, Double> threadMillis) {

        /** Cores busy on average (CPU time over wall time). */
        double cores(double cpuMillis) {
            return cpuMillis / wallMillis;
        }
    }

    /** Reads the CPU clocks a {@link Cpu} is the difference of. */
    private static final class CpuClock {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final long fxThread;
        private final long renderThread;
        private long[] start;
        private Map<Long, Long> startThreads;

        CpuClock(long fxThread) {
            this.fxThread = fxThread;
            this.renderThread = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("QuantumRenderer")).mapToLong(Thread::threadId)
                    .findFirst().orElse(-1);
        }

        void start() {
            startThreads = threadTimes();
            start = read();
        }

        Cpu stop() {
            long[] end = read();
            Map<String, Double> byName = new TreeMap<>();
            Map<Long, String> names = new HashMap<>();
            Thread.getAllStackTraces().keySet().forEach(t -> names.put(t.threadId(), t.getName()));
            threadTimes().forEach((id, nanos) -> {
                String name = names.getOrDefault(id, "?").replaceAll("\\d+", "#");
                byName.merge(name, (nanos - startThreads.getOrDefault(id, 0L)) / 1e6, Double::sum);
            });
            return new Cpu((end[0] - start[0]) / 1e6, (end[1] - start[1]) / 1e6, (end[2] - start[2]) / 1e6,
                    end[3] < 0 ? Double.NaN : (end[3] - start[3]) / 1e6, (end[4] - start[4]) / 1e6, byName);
        }

        private Map<Long, Long> threadTimes() {
            Map<Long, Long> times = new HashMap<>();
            for (long id : threads.getAllThreadIds()) {
                long t = threads.getThreadCpuTime(id);
                if (t >= 0) {
                    times.put(id, t);
                }
            }
            return times;
        }

        private long[] read() {
            long process = ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
            return new long[] {threads.getThreadCpuTime(fxThread),
                    renderThread < 0 ? -1 : threads.getThreadCpuTime(renderThread), process, machineBusyNanos(),
                    System.nanoTime()};
        }

        /** Busy CPU time of every core since boot, from {@code /proc/stat} (Linux); -1 elsewhere. */
        private static long machineBusyNanos() {
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
                long busy = 0;
                for (int i = 1; i < Math.min(f.length, 9); i++) {
                    if (i != 4 && i != 5) {
                        busy += Long.parseLong(f[i]);
                    }
                }
                return busy * 10_000_000L; // USER_HZ = 100 on Linux
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
    }

    /** One pulse as the screen showed it. */
    private record Frame(long wallNanos, long playheadMicros, int shown, long newestMicros, boolean playing) {}

    record Result(int workers, int seconds, Window idle, Window live, Window replay, Samples behindMillis,
                  Samples behindEvents, double runEndedShownMillis, double overShownMillis, int shown, RunResult run,
                  double openMillis, double preparedMillis) {}

    private LiveLoadBench() {
    }

    static Result run(Database db, int workers, int seconds, long seed) throws Exception {
        Path dir = Files.createTempDirectory("fencelab-bench-live");
        Path scenario = LiveStorm.write(dir, workers, SCOPES, seed, Duration.ofSeconds(seconds));
        ConsoleProbe console = onFx(() -> ConsoleProbe.open(new Stage(), db));
        try {
            List<Frame> frames = new ArrayList<>();
            long[] shownAt = new long[2];
            boolean[] sampling = new boolean[1];
            PulseTimer timer = onFx(() -> sampled(console, frames, shownAt, sampling));
            await("the database to open", 120, console::databaseReady);
            CpuClock cpu = new CpuClock(onFx(() -> Thread.currentThread().threadId()));
            long openStart = System.nanoTime();
            onFx(() -> {
                console.openScenarioFile(scenario);
                return null;
            });
            double openMillis = (System.nanoTime() - openStart) / 1e6;
            String problem = onFx(console::scenarioProblem);
            if (!problem.isEmpty()) {
                throw new IllegalStateException(problem);
            }
            await("the live run to be prepared", 120, console::waiting);
            double preparedMillis = (System.nanoTime() - openStart) / 1e6;

            // Baseline: the same window, the run prepared and waiting for Play.
            Thread.sleep(2_000);
            FxProbe idleProbe = FxProbe.start();
            cpu.start();
            timer.start();
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            timer.stop();
            Cpu idleCpu = cpu.stop();
            Window idle = new Window(timer.pulses(), idleProbe.stop(), idleCpu);

            FxProbe liveProbe = FxProbe.start();
            cpu.start();
            onFx(() -> {
                sampling[0] = true;
                timer.start();
                console.play();
                return null;
            });
            await("the live run to end", seconds + 120L, console::over);
            timer.stop();
            Cpu liveCpu = cpu.stop();
            Window live = new Window(timer.pulses(), liveProbe.stop(), liveCpu);
            onFx(() -> {
                sampling[0] = false;
                return null;
            });

            List<Event> events = onFx(console::shownEvents);
            RunResult result = onFx(console::result);

            Window replay = result == null ? null : replay(console, result, seconds, cpu, timer);
            return judge(workers, seconds, idle, live, replay, frames, shownAt, events, result, openMillis,
                    preparedMillis);
        } finally {
            onFx(() -> {
                console.close();
                return null;
            });
        }
    }

    /** A pulse timer on the console, and a sampler of what each frame shows while {@code sampling}. */
    private static PulseTimer sampled(ConsoleProbe console, List<Frame> frames, long[] shownAt, boolean[] sampling) {
        PulseTimer t = new PulseTimer(console);
        console.scene().addPostLayoutPulseListener(() -> {
            if (!sampling[0]) {
                return;
            }
            long playhead = console.runNowMicros();
            long wall = System.nanoTime();
            Event newest = console.newestShown();
            frames.add(new Frame(wall, playhead, console.eventsShown(), newest == null ? -1 : newest.atMicros(),
                    console.playing()));
            if (shownAt[0] == 0 && newest instanceof Event.RunEnded) {
                shownAt[0] = wall;
            }
            if (shownAt[1] == 0 && console.over()) {
                shownAt[1] = wall;
            }
        });
        return t;
    }

    /**
     * The same events again at the same pace, replayed from the run's log: the console's own cost,
     * without 1,000 workers and PostgreSQL taking the cores.
     */
    private static Window replay(ConsoleProbe console, RunResult result, int seconds, CpuClock cpu, PulseTimer timer)
            throws Exception {
        onFx(() -> {
            console.openSavedRun(result.eventLog());
            console.setSpeed(1.0);
            return null;
        });
        await("the saved run to be ready", 120, console::waiting);
        Thread.sleep(1_000);
        FxProbe replayProbe = FxProbe.start();
        cpu.start();
        onFx(() -> {
            timer.start();
            console.play();
            return null;
        });
        await("the replay to end", seconds + 120L, console::over);
        timer.stop();
        Cpu replayCpu = cpu.stop();
        return new Window(timer.pulses(), replayProbe.stop(), replayCpu);
    }

    private static Result judge(int workers, int seconds, Window idle, Window live, Window replay, List<Frame> frames,
                                long[] shownAt, List<Event> events, RunResult result, double openMillis,
                                double preparedMillis) {
        long durationMicros = TimeUnit.SECONDS.toMicros(seconds);
        List<Frame> running = frames.stream()
                .filter(f -> f.playing() && f.playheadMicros() > 0 && f.playheadMicros() < durationMicros).toList();
        long[] times = events.stream().mapToLong(Event::atMicros).sorted().toArray();
        double[] behindMillis = new double[running.size()];
        double[] behindEvents = new double[running.size()];
        // The playhead is real time since the run started, so wall time minus playhead is the start.
        long startWall = Long.MAX_VALUE;
        for (int i = 0; i < running.size(); i++) {
            Frame f = running.get(i);
            startWall = Math.min(startWall, f.wallNanos() - f.playheadMicros() * 1_000);
            behindMillis[i] = (f.playheadMicros() - Math.max(0, f.newestMicros())) / 1e3;
            behindEvents[i] = Math.max(0, publishedBy(times, f.playheadMicros()) - f.shown());
        }
        Event.RunEnded ended = events.stream().filter(e -> e instanceof Event.RunEnded)
                .map(e -> (Event.RunEnded) e).findFirst().orElse(null);
        double endedShown = Double.NaN;
        double overShown = Double.NaN;
        if (ended != null && startWall != Long.MAX_VALUE) {
            long endedWall = startWall + ended.atMicros() * 1_000;
            endedShown = shownAt[0] == 0 ? Double.NaN : (shownAt[0] - endedWall) / 1e6;
            overShown = shownAt[1] == 0 ? Double.NaN : (shownAt[1] - endedWall) / 1e6;
        }
        return new Result(workers, seconds, idle, live, replay, new Samples(behindMillis), new Samples(behindEvents),
                endedShown, overShown, events.size(), result, openMillis, preparedMillis);
    }

    /** How many events happened at or before {@code micros}. */
    private static int publishedBy(long[] sortedTimes, long micros) {
        int i = Arrays.binarySearch(sortedTimes, micros);
        if (i < 0) {
            return -i - 1;
        }
        while (i + 1 < sortedTimes.length && sortedTimes[i + 1] == micros) {
            i++;
        }
        return i + 1;
    }

    static void print(PrintWriter out, Result r) {
        out.printf(Locale.ROOT, "(c) live run through the console: %,d workers on %d scopes for %d s (Workloads.storm, "
                + "fencing on, opened as a scenario file and played)%n", r.workers(), SCOPES, r.seconds());
        out.printf(Locale.ROOT, "    baseline: the same window for %d s with the run prepared and not started; "
                + "then the run's own log replayed at 1x (no workers, no database)%n", r.seconds());
        Window replay = r.replay();
        line(out, "p50 / p99 / max", "idle (baseline)", "live run", "replay at 1x", "live÷idle p50, p99");
        row(out, "FX work per pulse, ms", work(r.idle()), work(r.live()), replay == null ? null : work(replay));
        row(out, "frame interval, ms", interval(r.idle()), interval(r.live()), replay == null ? null : interval(replay));
        row(out, "runLater probe (posted to run), ms", r.idle().probes(), r.live().probes(),
                replay == null ? null : replay.probes());
        out.printf(Locale.ROOT, "  live run: probes over 100 ms by second of the run: %s%n",
                r.live().probes().overBySecond(100));
        row(out, "timeline redraw, ms", draws(r.idle()), draws(r.live()), replay == null ? null : draws(replay));
        line(out, "pulses / probes / redraws", counts(r.idle()), counts(r.live()), counts(replay), "");
        line(out, "FX thread CPU per pulse, ms", perPulse(r.idle(), Cpu::fxMillis), perPulse(r.live(), Cpu::fxMillis),
                perPulse(replay, Cpu::fxMillis), "");
        line(out, "render thread CPU per pulse, ms", perPulse(r.idle(), Cpu::renderMillis),
                perPulse(r.live(), Cpu::renderMillis), perPulse(replay, Cpu::renderMillis), "");
        line(out, "cores busy: this JVM / whole machine", cores(r.idle()), cores(r.live()), cores(replay), "");
        line(out, "busiest threads, ms of CPU per second", "", "", "", "");
        for (String name : busiest(r)) {
            line(out, "  " + name, perSecond(r.idle(), name), perSecond(r.live(), name), perSecond(replay, name), "");
        }
        row(out, "screen behind the playhead, ms", null, r.behindMillis(), null);
        row(out, "events published, not yet shown", null, r.behindEvents(), null);
        out.printf(Locale.ROOT, "  opening the scenario file held the FX thread %.1f s; the run was prepared %.1f s after "
                + "opening%n", r.openMillis() / 1e3, r.preparedMillis() / 1e3);
        out.printf(Locale.ROOT, "  RunEnded shown %.0f ms after it was published; the run shown as over (final verdict) "
                + "%.0f ms after%n", r.runEndedShownMillis(), r.overShownMillis());
        RunResult run = r.run();
        if (run == null) {
            out.printf(Locale.ROOT, "  run: %,d events shown; no result (the run did not finish)%n", r.shown());
        } else {
            out.printf(Locale.ROOT, "  run: %,d events shown of %,d published (%,.0f events/s), %s, verdict %s%s%n",
                    r.shown(), run.events(), r.shown() / (double) r.seconds(), run.endReason(), run.verdict().kind(),
                    run.finalStateJudged() ? " (final state judged)" : " (events only)");
        }
    }

    private static String perPulse(Window w, ToDoubleFunction<Cpu> cpu) {
        if (w == null) {
            return "-";
        }
        int pulses = w.pulses().workMillis().length;
        double millis = cpu.applyAsDouble(w.cpu());
        return pulses == 0 || millis < 0 ? "-" : String.format(Locale.ROOT, "%.2f", millis / pulses);
    }

    /** The threads that took the most CPU in the live run or the replay. */
    private static List<String> busiest(Result r) {
        Map<String, Double> most = new HashMap<>(r.live().cpu().threadMillis());
        if (r.replay() != null) {
            r.replay().cpu().threadMillis().forEach((k, v) -> most.merge(k, v, Math::max));
        }
        return most.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(7).map(Map.Entry::getKey).toList();
    }

    private static String perSecond(Window w, String thread) {
        if (w == null) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.0f", w.cpu().threadMillis().getOrDefault(thread, 0.0)
                / (w.cpu().wallMillis() / 1e3));
    }

    private static String cores(Window w) {
        return w == null ? "-" : String.format(Locale.ROOT, "%.2f / %.2f", w.cpu().cores(w.cpu().processMillis()),
                w.cpu().cores(w.cpu().machineMillis()));
    }

    private static Samples work(Window w) {
        return new Samples(w.pulses().workMillis());
    }

    private static Samples interval(Window w) {
        return new Samples(w.pulses().intervalMillis());
    }

    private static Samples draws(Window w) {
        return new Samples(w.pulses().drawMillis());
    }

    private static String counts(Window w) {
        return w == null ? "-" : String.format(Locale.ROOT, "%d / %d / %d", w.pulses().workMillis().length,
                w.probes().count(), w.pulses().drawMillis().length);
    }

    private static void row(PrintWriter out, String name, Samples idle, Samples live, Samples replay) {
        String ratio = idle == null || idle.count() == 0 || live.count() == 0 ? ""
                : String.format(Locale.ROOT, "%.1f, %.1f", live.p50() / Math.max(0.001, idle.p50()),
                        live.p99() / Math.max(0.001, idle.p99()));
        line(out, name, triple(idle), triple(live), triple(replay), ratio);
    }

    private static void line(PrintWriter out, String name, String idle, String live, String replay, String ratio) {
        out.printf(Locale.ROOT, "  %-37s %-23s %-23s %-23s %s%n", name, idle, live, replay, ratio);
    }

    private static String triple(Samples s) {
        if (s == null || s.count() == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f", s.p50(), s.p99(), s.max());
    }

    private static void await(String what, long seconds, BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!onFx(condition::getAsBoolean)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up after " + seconds + " s waiting for " + what);
            }
            Thread.sleep(50);
        }
    }
}

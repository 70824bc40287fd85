package io.fencelab.bench;

import io.fencelab.app.cli.DatabaseOptions;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.app.console.ConsoleProbe;
import io.fencelab.bench.PulseTimer.Pulses;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventBus;
import io.fencelab.report.Timeline;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javafx.application.Platform;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Console benchmark (a program, not a test). (a) FX pulse time with {@code --holders} holders and
 * {@code --events} events on the timeline while the playhead moves and the window shifts every frame (so the timeline
 * redraws every frame), against the same window with an empty timeline. (b) Events per second the
 * console takes in (bus, feed, frame loop, model, table, timeline rebuilt in the background, all on
 * screen) against the raw asynchronous bus with a counting consumer. (c) The real console running a
 * live run of {@code --live-workers} workers for {@code --live-seconds} s, opened and played as a
 * user would: FX pulse, how long a {@code Platform.runLater} waits for the FX thread, and how far the
 * screen is behind the run, against the same window idle ({@link LiveLoadBench}). Runs on Monocle
 * (headless) when there is no display.
 *
 * <p>Run it as {@code fencelab bench-console}, or from a build with
 * {@code java -cp app/target/fencelab-app.jar:app/target/lib/* io.fencelab.bench.ConsoleBenchCommand}.
 */
@Command(name = "bench-console", mixinStandardHelpOptions = true,
        description = "Measure the console's FX pulse time with a large timeline, the events/s it keeps up with, "
                + "and its responsiveness during a live run of 1,000 workers, against an empty timeline, the raw "
                + "event bus and the idle window; print the ratios. --frames 0, --rounds 0 or --live-workers 0 "
                + "skips a part.")
public final class ConsoleBenchCommand implements Callable<Integer> {

    @Option(names = "--holders", defaultValue = "200", description = "Holders on the timeline (default: ${DEFAULT-VALUE}).")
    int holders;

    @Option(names = "--events", defaultValue = "100000", description = "Events on the timeline (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--frames", defaultValue = "600", description = "Frames measured per case (default: ${DEFAULT-VALUE}).")
    int frames;

    @Option(names = "--flood", defaultValue = "1000000",
            description = "Events pushed through the bus for the throughput part (default: ${DEFAULT-VALUE}).")
    int flood;

    @Option(names = "--rounds", defaultValue = "3",
            description = "Rounds of the throughput part; figures are medians (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--live-workers", defaultValue = "1000",
            description = "Workers in the live run of part (c); 0 skips it (default: ${DEFAULT-VALUE}).")
    int liveWorkers;

    @Option(names = "--live-seconds", defaultValue = "10",
            description = "Seconds of the live run, and of its idle baseline (default: ${DEFAULT-VALUE}).")
    int liveSeconds;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ConsoleBenchCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        boolean headless = !ConsoleProbe.displayAvailable();
        if (headless) {
            System.setProperty("glass.platform", "Monocle");
            System.setProperty("monocle.platform", "Headless");
            System.setProperty("prism.order", "sw");
            System.setProperty("prism.text", "t2k");
            System.setProperty("headless.geometry", "1920x1080-32");
        }
        // The settings the console itself starts with (./fencelab), so the bench measures what users get.
        ConsoleProbe.configureRendering();
        CountDownLatch up = new CountDownLatch(1);
        Platform.startup(up::countDown);
        up.await();
        Platform.setImplicitExit(false);
        out.printf(Locale.ROOT, "bench-console: JavaFX %s on %s (%s, region caching %s), %d cores, JDK %s, %s%n",
                System.getProperty("javafx.runtime.version"), headless ? "Monocle headless" : "a display",
                System.getProperty("prism.order", "default pipeline"),
                Boolean.getBoolean("prism.disableRegionCaching") ? "off" : "on", Runtime.getRuntime().availableProcessors(),
                Runtime.version(), java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(java.lang.management.GarbageCollectorMXBean::getName).toList());
        out.flush();

        try {
            if (frames > 0) {
                pulsePart(out);
            }
            if (rounds > 0 && flood > 0) {
                floodPart(out);
            }
            if (liveWorkers > 0) {
                livePart(out);
            }
        } finally {
            Platform.exit();
        }
        return ExitCodes.OK;
    }

    private void pulsePart(PrintWriter out) throws Exception {
        List<Event> log = SyntheticRun.events(holders, events, 7);
        long t0 = System.nanoTime();
        Timeline timeline = Timeline.from(log, SafetyChecker.judgement(log));
        long buildMillis = (System.nanoTime() - t0) / 1_000_000;
        out.printf(Locale.ROOT, "timeline: %,d events, %d holder lanes, %d resource lanes, %.0f s of run time "
                        + "(judging and Timeline.from took %d ms, off the FX thread)%n",
                log.size(), timeline.holders().size(), timeline.resources().size(), timeline.runMicros() / 1e6,
                buildMillis);

        out.println();
        out.println("(a) FX pulse with the timeline redrawn every frame (the playhead moves, the window shifts by 1 us)");
        Pulses empty = pulses(List.of(), null, "empty timeline");
        Pulses full = pulses(log, timeline, "full timeline");
        print(out, "empty timeline (baseline)", empty);
        print(out, String.format(Locale.ROOT, "%d holders, %,d events", timeline.holders().size(), log.size()), full);
        out.printf(Locale.ROOT, "  ratio p99 FX work full/empty: %.2f   p99 frame interval full/empty: %.2f   "
                        + "(target: p99 pulse < 16 ms)%n",
                full.workP99() / Math.max(0.001, empty.workP99()),
                full.intervalP99() / Math.max(0.001, empty.intervalP99()));
        out.flush();
    }

    private void floodPart(PrintWriter out) throws Exception {
        out.println();
        out.printf(Locale.ROOT, "(b) events per second, %,d events per round, median of %d rounds%n", flood, rounds);
        List<Event> floodLog = SyntheticRun.events(holders, flood, 11);
        double[] raw = new double[rounds];
        double[] shown = new double[rounds];
        Pulses during = null;
        for (int r = 0; r < rounds; r++) {
            raw[r] = rawBus(floodLog);
            Flood f = console(floodLog);
            shown[r] = f.eventsPerSecond();
            during = f.pulses();
            System.gc();
        }
        double rawMedian = median(raw);
        double shownMedian = median(shown);
        out.printf(Locale.ROOT, "  raw async bus, counting consumer (baseline): %,12.0f events/s%n", rawMedian);
        out.printf(Locale.ROOT, "  bus -> console on screen (model, table, timeline): %,6.0f events/s  "
                + "ratio %.2f  (target: 100,000 events/s)%n", shownMedian, shownMedian / rawMedian);
        print(out, "pulse while flooded", during);
        out.flush();
    }

    private void livePart(PrintWriter out) throws Exception {
        out.println();
        out.printf(Locale.ROOT, "(c) live run of %,d workers for %d s: preparing...%n", liveWorkers, liveSeconds);
        out.flush();
        try (BenchDatabase bench = BenchDatabase.open(database)) {
            LiveLoadBench.Result result = LiveLoadBench.run(bench.db(), liveWorkers, liveSeconds, 1);
            LiveLoadBench.print(out, result);
        }
        out.flush();
    }

    // ---- (a) pulse time ------------------------------------------------------------------------

    private static void print(PrintWriter out, String name, Pulses p) {
        out.printf(Locale.ROOT, "  %-34s FX work p50 %6.2f p99 %6.2f ms | timeline draw p50 %5.2f p99 %5.2f ms"
                        + " | frame interval p50 %6.2f p99 %6.2f ms (%d frames)%n", name, p.workP50(), p.workP99(),
                percentile(p.drawMillis(), 50), percentile(p.drawMillis(), 99), p.intervalP50(), p.intervalP99(),
                p.workMillis().length);
    }

    private Pulses pulses(List<Event> log, Timeline timeline, String name) throws Exception {
        Bench bench = onFx(() -> new Bench(name));
        onFx(() -> {
            ConsoleProbe console = bench.console;
            console.show(name, log, timeline);
            long end = log.isEmpty() ? 600_000_000 : log.getLast().atMicros();
            // The playhead crosses the run in 600 frames, and the window shifts by a microsecond and
            // back: every frame redraws the whole timeline, not only the playhead's light canvas.
            double start = console.windowStart();
            console.everyFrame(now -> {
                console.setPlayheadMicros((console.playheadMicros() + end / 600) % end);
                console.showWindow(console.windowStart() == start ? start + 1 : start, console.windowSpan());
            });
            return null;
        });
        Pulses p = bench.measure(frames);
        onFx(() -> {
            bench.close();
            return null;
        });
        return p;
    }

    // ---- (b) throughput ------------------------------------------------------------------------

    record Flood(double eventsPerSecond, Pulses pulses) {}

    private static double rawBus(List<Event> log) throws InterruptedException {
        EventBus bus = EventBus.async();
        AtomicLong delivered = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        bus.subscribe("count", batch -> {
            if (delivered.addAndGet(batch.size()) >= log.size()) {
                all.countDown();
            }
        });
        bus.start();
        long t0 = System.nanoTime();
        for (int i = 0; i < log.size(); i++) {
            Event e = log.get(i);
            bus.publish(seq -> e);
        }
        all.await();
        long nanos = System.nanoTime() - t0;
        bus.close();
        return log.size() / (nanos / 1e9);
    }

    private Flood console(List<Event> log) throws Exception {
        Bench bench = onFx(() -> new Bench("flood"));
        EventBus bus = EventBus.async();
        CountDownLatch all = new CountDownLatch(1);
        onFx(() -> {
            ConsoleProbe console = bench.console;
            bus.subscribe("console", console.takeEvents(log.getLast().atMicros()));
            console.everyFrame(now -> {
                if (console.eventsShown() >= log.size()) {
                    all.countDown();
                }
            });
            return null;
        });
        bus.start();
        bench.timer.start();
        long t0 = System.nanoTime();
        for (int i = 0; i < log.size(); i++) {
            Event e = log.get(i);
            bus.publish(seq -> e);
        }
        if (!all.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the console did not take in " + log.size() + " events in 10 minutes");
        }
        long nanos = System.nanoTime() - t0;
        bench.timer.stop();
        Pulses p = bench.timer.pulses();
        bus.close();
        onFx(() -> {
            bench.close();
            return null;
        });
        return new Flood(log.size() / (nanos / 1e9), p);
    }

    // ---- a console on screen without a database --------------------------------------------------

    /** The console's window without a database, with a timer of every pulse. */
    private static final class Bench {
        final ConsoleProbe console;
        final PulseTimer timer;

        Bench(String name) {
            console = ConsoleProbe.offline("bench-console: " + name, 1600, 960);
            timer = new PulseTimer(console);
        }

        Pulses measure(int frames) throws InterruptedException {
            // Warm up (JIT, first layouts), then record.
            Thread.sleep(2_000);
            timer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (timer.frames() < frames && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            timer.stop();
            return timer.pulses();
        }

        void close() {
            console.close();
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    static <T> T onFx(Callable<T> action) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        Object[] result = new Object[1];
        Exception[] failure = new Exception[1];
        Platform.runLater(() -> {
            try {
                result[0] = action.call();
            } catch (Exception e) {
                failure[0] = e;
            } finally {
                done.countDown();
            }
        });
        done.await();
        if (failure[0] != null) {
            throw failure[0];
        }
        @SuppressWarnings("unchecked")
        T t = (T) result[0];
        return t;
    }

    static double percentile(double[] values, double p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double median(double[] values) {
        return percentile(values, 50);
    }
}

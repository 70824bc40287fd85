package io.fencelab.app.cli;

import io.fencelab.engine.check.FinalStateLoader;
import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.ResourceState;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Durations;
import io.fencelab.scenarios.Scenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Tells the catalog's paused-holder story against real PostgreSQL: runs the scenario file (simulated)
 * as written, then again with {@link FencingMode#UNFENCED}, and tells each run from its events, one
 * line per step that matters, with the times and tokens the events carry. The last line of each run
 * names what the resource holds in the database at the end and what the checker concluded.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the paused-holder story headless, with and without fencing, and print each step.")
public final class DemoCommand implements Callable<Integer> {

    /** The catalog scenario the demo tells. */
    static final String STORY = "paused-holder";

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
        // The catalog, not a file of that name in the working directory: the demo tells the shipped story.
        Scenario story = Catalog.shipped().load(STORY);
        int exit;
        try (Database db = Database.open(database.resolve())) {
            out.println("Fencelab: " + story.notes().title() + " (catalog scenario " + story.name() + "), on "
                    + db.describe());
            out.println();
            Told fenced = tell(db, story.spec());
            List<String> missed = fenced.completed() ? story.expectation().mismatches(fenced.result(), fenced.events())
                    : List.of();
            out.println();
            Told unfenced = tell(db, story.spec().withFencing(FencingMode.UNFENCED));
            if (!missed.isEmpty()) {
                out.println();
                out.println("The story did not go as its file expects (" + story.expectation().describe() + "):");
                missed.forEach(m -> out.println("  " + m));
            }
            exit = !fenced.completed() || !unfenced.completed() ? ExitCodes.RUN_INCOMPLETE
                    : missed.isEmpty() ? ExitCodes.OK : ExitCodes.UNEXPECTED_VERDICT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = ExitCodes.RUN_INCOMPLETE;
        }
        out.flush();
        return exit;
    }

    private record Told(RunResult result, List<Event> events) {
        boolean completed() {
            return result.completed();
        }
    }

    /** Runs {@code runSpec} and tells it; the event log is a temporary file, gone afterwards. */
    private Told tell(Database db, RunSpec runSpec) throws InterruptedException {
        out.println(heading(runSpec.fencing()));
        Path log = null;
        try {
            log = Files.createTempFile("fencelab-demo-", ".jsonl");
            try (Run run = Run.prepare(db, runSpec, log)) {
                RunResult result = run.runToEnd();
                List<Event> events = EventLogReader.read(result.eventLog());
                new Steps().tell(events);
                if (result.completed()) {
                    out.println("  " + ending(FinalStateLoader.load(run.runContext()), events, result));
                } else {
                    out.println("  The run did not complete: " + result.endReason());
                }
                return new Told(result, events);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the demo's event log: " + e.getMessage(), e);
        } finally {
            deleteQuietly(log);
        }
    }

    private static String heading(FencingMode mode) {
        return switch (mode) {
            case FENCED -> "With fencing (the resource compares the token and writes in one statement):";
            case CHECK_THEN_WRITE -> "With check-then-write (the resource reads the newest token, then writes "
                    + "in a second statement):";
            case UNFENCED -> "Without fencing (the resource takes any write):";
        };
    }

    /**
     * The story's steps, one line per event that moves it on, in log order. Events the story does not
     * need (beliefs, releases, attempts before their outcome) are left out; a holder's waking is told
     * together with the write it sends at that instant.
     */
    private final class Steps {
        private final Set<String> paused = new HashSet<>();
        private final Set<String> waking = new HashSet<>();

        void tell(List<Event> events) {
            for (int i = 0; i < events.size(); i++) {
                Event e = events.get(i);
                switch (e) {
                    case Event.LeaseAcquired a -> say(a, "%s acquires the lease on \"%s\": token %d, expires at %s"
                            .formatted(a.holder(), a.scope(), a.token(), time(a.expiresAtMicros())));
                    case Event.PauseStarted p -> {
                        paused.add(p.holder());
                        say(p, "%s pauses (a GC stall) for %s and cannot observe time passing"
                                .formatted(p.holder(), time(p.durationMicros())));
                    }
                    case Event.PauseEnded p -> {
                        paused.remove(p.holder());
                        if (writesOnWaking(events, i, p)) {
                            waking.add(p.holder());
                        } else {
                            say(p, p.holder() + " resumes");
                        }
                    }
                    case Event.LeaseExpired x -> say(x, paused.contains(x.holder())
                            ? "%s's lease expires; %s, paused, does not notice".formatted(x.holder(), x.holder())
                            : "%s's lease expires (token %d)".formatted(x.holder(), x.token()));
                    case Event.WriteAccepted w -> write(w, w.key(), w.token(), "accepted");
                    case Event.WriteRejectedStale r -> write(r, r.key(), r.token(),
                            "REJECTED as stale (%s already accepted token %d)".formatted(r.key(), r.highest()));
                    case Event.WriteMissing m -> write(m, m.key(), m.token(), "refused: there is no " + m.key());
                    case Event.WriteOutOfOrder o -> write(o, o.key(), o.token(),
                            "REJECTED: operation %d of token %d came after operation %d"
                                    .formatted(o.opSeq(), o.token(), o.highestOpSeq()));
                    default -> {
                        // not a step of the story
                    }
                }
            }
        }

        private void write(Event e, String key, long token, String outcome) {
            String holder = e.holder();
            String verb = waking.remove(holder) ? "resumes and writes" : "writes";
            say(e, "%s %s %s with token %d -> %s".formatted(holder, verb, key, token, outcome));
        }

        /** Whether {@code end}'s holder has a write answered at the instant it wakes. */
        private static boolean writesOnWaking(List<Event> events, int at, Event.PauseEnded end) {
            for (int j = at + 1; j < events.size() && events.get(j).atMicros() == end.atMicros(); j++) {
                Event e = events.get(j);
                boolean answer = e instanceof Event.WriteAccepted || e instanceof Event.WriteRejectedStale
                        || e instanceof Event.WriteMissing || e instanceof Event.WriteOutOfOrder;
                if (answer && end.holder().equals(e.holder())) {
                    return true;
                }
            }
            return false;
        }

        private void say(Event e, String line) {
            out.printf("  %4s  %s%n", time(e.atMicros()), line);
        }
    }

    /**
     * What each resource holds in the database at the end, and whose write that is (matched by the
     * value's digest), then the checker's conclusion in a sentence.
     */
    private static String ending(List<ResourceState> finalState, List<Event> events, RunResult result) {
        StringBuilder s = new StringBuilder();
        for (ResourceState r : finalState) {
            String writer = events.stream().filter(e -> e instanceof Event.WriteAccepted)
                    .map(e -> (Event.WriteAccepted) e)
                    .filter(w -> w.target() == r.target() && w.scope().equals(r.scope()) && w.key().equals(r.key())
                            && Objects.equals(w.valueDigest(), r.valueDigest()))
                    .map(Event::holder).reduce((first, last) -> last).orElse(null);
            s.append(writer == null ? "%s holds token %d. ".formatted(r.key(), r.token())
                    : "%s holds %s's write (token %d). ".formatted(r.key(), writer, r.token()));
        }
        if (result.verdict().isSafe()) {
            long refused = events.stream().filter(e -> e instanceof Event.WriteRejectedStale).count();
            return s + switch ((int) Math.min(refused, 2)) {
                case 0 -> "No stale write was attempted.";
                case 1 -> "The resource refused the stale holder.";
                default -> "The resources refused all " + refused + " stale writes.";
            };
        }
        return s + conclusion(result.verdict().witnesses().getFirst(), events);
    }

    /** A stale overwrite in a sentence, from the writes its witness names; other witnesses as the checker words them. */
    private static String conclusion(Witness w, List<Event> events) {
        if (w.invariant() == Invariant.STALE_OVERWRITE) {
            List<Event.WriteAccepted> writes = events.stream().filter(e -> w.eventSeqs().contains(e.seq()))
                    .filter(e -> e instanceof Event.WriteAccepted).map(e -> (Event.WriteAccepted) e).toList();
            if (writes.size() >= 2) {
                Event.WriteAccepted stale = writes.getLast();
                Event.WriteAccepted newer = writes.getFirst();
                return "%s's stale write (token %d) overwrote %s's newer one (token %d)."
                        .formatted(stale.holder(), stale.token(), newer.holder(), newer.token());
            }
        }
        return "Unsafe: " + w.summary() + ".";
    }

    /** A run time as the scenario files write durations: {@code 0s}, {@code 45s}, {@code 1.5s}. */
    private static String time(long micros) {
        return Durations.format(Duration.of(micros, ChronoUnit.MICROS));
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }
}

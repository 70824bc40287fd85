package io.fencelab.app.cli;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.postgres.FinalStateLoader;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.report.EventText;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * line per step that matters, with the times and tokens the events carry and each write as the
 * checker's judgement classifies it. The last line of each run names what the resource holds in the
 * database at the end and what the checker concluded.
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
                new Steps(result.judgement()).tell(events);
                if (result.completed()) {
                    out.println("  " + ending(FinalStateLoader.load(run.runContext()), events, result.judgement()));
                } else {
                    out.println("  The run did not complete: " + result.endReason());
                }
                return new Told(result, events);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the demo's event log: " + FileProblem.of(e), e);
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
     * together with the write it sends at that instant. What a write's outcome means (a stale
     * overwrite, a stale write refused) is the checker's {@link Judgement}, not decided here.
     */
    private final class Steps {
        private final Judgement judgement;
        private final Set<String> paused = new HashSet<>();
        private final Set<String> waking = new HashSet<>();

        Steps(Judgement judgement) {
            this.judgement = judgement;
        }

        void tell(List<Event> events) {
            for (int i = 0; i < events.size(); i++) {
                Event e = events.get(i);
                WriteJudgement judged = judgement.writes().of(e.seq());
                switch (e) {
                    // The story's own framing of its pause; every other step is worded by EventText.step.
                    case Event.PauseStarted p -> {
                        paused.add(p.holder());
                        say(p, "%s pauses (a GC stall) for %s and cannot observe time passing"
                                .formatted(p.holder(), RunTimes.seconds(p.durationMicros())));
                    }
                    case Event.PauseEnded p -> {
                        paused.remove(p.holder());
                        if (writesOnWaking(events, i, p)) {
                            waking.add(p.holder());
                        } else {
                            step(p, judged);
                        }
                    }
                    default -> step(e, judged);
                }
            }
        }

        /** Tells {@code e} as a step, if it is one; a write after a waking is told as the holder resuming. */
        private void step(Event e, WriteJudgement judged) {
            boolean write = e instanceof Event.WriteAccepted || e instanceof Event.WriteRejectedStale
                    || e instanceof Event.WriteMissing || e instanceof Event.WriteOutOfOrder;
            String line = EventText.step(e, judged, paused.contains(e.holder()), write && waking.remove(e.holder()));
            if (line != null) {
                say(e, line);
            }
        }

        /** Whether {@code end}'s holder has a write answered at the instant it wakes. */
        private boolean writesOnWaking(List<Event> events, int at, Event.PauseEnded end) {
            for (int j = at + 1; j < events.size() && events.get(j).atMicros() == end.atMicros(); j++) {
                Event e = events.get(j);
                if (end.holder().equals(e.holder()) && judgement.writes().of(e.seq()) != null) {
                    return true;
                }
            }
            return false;
        }

        private void say(Event e, String line) {
            out.printf("  %6s  %s%n", RunTimes.seconds(e.atMicros()), line);
        }
    }

    /**
     * What each resource holds in the database at the end, whose write that is (matched by the value's
     * digest) and, if it is not the write the checker says it must keep, which one that is; then the
     * checker's conclusion in a sentence.
     */
    private static String ending(List<ResourceState> finalState, List<Event> events, Judgement judgement) {
        StringBuilder s = new StringBuilder();
        for (ResourceState r : finalState) {
            String writer = events.stream().filter(e -> e instanceof Event.WriteAccepted)
                    .map(e -> (Event.WriteAccepted) e)
                    .filter(w -> r.id().equals(new ResourceId(w.target(), w.scope(), w.key()))
                            && Objects.equals(w.valueDigest(), r.valueDigest()))
                    .map(Event::holder).reduce((first, last) -> last).orElse(null);
            s.append(writer == null ? "%s holds token %d".formatted(r.key(), r.token())
                    : "%s holds %s's write (token %d)".formatted(r.key(), writer, r.token()));
            Event.WriteAccepted kept = judgement.kept().get(r.id());
            if (kept != null && !Objects.equals(kept.valueDigest(), r.valueDigest())) {
                s.append(", not %s's newer one (token %d)".formatted(kept.holder(), kept.token()));
            }
            s.append(". ");
        }
        List<WriteJudgement> writes = judgement.writes().all();
        long refused = writes.stream().filter(w -> w.kind() == WriteClass.REJECTED_STALE).count();
        long overwrote = writes.stream().filter(WriteJudgement::isStaleOverwrite).count();
        if (judgement.isSafe()) {
            return s + (refused == 0 ? "No stale write was attempted."
                    : refused == 1 ? "The resource refused the stale holder."
                    : "The resources refused all " + refused + " stale writes.");
        }
        if (overwrote > 0) {
            return s + (overwrote == 1 ? "The stale holder's write overwrote newer work."
                    : overwrote + " stale writes overwrote newer work.");
        }
        return s + "Unsafe: " + judgement.verdict().witnesses().getFirst().summary() + ".";
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

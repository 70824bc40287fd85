package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLog;
import io.fencelab.engine.event.EventLogFormatException;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A log from any catalog run (simulated, on real PostgreSQL), edited the way an adversarial pass
 * edited logs, is never judged SAFE: {@code fencelab check} judges what is in front of it, not
 * what the run was. Each edit is restricted to the cases the log alone can refute, and says why.
 */
class EditedLogProperties {

    private static Database db;
    private static Path dir;
    /** Each catalog scenario's log, by name. */
    private static final Map<String, List<Event>> logs = new LinkedHashMap<>();

    @BeforeContainer
    static void runTheCatalog() throws Exception {
        // A server of its own: db-restart stops and starts it.
        db = EmbeddedDatabase.startThrowaway();
        dir = Files.createTempDirectory("fencelab-edited-logs");
        for (String name : Catalog.shipped().names()) {
            Path log = dir.resolve(name + ".jsonl");
            try (Run run = Run.prepare(db, Catalog.shipped().load(name).spec().withExecutor(ExecutorKind.SIMULATED),
                    log, Backend.POSTGRES)) {
                run.runToEnd();
            }
            logs.put(name, EventLogReader.readLog(log).events());
        }
    }

    @AfterContainer
    static void stop() throws IOException {
        db.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** An edit at a place in one scenario's log. */
    record Place(String scenario, int index, int other) {
        List<Event> log() {
            return logs.get(scenario);
        }
    }

    /**
     * A write (attempted, accepted or refused) whose token is raised above every token granted in its
     * scope: no grant issued it, whatever the token scheme.
     */
    @Property(tries = 300, shrinking = ShrinkingMode.OFF)
    void aWritesTokenRaisedAboveEveryGrantIsNeverSafe(@ForAll("writesBelowTheTop") Place p) {
        Event write = p.log().get(p.index());
        long top = p.log().stream().filter(e -> e instanceof Event.LeaseAcquired g && g.scope().equals(write.scope()))
                .mapToLong(e -> ((Event.LeaseAcquired) e).fencingToken()).max().orElseThrow();
        List<Event> edited = new ArrayList<>(p.log());
        edited.set(p.index(), with(write, "token", top + 1));

        assertNotSafe(p, edited, "token of seq " + write.seq() + " raised to " + (top + 1));
    }

    @Provide
    Arbitrary<Place> writesBelowTheTop() {
        List<Place> places = new ArrayList<>();
        logs.forEach((name, log) -> {
            Map<String, Long> top = new HashMap<>();
            log.forEach(e -> {
                if (e instanceof Event.LeaseAcquired g) {
                    top.merge(g.scope(), g.fencingToken(), Math::max);
                }
            });
            for (int i = 0; i < log.size(); i++) {
                Long t = top.get(log.get(i).scope());
                if (isWrite(log.get(i)) && t != null && t < Long.MAX_VALUE) {
                    places.add(new Place(name, i, i));
                }
            }
        });
        return someOf(places);
    }

    /**
     * An accepted write's {@code replacedToken} lowered below every token of the log, on a resource
     * where (a) the log never accepted a lower token after a higher one, so every link of its chain
     * of replaced tokens goes up, (b) every write sent was answered, so no unlogged write can be a
     * missing link, and (c) the write is the first under its token there, after other writes. The
     * edited write claims to come before writes with smaller tokens that the run applied first: the
     * chain cannot put it there. (Without (a) to (c), a lowered token can fit the chain: a log
     * records a live run's writes in report order, not apply order.)
     */
    @Property(tries = 300, shrinking = ShrinkingMode.OFF)
    void aReplacedTokenLoweredBelowTheLogIsNeverSafe(@ForAll("acceptedAfterOthers") Place p) {
        Event.WriteAccepted write = (Event.WriteAccepted) p.log().get(p.index());
        long bottom = p.log().stream().flatMap(e -> tokensOf(e).stream()).mapToLong(Long::longValue).min().orElseThrow();
        List<Event> edited = new ArrayList<>(p.log());
        edited.set(p.index(), with(write, "replacedToken", bottom - 1));

        assertNotSafe(p, edited, "replacedToken of seq " + write.seq() + " lowered from " + write.replacedToken()
                + " to " + (bottom - 1));
    }

    @Provide
    Arbitrary<Place> acceptedAfterOthers() {
        List<Place> places = new ArrayList<>();
        logs.forEach((name, log) -> {
            if (log.stream().flatMap(e -> tokensOf(e).stream()).anyMatch(t -> t == Long.MIN_VALUE)) {
                return;
            }
            Map<ResourceId, Boolean> upward = new HashMap<>();
            Map<ResourceId, Integer> unanswered = new HashMap<>();
            for (Event e : log) {
                if (e instanceof Event.WriteAccepted a) {
                    upward.merge(idOf(a), a.replacedToken() == null || a.replacedToken() <= a.token(), Boolean::logicalAnd);
                }
                ResourceId on = writtenOn(e);
                if (on != null) {
                    unanswered.merge(on, e instanceof Event.WriteAttempted ? 1 : -1, Integer::sum);
                }
            }
            Map<ResourceId, java.util.Set<Long>> tokensSoFar = new HashMap<>();
            for (int i = 0; i < log.size(); i++) {
                if (log.get(i) instanceof Event.WriteAccepted w) {
                    ResourceId id = idOf(w);
                    java.util.Set<Long> before = tokensSoFar.computeIfAbsent(id, k -> new java.util.HashSet<>());
                    if (w.replacedToken() != null && !before.isEmpty() && !before.contains(w.token())
                            && upward.get(id) && unanswered.get(id) == 0) {
                        places.add(new Place(name, i, i));
                    }
                    before.add(w.token());
                }
            }
        });
        return someOf(places);
    }

    /**
     * A grant swapped with a later write presenting its token (and the two renumbered, so the log
     * stays in seq order): the write now comes before any grant issued its token. Only the first
     * grant of a token counts, since under a rounding scheme a later grant reissues an earlier one's.
     * Other swaps across a grant can be benign (an unrelated write moved before it), so they are not
     * claimed here.
     */
    @Property(tries = 300, shrinking = ShrinkingMode.OFF)
    void aWriteSwappedBeforeTheGrantOfItsTokenIsNeverSafe(@ForAll("grantsAndTheirWrites") Place p) {
        Event grant = p.log().get(p.index());
        Event write = p.log().get(p.other());
        List<Event> edited = new ArrayList<>(p.log());
        edited.set(p.index(), with(write, "seq", grant.seq()));
        edited.set(p.other(), with(grant, "seq", write.seq()));

        assertNotSafe(p, edited, "grant seq " + grant.seq() + " swapped with write seq " + write.seq());
    }

    @Provide
    Arbitrary<Place> grantsAndTheirWrites() {
        record ScopeToken(String scope, long token) {}
        List<Place> places = new ArrayList<>();
        logs.forEach((name, log) -> {
            Map<ScopeToken, Integer> firstGrant = new HashMap<>();
            for (int j = 0; j < log.size(); j++) {
                Event e = log.get(j);
                if (e instanceof Event.LeaseAcquired g) {
                    firstGrant.putIfAbsent(new ScopeToken(g.scope(), g.fencingToken()), j);
                } else if (isWrite(e)) {
                    Integer i = firstGrant.get(new ScopeToken(e.scope(), e.tokenOrNull()));
                    if (i != null) {
                        places.add(new Place(name, i, j));
                    }
                }
            }
        });
        return someOf(places);
    }

    /** Two lines swapped as they are, seqs and all: the log is no longer in seq order, and the reader says where. */
    @Property(tries = 100, shrinking = ShrinkingMode.OFF)
    void twoLinesSwappedAsTheyAreAreMalformed(@ForAll("anyTwoLines") Place p) throws IOException {
        List<Event> edited = new ArrayList<>(p.log());
        edited.set(p.index(), p.log().get(p.other()));
        edited.set(p.other(), p.log().get(p.index()));
        Path file = write(edited);
        try {
            assertThatThrownBy(() -> EventLogReader.readLog(file)).as("%s: lines %d and %d swapped", p.scenario(),
                    p.index() + 1, p.other() + 1).isInstanceOf(EventLogFormatException.class);
        } finally {
            Files.delete(file);
        }
    }

    @Provide
    Arbitrary<Place> anyTwoLines() {
        return Arbitraries.of(List.copyOf(logs.keySet())).flatMap(name -> {
            int size = logs.get(name).size();
            return Arbitraries.integers().between(0, size - 2).flatMap(i -> Arbitraries.integers().between(i + 1,
                    size - 1).map(j -> new Place(name, i, j)));
        });
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Places from every scenario that has one, each scenario as likely as another (logs differ a lot in size). */
    private static Arbitrary<Place> someOf(List<Place> places) {
        assertThat(places).as("the catalog offers places for this edit").isNotEmpty();
        Map<String, List<Place>> byScenario = new LinkedHashMap<>();
        places.forEach(p -> byScenario.computeIfAbsent(p.scenario(), k -> new ArrayList<>()).add(p));
        return Arbitraries.of(List.copyOf(byScenario.values())).flatMap(Arbitraries::of);
    }

    private static void assertNotSafe(Place p, List<Event> edited, String edit) {
        Judgement judgement = SafetyChecker.judgement(edited);

        assertThat(judgement.isSafe()).as("%s with %s is not SAFE", p.scenario(), edit).isFalse();
    }

    private static Path write(List<Event> events) throws IOException {
        Path file = Files.createTempFile(dir, "edited", ".jsonl");
        try (EventLog log = EventLog.create(file)) {
            log.append(events);
        }
        return file;
    }

    private static boolean isWrite(Event e) {
        return writtenOn(e) != null;
    }

    private static ResourceId idOf(Event.WriteAccepted w) {
        return new ResourceId(w.target(), w.scope(), w.key());
    }

    /** The resource a write event (sent or answered) is on, or null for any other event. */
    private static ResourceId writtenOn(Event e) {
        return switch (e) {
            case Event.WriteAttempted w -> new ResourceId(w.target(), w.scope(), w.key());
            case Event.WriteAccepted w -> idOf(w);
            case Event.WriteRejectedStale w -> new ResourceId(w.target(), w.scope(), w.key());
            case Event.WriteMissing w -> new ResourceId(w.target(), w.scope(), w.key());
            case Event.WriteOutOfOrder w -> new ResourceId(w.target(), w.scope(), w.key());
            default -> null;
        };
    }

    /** Every token an event names: granted, presented, replaced, refused against. */
    private static List<Long> tokensOf(Event e) {
        List<Long> tokens = new ArrayList<>(3);
        if (e.tokenOrNull() != null) {
            tokens.add(e.tokenOrNull());
        }
        switch (e) {
            case Event.LeaseAcquired g -> tokens.add(g.fencingToken());
            case Event.WriteAccepted w when w.replacedToken() != null -> tokens.add(w.replacedToken());
            case Event.WriteRejectedStale r -> tokens.add(r.highest());
            case Event.LeaseBusy b -> tokens.add(b.currentToken());
            default -> { }
        }
        return tokens;
    }

    /** A copy of {@code e} with its component {@code name} set to {@code value}. */
    private static Event with(Event e, String name, Object value) {
        try {
            RecordComponent[] components = e.getClass().getRecordComponents();
            Object[] args = new Object[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                args[i] = components[i].getName().equals(name) ? value : components[i].getAccessor().invoke(e);
            }
            return (Event) e.getClass().getDeclaredConstructor(types).newInstance(args);
        } catch (ReflectiveOperationException x) {
            throw new AssertionError(x);
        }
    }
}

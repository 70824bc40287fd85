package io.fencelab.scenarios;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseProfileRegistry;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.WorkerRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Every key of the scenario format in one table: its path, its default, what it accepts and what it
 * means in a line, the way Caffeine's simulator {@code reference.conf} sets every option beside its
 * default. {@link ScenarioCompiler} takes its defaults and the keys it accepts in each mapping from
 * here; the key tables of {@code docs/SCENARIOS.md} are written from it by {@link DefaultsDoc}, and a
 * test fails when the doc is out of date. A key added to the format is added here first.
 *
 * <p>Paths name list items with {@code []}: {@code workers[].writes[].fencing}.
 */
public final class Defaults {

    private Defaults() {
    }

    /**
     * One key of the format.
     *
     * @param path    where it is: {@code lease.ttl}, {@code workers[].onStale}
     * @param value   the default the compiler uses, or null where there is none (required, optional
     *                without a value, or taken from elsewhere: see {@code written})
     * @param written the default as the documentation shows it: a value in the file syntax
     *                ({@code 0s}, {@code FENCED}) when {@code literal}, else words ({@code required},
     *                {@code none}, {@code the run's `fencing`})
     * @param literal whether {@code written} is a value a file could contain
     * @param allowed what the key accepts, briefly
     * @param meaning what the key means, in one line
     */
    public record Key<T>(String path, T value, String written, boolean literal, String allowed, String meaning) {

        public Key {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(written, "written");
            Objects.requireNonNull(allowed, "allowed");
            Objects.requireNonNull(meaning, "meaning");
        }

        /** The key as written in its mapping: {@code onStale}. */
        public String name() {
            return path.substring(path.lastIndexOf('.') + 1);
        }

        /** The path of the mapping that holds it: {@code workers[]}; empty at the top level. */
        public String parent() {
            int dot = path.lastIndexOf('.');
            return dot < 0 ? "" : path.substring(0, dot);
        }

        public boolean required() {
            return written.equals(REQUIRED);
        }
    }

    /** Bounds a typo ({@code count: 1000000}) before it allocates; far above what a run is useful with. */
    static final int MAX_WORKERS = 10_000;

    /**
     * The most events a run may be estimated to log ({@link io.fencelab.engine.run.EventEstimate}): a
     * scenario past it is refused before it runs, rather than filling memory and disk. Fifty times the
     * catalog's largest estimate (check-then-write-race, about 144,000) and four times the bench's live storm.
     */
    static final long MAX_EVENTS = 1_000_000;

    /** The faults whose {@code amount} means something: the delay added, or the clock's skew. */
    static final Set<FaultKind> TAKE_AMOUNT = EnumSet.of(FaultKind.REQUEST_DELAY, FaultKind.REQUEST_JITTER,
            FaultKind.REPLY_DELAY, FaultKind.SLOW_LEASE_SERVICE, FaultKind.CLOCK_SKEW);

    static final String REQUIRED = "required";
    private static final String NONE = "none";

    private static final List<Key<?>> KEYS = new ArrayList<>();

    // ---- teaching notes

    public static final Key<String> TITLE = required("title", "text",
            "A short name for the lesson, shown in the catalog and on reports.");
    public static final Key<String> SUMMARY = required("summary", "text",
            "One paragraph: what happens and what it shows; its first sentence is the catalog's one-liner.");
    public static final Key<List<String>> STORY = required("story", "a list of at least one step: a text, or a mapping",
            "The story as steps, in order; the list order is the numbering.");
    public static final Key<String> STEP_TEXT = required("story[].text", "text",
            "What the step tells (a step written as plain text is just this).");
    public static final Key<Duration> STEP_AT = described("story[].at", "with the step before",
            "a duration, not negative; or on, not both",
            "The run time the step tells: it is reached once the run passes it.");
    public static final Key<Void> STEP_ON = described("story[].on", "with the step before",
            "{type: EventType, field: value, …}; or at, not both",
            "The event the step tells: the first one after the step before of that type with those fields.");
    public static final Key<String> STEP_ASK = described("story[].ask", "no question", "text",
            "A question for the room, asked before the step plays out.");
    public static final Key<List<String>> STEP_CHOICES = described("story[].choices", "required with ask",
            "a list of 2 to 6 texts", "The answers to choose from, shown as A, B, C, …");
    public static final Key<Long> STEP_ANSWER = described("story[].answer", "required with ask",
            "the right choice's number, from 1", "Which choice is right.");
    public static final Key<String> STEP_WHY = described("story[].why", "required with ask", "text",
            "Why that choice is right, in a sentence or two: shown when the answer is revealed.");
    public static final Key<String> STEP_NOTES = described("story[].notes", "none", "text",
            "Notes for the teacher, shown in the teacher's window and not to the room.");

    // ---- the run

    public static final Key<ExecutorKind> EXECUTOR = choice("executor", ExecutorKind.SIMULATED, true,
            "How the run is executed: a virtual clock on one thread (replayable), real threads and real time, "
                    + "or each worker its own JVM (real freezes and crashes).");
    public static final Key<Long> SEED = value("seed", 1L, "a whole number, negative allowed",
            "Seeds every random choice: fault schedules and durations, random tokens.");
    public static final Key<Duration> DURATION = required("duration", "a duration, more than 0s; the run "
                    + "estimated at no more than " + String.format(Locale.ROOT, "%,d", MAX_EVENTS) + " events (Limits)",
            "How long the run lasts, in run time.");
    public static final Key<Double> TIME_SCALE = value("timeScale", 1.0, "a number, more than 0",
            "Live runs only: real seconds per run second (0.1 plays a minute in six seconds).");
    public static final Key<Void> HOSTS = described("hosts", "every worker on the run's machine",
            "a mapping of host name (1 to 64 of A-Z, a-z, 0-9, _, . and -, beginning with a letter, digit or _; not local) to a number "
                    + "of workers or a list of worker or group names; executor: process only",
            "Process runs only: which agent host runs which workers; a number takes the next workers in file order.");

    // ---- the lease

    public static final Key<Void> LEASE = required("lease", "a mapping: profile and the profile's settings",
            "The lease every worker competes for on its scope, and what its client does (docs/TUNING.md, Profiles).");
    public static final Key<String> LEASE_PROFILE = key("lease.profile", "generic", "generic", true,
            String.join(", ", LeaseProfileRegistry.names()),
            "Which real lease client the holders behave like (" + LeaseProfileRegistry.all().stream()
                    .map(p -> p.name() + ": " + p.source()).collect(java.util.stream.Collectors.joining("; "))
                    + "); each takes only its own settings below.");
    public static final Key<String> LEASE_SERVICE = key("lease.service", "postgres", "postgres", true,
            String.join(", ", ServiceKind.keys()),
            "Which service grants the leases: Fencelab's PostgreSQL lease table, or a real etcd, ZooKeeper or Redis "
                    + "through its own client (the profile etcd, zookeeper or redisson); live and process runs only "
                    + "(docs/SERVICES.md).");
    public static final Key<Void> LEASE_TOKEN = described("lease.token", "the service's first",
            "counter (postgres); create-revision (etcd); czxid or sequence (zookeeper); incr-after-lock or lua (redis)",
            "Where a real service's fencing token comes from (docs/SERVICES.md says what each guarantees).");
    public static final Key<Long> LEASE_MEMBERS = value("lease.members", 1L,
            "1, or 3 with etcd or zookeeper; not with your own server's address",
            "How many members the server Fencelab starts has: 3 is an etcd or ZooKeeper ensemble, whose leader "
                    + "SERVICE_LEADER_STOP stops (docs/SERVICES.md).");
    /** One key a setting, as the profile registry lists them; a setting several profiles share is one key. */
    private static final List<Key<?>> LEASE_SETTINGS = LeaseProfileRegistry.allSettingNames().stream()
            .<Key<?>>map(Defaults::leaseSetting).toList();
    public static final Key<Duration> LEASE_RENEW_EVERY = leaseKey("renewEvery");

    // ---- resources and tokens

    public static final Key<FencingMode> FENCING = choice("fencing", FencingMode.FENCED, false,
            "How resources apply writes: compare the token and write in one statement, or a broken way.");
    public static final Key<TokenScheme> TOKEN_SCHEME = choice("tokenScheme", TokenScheme.MONOTONIC, false,
            "Where the number a holder presents comes from: the lease's counter, or a broken source.");
    public static final Key<FirstWritePolicy> FIRST_WRITE = choice("firstWrite", FirstWritePolicy.CREATE, false,
            "A write to a resource that does not exist yet: create it, or answer \"missing\".");
    public static final Key<Void> SCOPES = described("scopes", NONE,
            "a mapping of scope name to a whole number of at least 1",
            "The first token each scope hands out; a scope not listed starts at 1.");

    // ---- the user's own fences (`*` stands for the target's name)

    public static final Key<Void> TARGETS = described("targets", NONE,
            "a mapping of target name (a-z, then a-z, 0-9, _ or -) to a target",
            "Fenced resources defined in SQL: your own table and statement, in a scratch schema made for the run.");
    public static final Key<String> TARGET_KIND = required("targets.*.kind", "SQL",
            "What the target is; SQL, the only kind so far.");
    public static final Key<String> TARGET_SCHEMA = described("targets.*.schema", "exactly one of schema and copyFrom",
            "SQL text: statements", "DDL run in the scratch schema to create the target's tables and functions.");
    public static final Key<List<String>> TARGET_COPY_FROM = described("targets.*.copyFrom",
            "exactly one of schema and copyFrom", "a list of schema.table or schema.function(argument types)",
            "Existing tables and functions copied into the scratch schema instead of DDL; the originals are only read.");
    public static final Key<String> TARGET_SETUP = described("targets.*.setup", NONE, "SQL text: statements",
            "Run once after the schema, before any worker: rows the run starts with.");
    public static final Key<String> TARGET_WRITE = required("targets.*.write",
            "SQL text, or a list of them run in order (check-then-write)",
            "The statement under test, with parameters :token, :key, :scope, :body and :seq.");
    public static final Key<String> TARGET_ACCEPTED = required("targets.*.accepted",
            "rows = N, rows >= N, rows > N or result = 'text'",
            "How the write's answer reads when it was accepted: affected rows or a returned value.");
    public static final Key<String> TARGET_STALE = described("targets.*.stale", NONE,
            "as accepted (rows with rows, result with result), or sqlstate = 'XXXXX'",
            "How the answer reads when the token was stale; without it, a refusal is told apart by the read-back.");
    public static final Key<String> TARGET_MISSING = described("targets.*.missing", NONE,
            "as stale", "How the answer reads when the key has no row.");
    public static final Key<String> TARGET_READ = required("targets.*.read",
            "SQL text: one query returning columns token and body",
            "Reads the row back after each write, to check what the statement said against what the row holds.");
    public static final Key<EqualToken> TARGET_EQUAL_TOKEN = choice("targets.*.equalToken", EqualToken.ACCEPT, true,
            "What your fence does with a token equal to the stored one: accept (<=, the article's rule) or reject (<).");
    public static final Key<FirstWritePolicy> TARGET_FIRST_WRITE = choice("targets.*.firstWrite",
            FirstWritePolicy.MISSING, true, "Whether a write to a key with no row creates it (create) or not (missing).");

    // ---- workers

    public static final Key<Void> WORKERS = required("workers", "a list of at least one worker",
            "The lease holders, each running jobs: acquire, work, write, release, idle.");
    public static final Key<String> WORKER_NAME = required("workers[].name",
            "text, unique in the file; not all or database", "The worker's name.");
    public static final Key<Long> WORKER_COUNT = value("workers[].count", 1L,
            "a whole number from 1 to " + String.format(Locale.ROOT, "%,d", MAX_WORKERS) + " in all",
            "More than 1 makes a group of identical workers named name-1 … name-n.");
    public static final Key<String> WORKER_SCOPE = required("workers[].scope", "text",
            "The lease scope it competes for.");
    public static final Key<Duration> WORKER_START_AT = value("workers[].startAt", Duration.ZERO,
            "a duration, not negative, before the end of the run", "When it first tries to acquire, in run time.");
    public static final Key<Duration> WORKER_STAGGER = value("workers[].stagger", Duration.ZERO,
            "a duration, not negative", "In a group, how much later each member starts than the one before.");
    public static final Key<Duration> WORKER_WORK_TIME = value("workers[].workTime", Duration.ofSeconds(1),
            "a duration, not negative", "From acquiring to the first write: the time spent preparing the update.");
    public static final Key<Duration> WORKER_IDLE_TIME = value("workers[].idleTime", Duration.ofSeconds(1),
            "a duration, more than 0s", "The rest between jobs, and the wait after finding the lease busy.");
    public static final Key<Long> WORKER_JOBS = value("workers[].jobs", 0L, "a whole number, at least 0",
            "How many jobs it does before it stops; 0 means until the run ends.");
    public static final Key<WorkerRole> WORKER_ROLE = choice("workers[].role", WorkerRole.JOBS, true,
            "jobs: one lease per job; leader: one lease for job after job until it is lost, then a candidate again.");
    public static final Key<StalePolicy> WORKER_ON_STALE = choice("workers[].onStale", StalePolicy.ABANDON, false,
            "What it does when a resource says its token is stale.");
    public static final Key<Boolean> WORKER_CHECK_DEADLINE = value("workers[].checkDeadline", false,
            "true, false", "Whether it checks its own clock against the lease's expiry before each write.");
    public static final Key<Boolean> WORKER_SEQUENCE_WRITES = value("workers[].sequenceWrites", false,
            "true, false", "Whether each write of a job carries an operation sequence number (1, 2, …).");
    public static final Key<Boolean> WORKER_PIPELINE_WRITES = value("workers[].pipelineWrites", false,
            "true, false", "Whether a job's writes are sent back to back without waiting for each reply.");
    public static final Key<Void> WORKER_WRITES = required("workers[].writes", "a list of at least one write",
            "What each job writes, in order.");
    public static final Key<TargetKind> WRITE_TARGET = key("workers[].writes[].target", TargetKind.ROW, "ROW", true,
            String.join(", ", TargetKind.BUILT_IN.stream().map(Enum::name).toList()) + ", or a name from targets",
            "The kind of resource: a database row, a blob, a pointer, or one of your own targets.");
    public static final Key<String> WRITE_KEY = required("workers[].writes[].key", "text",
            "The resource's key; the same key in the same scope is the same resource.");
    public static final Key<FencingMode> WRITE_FENCING = key("workers[].writes[].fencing", null,
            "the run's `fencing`", false, ValueReader.allowed(FencingMode.class, false),
            "Overrides the run's fencing mode for this one target; not on a write to one of your own targets.");

    // ---- faults

    public static final Key<Void> FAULTS = described("faults", NONE, "a list of faults",
            "What goes wrong, to whom, and when.");
    public static final Key<FaultKind> FAULT_KIND = required("faults[].kind",
            ValueReader.allowed(FaultKind.class, false), "What goes wrong.");
    public static final Key<String> FAULT_TARGET = required("faults[].target",
            "a worker's or group's name, all, database, or service", "Who it happens to.");
    public static final Key<Duration> FAULT_AT = described("faults[].at", "—",
            "a duration before the end of the run, or grant (a PAUSE of named workers only); exactly one of at and every",
            "Once, at this run time; grant: once, at the worker's next grant (between lock and token on Redis's "
                    + "incr-after-lock).");
    public static final Key<Distribution> FAULT_EVERY = described("faults[].every", "—",
            "a distribution that can be more than 0s, with a mean of at least "
                    + Durations.format(FaultPlan.SMALLEST_GAP)
                    + "; exactly one of at and every",
            "Again and again, each next occurrence a fresh gap after the previous one ended.");
    public static final Key<Distribution> FAULT_DURATION = value("faults[].duration",
            new Distribution.Fixed(Duration.ZERO), "a duration or a distribution, not negative; not for CRASH",
            "How long each occurrence lasts.");
    public static final Key<Duration> FAULT_AMOUNT = value("faults[].amount", Duration.ZERO,
            "a duration, needed by " + Texts.and(TAKE_AMOUNT.stream().map(Enum::name).toList())
                    + " and refused by the other kinds; negative only for CLOCK_SKEW",
            "The size of a delay or skew.");
    public static final Key<Void> FAULT_RESTART = described("faults[].restart", "never restarts",
            "a mapping: after, identity; CRASH only", "When and as whom a crashed holder comes back.");
    public static final Key<Distribution> FAULT_RESTART_AFTER = required("faults[].restart.after",
            "a duration or a distribution, more than 0s", "How long after the crash the fresh process starts.");
    public static final Key<FaultSpec.Identity> FAULT_RESTART_IDENTITY = choice("faults[].restart.identity",
            FaultSpec.Identity.SAME, true, "same: the old holder name; new: the next name, A#2, A#3, …");

    // ---- expectations

    public static final Key<Void> EXPECT = required("expect", "a mapping: verdict and optional bounds",
            "What a run of the scenario must show.");
    public static final Key<Verdict.Kind> EXPECT_VERDICT = required("expect.verdict",
            ValueReader.allowed(Verdict.Kind.class, false), "The safety checker's verdict on the run.");
    public static final Key<String> EXPECT_END_REASON = described("expect.endReason", "completed or stopped",
            "completed, stopped, failed", "How the run must end (failed matches any failure; without it, a failed run misses).");
    public static final Key<Void> EXPECT_MIN = described("expect.min", NONE,
            "a mapping of total to a whole number; totals: " + String.join(", ", Expectation.Total.keys()),
            "Lower bounds on the run's totals.");
    public static final Key<Void> EXPECT_MAX = described("expect.max", NONE,
            "as for expect.min", "Upper bounds on the run's totals.");
    public static final Key<Void> EXPECT_EVENTS = described("expect.events", NONE,
            "a mapping of event type (as docs/EVENTS.md names them) to a whole number",
            "Lower bounds on how many events of a type the log holds.");
    public static final Key<Void> EXPECT_INVARIANTS = described("expect.invariants", NONE,
            ValueReader.allowed(Invariant.class, false) + "; only with verdict VIOLATED",
            "Invariants the verdict must have a witness for.");

    /** Every key, parents before their children, in the order the documentation lists them. */
    public static List<Key<?>> all() {
        return Collections.unmodifiableList(KEYS);
    }

    /** The keys a mapping at {@code parent} ({@code ""}, {@code lease}, {@code workers[]}) accepts, in order. */
    static List<String> keysOf(String parent) {
        return KEYS.stream().filter(k -> k.parent().equals(parent)).map(Key::name).toList();
    }

    /** The key at {@code path}, if the format has one. */
    public static Optional<Key<?>> at(String path) {
        return KEYS.stream().filter(k -> k.path().equals(path)).findFirst();
    }

    // ---- building the table

    /**
     * The key {@code lease.<name>} from the registry's settings of that name: a setting of one profile
     * reads as that profile's; one shared (ttl) names each profile's default and meaning.
     */
    private static Key<?> leaseSetting(String name) {
        List<String> users = new ArrayList<>();
        List<String> requiredBy = new ArrayList<>();
        List<String> defaults = new ArrayList<>();
        List<String> meanings = new ArrayList<>();
        LeaseProfileRegistry.Setting any = null;
        for (LeaseProfileRegistry.Profile p : LeaseProfileRegistry.all()) {
            for (LeaseProfileRegistry.Setting s : p.settings()) {
                if (s.name().equals(name)) {
                    any = s;
                    users.add(p.name());
                    if (s.required()) {
                        requiredBy.add(p.name());
                    } else {
                        defaults.add(p.name() + " `" + written(s.defaultValue()) + "`");
                    }
                    meanings.add(p.name() + ": " + Character.toLowerCase(s.meaning().charAt(0))
                            + s.meaning().substring(1, s.meaning().length() - 1));
                }
            }
        }
        Objects.requireNonNull(any, name);
        String path = "lease." + name;
        String allowed = any.allowed() + "; " + String.join(", ", users);
        if (users.size() == 1) {
            return any.required() ? described(path, REQUIRED + " with " + users.getFirst(), allowed, any.meaning())
                    : value(path, any.defaultValue(), allowed, any.meaning());
        }
        String written = (requiredBy.isEmpty() ? "" : REQUIRED + " with " + String.join(", ", requiredBy)
                + (defaults.isEmpty() ? "" : "; ")) + String.join(", ", defaults);
        return described(path, written, allowed, String.join("; ", meanings) + ".");
    }

    @SuppressWarnings("unchecked")
    private static <T> Key<T> leaseKey(String name) {
        return (Key<T>) LEASE_SETTINGS.stream().filter(k -> k.name().equals(name)).findFirst().orElseThrow();
    }

    private static <T> Key<T> key(String path, T value, String written, boolean literal, String allowed,
                                  String meaning) {
        Key<T> k = new Key<>(path, value, written, literal, allowed, meaning);
        KEYS.add(k);
        return k;
    }

    private static <T> Key<T> required(String path, String allowed, String meaning) {
        return key(path, null, REQUIRED, false, allowed, meaning);
    }

    /** A key without a default value, whose absence the documentation describes in words. */
    private static <T> Key<T> described(String path, String written, String allowed, String meaning) {
        return key(path, null, written, false, allowed, meaning);
    }

    private static <T> Key<T> value(String path, T value, String allowed, String meaning) {
        return key(path, value, written(value), true, allowed, meaning);
    }

    /** A name from an enum's constants; {@code lowercase} where the format writes them so ({@code simulated}). */
    private static <E extends Enum<E>> Key<E> choice(String path, E value, boolean lowercase, String meaning) {
        String name = lowercase ? value.name().toLowerCase(Locale.ROOT) : value.name();
        return key(path, value, name, true, ValueReader.allowed(value.getDeclaringClass(), lowercase), meaning);
    }

    /** A default value in the file syntax. */
    private static String written(Object value) {
        return switch (value) {
            case Duration d -> Durations.format(d);
            case Distribution.Fixed f -> Durations.format(f.value());
            case Long n -> Long.toString(n);
            case Double x -> Double.toString(x);
            case Boolean b -> Boolean.toString(b);
            case String text -> text;
            default -> throw new IllegalArgumentException("no file syntax for a default of " + value.getClass());
        };
    }
}

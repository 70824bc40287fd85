package io.fencelab.scenarios;

import static io.fencelab.scenarios.ValueReader.DurationRule.NOT_NEGATIVE;
import static io.fencelab.scenarios.ValueReader.DurationRule.POSITIVE;

import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.lease.LeaseProfileRegistry;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.lease.TokenRecipe;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.EventEstimate;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.UserFences;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerRole;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Turns a parsed scenario file into a {@link Scenario}: checks every key and value against the format
 * (docs/SCENARIOS.md), expands worker groups and fault targets, and builds the engine's specs. All
 * problems of a file are collected; the engine's specs are built only from a file without any, and an
 * engine constructor's refusal is reported at the node it came from.
 */
final class ScenarioCompiler {

    // The keys each mapping accepts, in the order messages list them: the format's table, Defaults.
    static final List<String> TOP = Defaults.keysOf("");
    static final List<String> STEP = Defaults.keysOf("story[]");
    static final List<String> LEASE = Defaults.keysOf("lease");
    /** The lease's keys that are not its profile's settings. */
    private static final Set<String> NOT_SETTINGS = Set.of("profile", "service", "token", "members");
    static final List<String> WORKER = Defaults.keysOf("workers[]");
    static final List<String> WRITE = Defaults.keysOf("workers[].writes[]");
    static final List<String> FAULT = Defaults.keysOf("faults[]");
    static final List<String> RESTART = Defaults.keysOf("faults[].restart");
    static final List<String> EXPECT = Defaults.keysOf("expect");

    private final Problems problems;
    private final ValueReader read;
    private final DistributionReader distributions;
    private final String name;
    private final TargetCompiler targetCompiler;
    /** The file's own targets ({@code targets:}), which writes may name. */
    private TargetCompiler.Targets userTargets = TargetCompiler.Targets.NONE;
    /** What logs the run's events, each at the node that says so: the run's size is judged against them. */
    private final List<EventSource> eventSources = new ArrayList<>();

    private ScenarioCompiler(Problems problems, String name, String text, DataFiles dataFiles) {
        this.problems = problems;
        this.read = new ValueReader(problems);
        this.distributions = new DistributionReader(read, dataFiles);
        this.name = name;
        this.targetCompiler = new TargetCompiler(problems, read, text);
    }

    /**
     * Compiles {@code text}.
     *
     * @param file         how messages name the file
     * @param scenarioName the scenario's (and run spec's) name
     * @param dataFiles    where the data files it names ({@code {empirical: g1.log}}) are found
     * @throws ScenarioException with every problem found
     */
    static Scenario compile(String file, String scenarioName, String text, DataFiles dataFiles) {
        Problems problems = new Problems(file);
        YamlNode root = YamlTree.parse(text, problems);
        if (root == null) {
            problems.add(YamlNode.Mark.START, "", "the file is empty; a scenario needs at least "
                    + "title, summary, story, duration, lease, workers and expect");
        }
        problems.throwIfAny();
        Scenario scenario = new ScenarioCompiler(problems, scenarioName, text, dataFiles).scenario(root);
        problems.throwIfAny();
        return Objects.requireNonNull(scenario);
    }

    // ---- the top level ----------------------------------------------------------------------------

    private Scenario scenario(YamlNode root) {
        Fields top = read.fields(root, "", TOP);
        if (top == null) {
            return null;
        }
        TeachingNotes notes = new StoryCompiler(problems, read).notes(top);

        ExecutorKind executor = top.node("executor") == null ? Defaults.EXECUTOR.value()
                : read.choice(top.node("executor"), "executor", ExecutorKind.class, true);
        Long seed = top.integer("seed", Defaults.SEED.value(), Long.MIN_VALUE, Long.MAX_VALUE, true);
        Duration duration = top.requiredDuration("duration", "duration: 60s", POSITIVE);
        Double timeScale = top.number("timeScale", Defaults.TIME_SCALE.value());
        if (timeScale != null && !(timeScale > 0)) {
            read.problem(top.node("timeScale"), "timeScale", timeScale + " must be more than 0 "
                    + "(real seconds per run second: 0.1 runs ten times faster)");
            timeScale = null;
        }
        YamlNode leaseNode = top.required("lease", "lease: {ttl: 30s}");
        Fields lease = leaseNode == null ? null : read.fields(leaseNode, "lease", LEASE);
        LeaseProfile leaseProfile = lease == null ? null : leaseProfile(lease);
        LeaseServiceSpec leaseService = lease == null ? null : leaseService(lease, leaseProfile, executor);
        FencingMode fencing = top.choice("fencing", FencingMode.class, Defaults.FENCING.value());
        TokenScheme tokenScheme = top.choice("tokenScheme", TokenScheme.class, Defaults.TOKEN_SCHEME.value());
        FirstWritePolicy firstWrite = top.choice("firstWrite", FirstWritePolicy.class, Defaults.FIRST_WRITE.value());

        Map<String, Long> firstTokens = new LinkedHashMap<>();
        Map<String, YamlNode.Field> scopeFields = scopes(top, firstTokens);
        userTargets = targetCompiler.targets(top);

        Workers workers = workers(top, duration);
        if (workers.scopesKnown) {
            Set<String> used = new LinkedHashSet<>();
            workers.drafts.forEach(d -> used.add(d.scope));
            scopeFields.values().stream().filter(f -> !used.contains(f.key())).forEach(f ->
                    problems.add(f.keyMark(), "scopes." + Texts.abbreviate(f.key()), "no worker uses this scope "
                            + "(workers use " + String.join(", ", used) + ")"));
        }
        List<FaultSpec> faults = new FaultCompiler(problems, read, distributions, eventSources)
                .faults(top, workers, duration, leaseService);
        Map<String, String> hosts = new HostsCompiler(problems, read).hosts(top, executor, workers);
        Expectation expectation = new ExpectationCompiler(problems, read).expectation(top);

        if (!problems.isEmpty()) {
            return null;
        }
        RunSpec spec;
        try {
            spec = new RunSpec(name, workers.specs, firstTokens, leaseProfile, fencing, tokenScheme, firstWrite,
                    faults, seed, duration, executor, timeScale, new UserFences(userTargets.fences(), false), hosts,
                    leaseService);
        } catch (IllegalArgumentException e) {
            read.problem(root, "", refusal(e));
            return null;
        }
        if (!withinEventLimit(spec)) {
            return null;
        }
        return new Scenario(name, notes, spec, expectation);
    }

    // ---- the run's size ---------------------------------------------------------------------------

    /**
     * A worker entry or a fault of the file and the events it is estimated to log.
     *
     * @param what     how the message names it: {@code this fault}, {@code these 50 workers}
     * @param remedy   what the author can change to log fewer
     * @param estimate its events in a run of the spec
     */
    record EventSource(YamlNode at, String path, String what, String remedy, ToLongFunction<RunSpec> estimate) {}

    /**
     * Whether the run's estimated events are within {@link Defaults#MAX_EVENTS}; if not, reports it at
     * the entry that logs the most, with the estimates, so the author sees which line to change.
     */
    private boolean withinEventLimit(RunSpec spec) {
        long total = EventEstimate.of(spec);
        if (total <= Defaults.MAX_EVENTS) {
            return true;
        }
        EventSource biggest = null;
        long most = -1;
        for (EventSource source : eventSources) {
            long n = source.estimate().applyAsLong(spec);
            if (n > most) {
                biggest = source;
                most = n;
            }
        }
        Objects.requireNonNull(biggest, "a run over the limit has a worker or fault that logs");
        read.problem(biggest.at(), biggest.path(), "the run would log about " + count(total) + " events in "
                + Durations.format(spec.duration()) + ", " + count(most) + " of them from " + biggest.what()
                + "; at most " + count(Defaults.MAX_EVENTS) + " are allowed (docs/SCENARIOS.md, Limits): "
                + biggest.remedy());
        return false;
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    // ---- the lease --------------------------------------------------------------------------------

    /**
     * The lease profile and its settings: each profile takes only its own keys (the engine record's
     * components), missing ones take the real client's defaults, and the client's own rules (for
     * kubernetes, leaseDuration > renewDeadline > 1.2 × retryPeriod) are checked at the key that breaks them.
     */
    private LeaseProfile leaseProfile(Fields lease) {
        String profile = lease.name("profile", Defaults.LEASE_PROFILE.value());
        if (profile == null) {
            return null;
        }
        LeaseProfileRegistry.Profile entry = LeaseProfileRegistry.named(profile).orElse(null);
        if (entry == null) {
            List<String> profiles = LeaseProfileRegistry.names();
            String hint = Texts.suggestion(profile, profiles);
            read.problem(lease.node("profile"), lease.path("profile"), "'" + Texts.abbreviate(profile)
                    + "' is not a lease profile" + (hint == null ? "" : "; did you mean " + hint + "?")
                    + " (allowed: " + String.join(", ", profiles) + ")");
            return null;
        }
        List<String> own = entry.settingNames();
        boolean foreign = false;
        for (YamlNode.Field f : lease.mapping().fields().values()) {
            if (!NOT_SETTINGS.contains(f.key()) && LEASE.contains(f.key()) && !own.contains(f.key())) {
                problems.add(f.keyMark(), lease.path(f.key()), "the " + profile + " profile has no " + f.key()
                        + " (its settings: " + String.join(", ", own) + ")");
                foreign = true;
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (LeaseProfileRegistry.Setting s : entry.settings()) {
            Object value = switch (s.kind()) {
                case POSITIVE_DURATION -> s.required() ? lease.requiredDuration(s.name(), s.example(), POSITIVE)
                        : lease.duration(s.name(), (Duration) s.defaultValue(), POSITIVE);
                case DURATION -> s.required() ? lease.requiredDuration(s.name(), s.example(), NOT_NEGATIVE)
                        : lease.duration(s.name(), (Duration) s.defaultValue(), NOT_NEGATIVE);
                case FLAG -> lease.bool(s.name(), (Boolean) s.defaultValue());
            };
            if (value != null) {
                values.put(s.name(), value);
            }
        }
        LeaseProfile result = values.size() == own.size() ? entry.create(values) : null;
        if (result == null || foreign) {
            return null;
        }
        List<LeaseProfile.Violation> violations = result.violations();
        for (LeaseProfile.Violation v : violations) {
            YamlNode at = lease.has(v.setting()) ? lease.node(v.setting()) : lease.mapping();
            read.problem(at, lease.path(v.setting()), v.problem() + (lease.has(v.setting()) ? ""
                    : " (" + v.setting() + " is " + profile + "'s default)"));
        }
        return violations.isEmpty() ? result : null;
    }

    /**
     * The service that grants the leases and where its tokens come from: a real one runs its profile's
     * client, in real time.
     */
    private LeaseServiceSpec leaseService(Fields lease, LeaseProfile profile, ExecutorKind executor) {
        String key = lease.name("service", Defaults.LEASE_SERVICE.value());
        if (key == null) {
            return null;
        }
        ServiceKind kind = ServiceKind.named(key).orElse(null);
        if (kind == null) {
            String hint = Texts.suggestion(key, ServiceKind.keys());
            read.problem(lease.node("service"), lease.path("service"), "'" + Texts.abbreviate(key)
                    + "' is not a lease service" + (hint == null ? "" : "; did you mean " + hint + "?")
                    + " (allowed: " + String.join(", ", ServiceKind.keys()) + ")");
            return null;
        }
        String client = kind.profileKey().orElse(null);
        if (client != null && profile != null && !client.equals(profile.key())) {
            read.problem(lease.node("service"), lease.path("service"), "service " + kind.key() + " runs the "
                    + client + " profile's client; this lease's profile is " + profile.key() + " (set profile: "
                    + client + ")");
            return null;
        }
        if (kind != ServiceKind.POSTGRES && executor == ExecutorKind.SIMULATED) {
            read.problem(lease.node("service"), lease.path("service"), "a real " + kind.key() + " runs in real "
                    + "time, by its own clock; set executor: live or process");
            return null;
        }
        String token = lease.name("token", null);
        TokenRecipe recipe = token == null ? kind.defaultToken() : TokenRecipe.named(token)
                .filter(t -> t.service() == kind).orElse(null);
        if (recipe == null) {
            read.problem(lease.node("token"), lease.path("token"), "'" + Texts.abbreviate(token) + "' is not a token of "
                    + kind.key() + " (allowed: " + String.join(", ", kind.tokens().stream().map(TokenRecipe::key)
                    .toList()) + ")");
            return null;
        }
        Long members = lease.integer("members", Defaults.LEASE_MEMBERS.value(), 1, LeaseServiceSpec.ENSEMBLE, false);
        if (members == null) {
            return null;
        }
        Optional<String> wrong = LeaseServiceSpec.membersProblem(kind, members);
        if (wrong.isPresent()) {
            read.problem(lease.node("members"), lease.path("members"), wrong.get());
            return null;
        }
        return new LeaseServiceSpec(kind, recipe, null, members.intValue());
    }

    private Map<String, YamlNode.Field> scopes(Fields top, Map<String, Long> firstTokens) {
        YamlNode node = top.node("scopes");
        if (node == null) {
            return Map.of();
        }
        if (!(node instanceof YamlNode.Mapping mapping)) {
            read.problem(node, "scopes", "expected a mapping of scope name to first token (report: 41), got "
                    + node.describe());
            return Map.of();
        }
        for (YamlNode.Field f : mapping.fields().values()) {
            String path = "scopes." + Texts.abbreviate(f.key());
            if (f.key().isBlank()) {
                problems.add(f.keyMark(), path, "a scope name must not be empty");
                continue;
            }
            String refused = ValueReader.refusedCharacter(f.key(), true);
            if (refused != null) {
                problems.add(f.keyMark(), path, refused);
                continue;
            }
            Long first = read.integer(f.value(), path, 1, Long.MAX_VALUE, true);
            if (first != null) {
                firstTokens.put(f.key(), first);
            }
        }
        return mapping.fields();
    }

    // ---- workers ----------------------------------------------------------------------------------

    /** One {@code workers} entry before expansion; fields are null where the file was wrong. */
    record WorkerDraft(String path, YamlNode node, String name, YamlNode nameNode, Long count, String scope,
                               Duration startAt, Duration stagger, Duration workTime, Duration idleTime, Long jobs,
                               StalePolicy onStale, Boolean checkDeadline, Boolean sequenceWrites,
                               Boolean pipelineWrites, WorkerRole role, List<TargetWrite> writes) {

        boolean complete() {
            return name != null && count != null && scope != null && startAt != null && stagger != null
                    && workTime != null && idleTime != null && jobs != null && onStale != null
                    && checkDeadline != null && sequenceWrites != null && pipelineWrites != null && role != null
                    && writes != null && !writes.contains(null);
        }

        /** The worker names this entry stands for: its name, or name-1 … name-n for a group. */
        List<String> members() {
            if (count == 1) {
                return List.of(name);
            }
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                names.add(name + "-" + i);
            }
            return names;
        }
    }

    /**
     * The run's workers. {@code targets} maps each name a fault may target (worker, group) to the
     * workers it stands for; {@code namesKnown} is false when some name could not be read, so fault
     * targets are not judged against an incomplete list.
     */
    record Workers(List<WorkerDraft> drafts, List<WorkerSpec> specs, Map<String, List<String>> targets,
                           boolean namesKnown, boolean scopesKnown) {}

    private Workers workers(Fields top, Duration runLength) {
        YamlNode node = top.required("workers", "workers: [{name: A, scope: report, writes: [{key: report-1}]}]");
        List<YamlNode> items = node == null ? null : read.list(node, "workers", "workers");
        List<WorkerDraft> drafts = new ArrayList<>();
        boolean namesKnown = items != null;
        boolean scopesKnown = items != null;
        if (items != null && items.isEmpty()) {
            read.problem(node, "workers", "needs at least one worker");
        }
        for (int i = 0; items != null && i < items.size(); i++) {
            WorkerDraft d = worker(items.get(i), "workers[" + i + "]", runLength);
            if (d == null) {
                namesKnown = false;
                scopesKnown = false;
                continue;
            }
            namesKnown &= d.name != null && d.count != null;
            scopesKnown &= d.scope != null;
            drafts.add(d);
        }

        long total = drafts.stream().filter(d -> d.count != null).mapToLong(WorkerDraft::count).sum();
        if (total > Defaults.MAX_WORKERS) {
            read.problem(node, "workers", "the groups add up to " + total + " workers; at most " + Defaults.MAX_WORKERS
                    + " are allowed");
            namesKnown = false;
        }

        // Every worker name and group name is one namespace: a fault target must mean exactly one thing.
        Map<String, List<String>> targets = targets(drafts, namesKnown);
        List<WorkerSpec> specs = specs(drafts);
        return new Workers(drafts, specs, targets, namesKnown, scopesKnown);
    }

    /** Each name a fault may target (a worker, a group) with the workers it stands for; a name given twice is a problem. */
    private Map<String, List<String>> targets(List<WorkerDraft> drafts, boolean namesKnown) {
        Map<String, List<String>> targets = new LinkedHashMap<>();
        Map<String, String> declaredBy = new LinkedHashMap<>();
        for (WorkerDraft d : drafts) {
            if (d.name == null || d.count == null || !namesKnown) {
                continue;
            }
            List<String> members = d.members();
            List<String> names = new ArrayList<>(members);
            if (d.count > 1) {
                names.add(d.name);
            }
            for (String n : names) {
                String earlier = declaredBy.putIfAbsent(n, d.path);
                if (earlier != null) {
                    read.problem(d.nameNode, d.path + ".name", "'" + Texts.abbreviate(n) + "' is already a worker"
                            + " or group name (" + earlier + ")" + (n.equals(d.name) ? ""
                            : "; a group of " + d.count + " named " + d.name + " has workers " + d.name + "-1 … "
                            + d.name + "-" + d.count));
                    break;
                }
            }
            targets.put(d.name, members);
            if (d.count > 1) {
                members.forEach(m -> targets.put(m, List.of(m)));
            }
        }
        return targets;
    }

    /** The engine's worker specs, a group expanded, each entry counted among what logs the run's events. */
    private List<WorkerSpec> specs(List<WorkerDraft> drafts) {
        List<WorkerSpec> specs = new ArrayList<>();
        for (WorkerDraft d : drafts) {
            if (!d.complete() || !problems.isEmpty()) {
                continue;
            }
            List<String> members = d.members();
            Set<String> names = Set.copyOf(members);
            eventSources.add(new EventSource(d.node, d.path, members.size() == 1 ? "this worker"
                    : "these " + members.size() + " workers", "make workTime or idleTime longer, the run shorter"
                    + (members.size() == 1 ? "" : " or the group smaller"),
                    run -> run.workers().stream().filter(w -> names.contains(w.name()))
                            .mapToLong(w -> EventEstimate.worker(w, run)).sum()));
            for (int i = 0; i < members.size(); i++) {
                try {
                    specs.add(new WorkerSpec(members.get(i), d.scope, d.startAt.plus(d.stagger.multipliedBy(i)),
                            d.workTime, d.writes, Math.toIntExact(d.jobs), d.idleTime, d.onStale, d.checkDeadline,
                            d.sequenceWrites, d.pipelineWrites, d.role));
                } catch (IllegalArgumentException e) {
                    read.problem(d.node, d.path, refusal(e));
                    break;
                }
            }
        }
        return specs;
    }

    private WorkerDraft worker(YamlNode node, String path, Duration runLength) {
        Fields w = read.fields(node, path, WORKER);
        if (w == null) {
            return null;
        }
        String workerName = w.requiredName("name", "name: A");
        if (FaultSpec.ALL.equals(workerName) || FaultSpec.DATABASE.equals(workerName)) {
            read.problem(w.node("name"), w.path("name"), "'" + workerName + "' is reserved for fault targets; "
                    + "choose another name");
            workerName = null;
        }
        Long count = w.integer("count", Defaults.WORKER_COUNT.value(), 1, Defaults.MAX_WORKERS, false);
        String scope = w.requiredName("scope", "scope: report");
        Duration startAt = w.duration("startAt", Defaults.WORKER_START_AT.value(), NOT_NEGATIVE);
        if (startAt != null && runLength != null && startAt.compareTo(runLength) >= 0) {
            read.problem(w.node("startAt"), w.path("startAt"), Durations.format(startAt)
                    + " is not before the end of the run (duration " + Durations.format(runLength) + ")");
        }
        Duration stagger = w.duration("stagger", Defaults.WORKER_STAGGER.value(), NOT_NEGATIVE);
        Duration workTime = w.duration("workTime", Defaults.WORKER_WORK_TIME.value(), NOT_NEGATIVE);
        Duration idleTime = w.duration("idleTime", Defaults.WORKER_IDLE_TIME.value(), POSITIVE);
        Long jobs = w.integer("jobs", Defaults.WORKER_JOBS.value(), 0, Integer.MAX_VALUE, false);
        StalePolicy onStale = w.choice("onStale", StalePolicy.class, Defaults.WORKER_ON_STALE.value());
        Boolean checkDeadline = w.bool("checkDeadline", Defaults.WORKER_CHECK_DEADLINE.value());
        Boolean sequenceWrites = w.bool("sequenceWrites", Defaults.WORKER_SEQUENCE_WRITES.value());
        Boolean pipelineWrites = w.bool("pipelineWrites", Defaults.WORKER_PIPELINE_WRITES.value());
        WorkerRole role = w.has("role") ? read.choice(w.node("role"), w.path("role"), WorkerRole.class, true)
                : Defaults.WORKER_ROLE.value();

        List<TargetWrite> writes = null;
        YamlNode writesNode = w.required("writes", "writes: [{target: ROW, key: report-1}]");
        List<YamlNode> items = writesNode == null ? null : read.list(writesNode, w.path("writes"), "writes");
        if (items != null) {
            if (items.isEmpty()) {
                read.problem(writesNode, w.path("writes"), "needs at least one write (what the worker protects)");
            }
            writes = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                writes.add(write(items.get(i), w.path("writes") + "[" + i + "]"));
            }
        }
        return new WorkerDraft(path, node, workerName, w.node("name"), count, scope, startAt, stagger, workTime,
                idleTime, jobs, onStale, checkDeadline, sequenceWrites, pipelineWrites, role, writes);
    }

    private TargetWrite write(YamlNode node, String path) {
        Fields f = read.fields(node, path, WRITE);
        if (f == null) {
            return null;
        }
        String user = f.has("target") && f.node("target") instanceof YamlNode.Scalar s
                && userTargets.names().contains(s.text().strip()) ? s.text().strip() : null;
        TargetKind target = user != null ? TargetKind.SQL : f.has("target") ? target(f.node("target"), f.path("target"))
                : Defaults.WRITE_TARGET.value();
        String key = f.requiredName("key", "key: report-1");
        if (user != null && f.has("fencing")) {
            read.problem(f.node("fencing"), f.path("fencing"), "a write to " + user + " is fenced by its own "
                    + "statement (targets." + user + ".write); fencing applies to built-in targets only");
            return null;
        }
        if (user != null) {
            return key == null ? null : new TargetWrite(TargetKind.SQL, SqlKey.of(user, key));
        }
        FencingMode mode = f.choice("fencing", FencingMode.class, Defaults.WRITE_FENCING.value());
        boolean modeWrong = f.has("fencing") && mode == null;
        return target == null || key == null || modeWrong ? null : new TargetWrite(target, key, mode);
    }

    /** A built-in target kind by name, any case; anything else names no target (the file's own are found first). */
    private TargetKind target(YamlNode node, String path) {
        String text = node instanceof YamlNode.Scalar s && s.kind() != YamlNode.ScalarKind.NULL ? s.text().strip() : "";
        for (TargetKind k : TargetKind.BUILT_IN) {
            if (k.name().equalsIgnoreCase(text)) {
                return k;
            }
        }
        List<String> names = new ArrayList<>(TargetKind.BUILT_IN.stream().map(Enum::name).toList());
        String declared = userTargets.names().isEmpty() ? "none" : String.join(", ", userTargets.names());
        names.addAll(userTargets.names());
        String hint = Texts.suggestion(text, names);
        String what = text.isEmpty() ? "expected a target, got " + node.describe()
                : text.equalsIgnoreCase(TargetKind.SQL.name()) ? "SQL is the kind of your own targets; name one"
                : "'" + Texts.abbreviate(text) + "' names no target" + (hint == null ? "" : "; did you mean " + hint + "?");
        read.problem(node, path, what + " (built in: " + TargetCompiler.builtIns() + "; in targets: " + declared + ")");
        return null;
    }

    /** An engine constructor's reason, which is written for people already. */
    static String refusal(IllegalArgumentException e) {
        return e.getMessage() == null ? "refused by the engine" : Texts.abbreviate(e.getMessage(), 200);
    }
}

package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioCompiler.FAULT;
import static io.fencelab.scenarios.ScenarioCompiler.RESTART;
import static io.fencelab.scenarios.ScenarioCompiler.refusal;
import static io.fencelab.scenarios.ValueReader.DurationRule.NOT_NEGATIVE;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.run.EventEstimate;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.ScenarioCompiler.EventSource;
import io.fencelab.scenarios.ScenarioCompiler.WorkerDraft;
import io.fencelab.scenarios.ScenarioCompiler.Workers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario file's {@code faults}: each entry's kind, target (a worker, a group, all or the database),
 * when it comes and how long it lasts, expanded to the engine's fault specs, each counted among what
 * logs the run's events.
 */
final class FaultCompiler {

    private final Problems problems;
    private final ValueReader read;
    private final DistributionReader distributions;
    private final List<EventSource> eventSources;

    FaultCompiler(Problems problems, ValueReader read, DistributionReader distributions, List<EventSource> eventSources) {
        this.problems = problems;
        this.read = read;
        this.distributions = distributions;
        this.eventSources = eventSources;
    }


    /** The file's faults; {@code service} is the run's lease service, null if the file's is wrong. */
    List<FaultSpec> faults(Fields top, Workers workers, Duration runLength, LeaseServiceSpec service) {
        List<FaultSpec> faults = new ArrayList<>();
        List<YamlNode> items = top.list("faults", "faults");
        for (int i = 0; items != null && i < items.size(); i++) {
            faults.addAll(fault(items.get(i), "faults[" + i + "]", workers, runLength, service));
        }
        return faults;
    }

    private List<FaultSpec> fault(YamlNode node, String path, Workers workers, Duration runLength,
                                  LeaseServiceSpec service) {
        Fields f = read.fields(node, path, FAULT);
        if (f == null) {
            return List.of();
        }
        YamlNode kindNode = f.required("kind", "kind: PAUSE");
        FaultKind kind = kindNode == null ? null : read.choice(kindNode, f.path("kind"), FaultKind.class, false);
        boolean refused = kind == FaultKind.SERVICE_LEADER_STOP && service != null && !service.ensemble();
        if (refused) {
            read.problem(kindNode, f.path("kind"), RunSpec.LEADER_STOP_NEEDS);
        }
        String target = f.requiredName("target", "target: A");
        List<String> appliesTo = target == null ? null : targets(f, kind, target, workers);

        FaultStart start = start(f, node, path, kind, target, runLength);

        FaultSpec.Identity identity = FaultSpec.Identity.SAME;
        Distribution length;
        if (kind == FaultKind.CRASH) {
            if (f.has("duration")) {
                read.problem(f.node("duration"), f.path("duration"), "a CRASH has no duration; say when it comes back "
                        + "with restart: {after: 10s, identity: same|new}, or leave restart out (never restarts)");
            }
            Restart restart = restart(f);
            length = restart == null ? null : restart.after;
            identity = restart == null ? null : restart.identity;
        } else {
            if (f.has("restart") && kind != null) {
                read.problem(f.node("restart"), f.path("restart"), "only a CRASH restarts; " + kind
                        + " takes duration instead");
            }
            length = f.has("duration")
                    ? distributions.read(f.node("duration"), f.path("duration"), DistributionReader.Use.LENGTH)
                    : Defaults.FAULT_DURATION.value();
            if (kind == FaultKind.SERVICE_LEADER_STOP && start instanceof FaultStart.Every
                    && new Distribution.Fixed(Duration.ZERO).equals(length)) {
                read.problem(f.has("duration") ? f.node("duration") : node, f.path("duration"), "a repeating "
                        + "SERVICE_LEADER_STOP needs a duration: the stopped member must be back before the next "
                        + "stop (an ensemble of 3 outlives one member down, not two)");
                length = null;
            }
        }
        Duration amount = f.duration("amount", Defaults.FAULT_AMOUNT.value(), ValueReader.DurationRule.ANY);
        if (amount != null && kind != null) {
            amount = checkAmount(f, kind, amount);
        }

        if (refused || kind == null || appliesTo == null || start == null || length == null || amount == null
                || identity == null) {
            return List.of();
        }
        List<FaultSpec> specs = new ArrayList<>();
        for (String t : appliesTo) {
            try {
                specs.add(new FaultSpec(kind, t, start, length, amount, identity));
            } catch (IllegalArgumentException e) {
                read.problem(node, path, refusal(e));
                return List.of();
            }
        }
        List<FaultSpec> mine = List.copyOf(specs);
        boolean repeats = start instanceof FaultStart.Every;
        eventSources.add(new EventSource(repeats ? f.node("every") : f.node("at"), repeats ? f.path("every")
                : f.path("at"), "this fault", "make its gaps or its duration longer, the run shorter or its target "
                + "narrower", run -> mine.stream().mapToLong(fs -> EventEstimate.fault(fs, run.workers().size(),
                        run.duration())).sum()));
        return specs;
    }

    /** When the fault starts: {@code at} a time or {@code grant}, or {@code every} gap; null after a problem. */
    private FaultStart start(Fields f, YamlNode node, String path, FaultKind kind, String target, Duration runLength) {
        if (f.has("every") && atGrant(f)) {
            read.problem(f.node("every"), f.path("every"), "at: grant happens once, at the holder's next grant; "
                    + "it takes no every (for pauses again and again write at: 10s or every alone)");
        } else if (atGrant(f)) {
            return onGrant(f, kind, target);
        } else if (f.has("at") == f.has("every")) {
            read.problem(f.has("every") ? f.node("every") : node, f.has("every") ? f.path("every") : path,
                    f.has("at") ? "give either at (once) or every (again and again), not both"
                            : "needs either at (once, at: 10s) or every (again and again, every: {exponential: 2s})");
        } else if (f.has("at") && f.node("at") instanceof YamlNode.Scalar s && s.kind() == YamlNode.ScalarKind.STRING
                && !s.text().isBlank() && Character.isLetter(s.text().strip().charAt(0))) {
            read.problem(f.node("at"), f.path("at"), "expected a run time (at: 10s) or the word grant (at: grant, a "
                    + "PAUSE at its holder's next grant), got " + s.describe());
        } else if (f.has("at")) {
            Duration at = f.duration("at", null, NOT_NEGATIVE);
            if (at != null && runLength != null && at.compareTo(runLength) >= 0) {
                read.problem(f.node("at"), f.path("at"), Durations.format(at)
                        + " is not before the end of the run (duration " + Durations.format(runLength) + ")");
            } else if (at != null) {
                return new FaultStart.At(at);
            }
        } else {
            Distribution gap = distributions.read(f.node("every"), f.path("every"), DistributionReader.Use.GAP);
            if (gap != null && gap.mean().compareTo(FaultPlan.SMALLEST_GAP) < 0) {
                read.problem(f.node("every"), f.path("every"), "the gaps average " + Durations.format(gap.mean())
                        + ", below the smallest a repeating fault may have, " + Durations.format(FaultPlan.SMALLEST_GAP)
                        + " on average (for one occurrence write at: instead)");
                gap = null;
            }
            return gap == null ? null : new FaultStart.Every(gap);
        }
        return null;
    }

    /** Whether {@code at} names the grant rather than a time. */
    private static boolean atGrant(Fields f) {
        return f.has("at") && f.node("at") instanceof YamlNode.Scalar s && s.kind() == YamlNode.ScalarKind.STRING
                && s.text().strip().equals(AT_GRANT);
    }

    /** The word {@code at} takes instead of a time: a PAUSE at its holder's next grant. */
    static final String AT_GRANT = "grant";

    /** {@code at: grant}, for a PAUSE of named holders only; null (with a problem) otherwise. */
    private FaultStart onGrant(Fields f, FaultKind kind, String target) {
        if (kind != null && kind != FaultKind.PAUSE) {
            read.problem(f.node("at"), f.path("at"), "at: grant is for a PAUSE only (the holder freezes at its next "
                    + "grant); a " + kind + " takes a time, such as at: 10s");
            return null;
        }
        if (FaultSpec.ALL.equals(target)) {
            read.problem(f.node("target"), f.path("target"), "a PAUSE at: grant pauses a named worker or group at its "
                    + "own next grant; name one instead of 'all'");
            return null;
        }
        return new FaultStart.OnGrant();
    }

    /** When and as whom a crashed holder restarts; {@code after} zero: it never does. */
    private record Restart(Distribution after, FaultSpec.Identity identity) {}

    /** A CRASH's {@code restart}: absent, it never restarts; null if the file is wrong. */
    private Restart restart(Fields f) {
        if (!f.has("restart")) {
            return new Restart(new Distribution.Fixed(Duration.ZERO), FaultSpec.Identity.SAME);
        }
        Fields r = read.fields(f.node("restart"), f.path("restart"), RESTART);
        if (r == null) {
            return null;
        }
        YamlNode afterNode = r.required("after", "after: 10s");
        // A restart delay, like a gap, must be more than zero: zero means the process never comes back.
        Distribution after = afterNode == null ? null
                : distributions.read(afterNode, r.path("after"), DistributionReader.Use.GAP);
        FaultSpec.Identity identity = r.has("identity")
                ? read.choice(r.node("identity"), r.path("identity"), FaultSpec.Identity.class, true)
                : Defaults.FAULT_RESTART_IDENTITY.value();
        return after == null || identity == null ? null : new Restart(after, identity);
    }

    private Duration checkAmount(Fields f, FaultKind kind, Duration amount) {
        String path = f.path("amount");
        YamlNode at = f.has("amount") ? f.node("amount") : f.mapping();
        String takers = Texts.and(Defaults.TAKE_AMOUNT.stream().map(Enum::name).toList());
        if (!Defaults.TAKE_AMOUNT.contains(kind)) {
            if (!amount.isZero()) {
                read.problem(at, path, kind + " takes no amount; only " + takers + " do");
                return null;
            }
        } else if (amount.isZero()) {
            read.problem(at, path, kind + " needs an amount ("
                    + (kind == FaultKind.CLOCK_SKEW ? "the skew, such as 5s or -5s" : "the delay added, such as 2s")
                    + ")");
            return null;
        } else if (amount.isNegative() && kind != FaultKind.CLOCK_SKEW) {
            read.problem(at, path, Durations.format(amount) + " must not be negative (only CLOCK_SKEW takes a "
                    + "negative amount: a clock running behind)");
            return null;
        }
        return amount;
    }

    /** The worker names a fault's target stands for, or the engine's {@code all} / {@code database}. */
    private List<String> targets(Fields f, FaultKind kind, String target, Workers workers) {
        YamlNode at = f.node("target");
        String path = f.path("target");
        if (FaultSpec.DATABASE.equals(target)) {
            if (kind != null && kind != FaultKind.DATABASE_RESTART) {
                read.problem(at, path, "'database' is only a target for DATABASE_RESTART; " + kind
                        + " applies to workers (a worker, a group or all)");
                return null;
            }
            return List.of(FaultSpec.DATABASE);
        }
        if (kind == FaultKind.DATABASE_RESTART) {
            read.problem(at, path, "a DATABASE_RESTART restarts the database, so its target is 'database', not '"
                    + Texts.abbreviate(target) + "'");
            return null;
        }
        if (FaultSpec.SERVICE.equals(target) || (kind != null && kind.onService())) {
            if (kind == null || !kind.onService() || !FaultSpec.SERVICE.equals(target)) {
                read.problem(at, path, "'service' is the target of SERVICE_PAUSE, SERVICE_RESTART and "
                        + "SERVICE_LEADER_STOP only, and they have no other (the run's lease service, lease.service)");
                return null;
            }
            return List.of(FaultSpec.SERVICE);
        }
        if (FaultSpec.ALL.equals(target)) {
            return List.of(FaultSpec.ALL);
        }
        if (!workers.namesKnown()) {
            return null;
        }
        List<String> members = workers.targets().get(target);
        if (members == null) {
            List<String> named = new ArrayList<>(workers.drafts().stream().map(WorkerDraft::name).toList());
            String hint = Texts.suggestion(target, named);
            named.addAll(List.of(FaultSpec.ALL, FaultSpec.DATABASE));
            String allowed = named.size() > 22 ? String.join(", ", named.subList(0, 20)) + ", …, all, database"
                    : String.join(", ", named);
            read.problem(at, path, "'" + Texts.abbreviate(target) + "' names no worker"
                    + (hint == null ? "" : "; did you mean " + hint + "?") + " (allowed: " + allowed + ")");
            return null;
        }
        return members;
    }
}

package io.fencelab.scenarios;

import io.fencelab.engine.agent.AgentNames;
import io.fencelab.engine.run.ExecutorKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scenario file's {@code hosts}: which agent host runs which workers of a process run
 * ({@code docs/SCENARIOS.md}, Hosts). A host takes workers by name ({@code b: [C]}, a group's name
 * standing for its members) or by number ({@code a: 2}: the next two workers in file order, after
 * groups are expanded, that no host took by name). Workers no host takes run on the run's own machine.
 */
final class HostsCompiler {

    /** The engine's one rule ({@link AgentNames}): it reaches the database, the log and the command line. */
    private static final String HOST_RULE = AgentNames.HOST_RULE;

    private final Problems problems;
    private final ValueReader read;

    HostsCompiler(Problems problems, ValueReader read) {
        this.problems = problems;
        this.read = read;
    }

    /** One host's entry, read: its workers by name, or how many it takes in file order. */
    private record Entry(YamlNode.Field field, String host, List<String> names, Long count) {}

    /**
     * Each placed worker's host, in file order of the workers; empty without {@code hosts} or when
     * something was wrong (reported).
     */
    Map<String, String> hosts(Fields top, ExecutorKind executor, ScenarioCompiler.Workers workers) {
        YamlNode node = top.node("hosts");
        if (node == null) {
            return Map.of();
        }
        if (!(node instanceof YamlNode.Mapping mapping)) {
            read.problem(node, "hosts", "expected a mapping of host name to a number of workers or a list of worker "
                    + "names (hosts: {a: 2, b: [C]}), got " + node.describe());
            return Map.of();
        }
        if (executor != null && executor != ExecutorKind.PROCESS) {
            read.problem(node, "hosts", "only a process run places workers on hosts; add executor: process (this "
                    + "run is " + executor.name().toLowerCase(Locale.ROOT) + ")");
            return Map.of();
        }
        List<Entry> entries = new ArrayList<>();
        for (YamlNode.Field f : mapping.fields().values()) {
            Entry e = entry(f);
            if (e != null) {
                entries.add(e);
            }
        }
        if (!workers.namesKnown() || entries.size() < mapping.fields().size()) {
            return Map.of();
        }
        return place(entries, workers);
    }

    private Entry entry(YamlNode.Field f) {
        String path = "hosts." + Texts.abbreviate(f.key());
        if (AgentNames.hostProblem(f.key()).isPresent()) {
            problems.add(f.keyMark(), path, "'" + Texts.abbreviate(f.key()) + "' is not a host name: " + HOST_RULE);
            return null;
        }
        YamlNode value = f.value();
        if (value instanceof YamlNode.Sequence seq) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < seq.items().size(); i++) {
                names.add(read.name(seq.items().get(i), path + "[" + i + "]"));
            }
            if (names.isEmpty()) {
                read.problem(value, path, "names no worker; give a list of worker names or a number of workers");
                return null;
            }
            return names.contains(null) ? null : new Entry(f, f.key(), names, null);
        }
        if (value instanceof YamlNode.Scalar s && s.kind() == YamlNode.ScalarKind.INTEGER) {
            Long count = read.integer(value, path, 1, Defaults.MAX_WORKERS, false);
            return count == null ? null : new Entry(f, f.key(), null, count);
        }
        read.problem(value, path, "expected a number of workers (a: 2) or a list of worker names (a: [A, B]), got "
                + value.describe());
        return null;
    }

    /** Names first, wherever they are written; then the counts take the workers left, in file order. */
    private Map<String, String> place(List<Entry> entries, ScenarioCompiler.Workers workers) {
        List<String> inOrder = new ArrayList<>();
        workers.drafts().forEach(d -> inOrder.addAll(d.members()));
        Map<String, String> hostOf = new LinkedHashMap<>();
        Map<String, String> placedBy = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.names() == null) {
                continue;
            }
            YamlNode.Sequence seq = (YamlNode.Sequence) e.field().value();
            for (int i = 0; i < e.names().size(); i++) {
                String name = e.names().get(i);
                String path = "hosts." + Texts.abbreviate(e.host()) + "[" + i + "]";
                List<String> members = workers.targets().get(name);
                if (members == null) {
                    String hint = Texts.suggestion(name, List.copyOf(workers.targets().keySet()));
                    read.problem(seq.items().get(i), path, "'" + Texts.abbreviate(name) + "' is not a worker or group"
                            + (hint == null ? "" : "; did you mean " + hint + "?") + " (workers: "
                            + Texts.abbreviate(String.join(", ", inOrder), 200) + ")");
                    continue;
                }
                for (String m : members) {
                    String earlier = placedBy.putIfAbsent(m, path);
                    if (earlier != null) {
                        read.problem(seq.items().get(i), path, m + " is placed twice: already by " + earlier
                                + "; a worker runs on one host");
                        break;
                    }
                    hostOf.put(m, e.host());
                }
            }
        }
        List<String> left = new ArrayList<>(inOrder.stream().filter(w -> !hostOf.containsKey(w)).toList());
        int next = 0;
        for (Entry e : entries) {
            if (e.count() == null) {
                continue;
            }
            long wanted = e.count();
            if (wanted > left.size() - next) {
                read.problem(e.field().value(), "hosts." + Texts.abbreviate(e.host()), wanted + " workers counted, but "
                        + (left.size() - next) + " are left to place (the run has " + inOrder.size() + " workers; "
                        + (inOrder.size() - left.size() + next) + " placed before this host)");
                return Map.of();
            }
            for (long i = 0; i < wanted; i++) {
                hostOf.put(left.get(next++), e.host());
            }
        }
        // The spec's map in the workers' file order, so a written file lists them as the run does.
        Map<String, String> ordered = new LinkedHashMap<>();
        inOrder.stream().filter(hostOf::containsKey).forEach(w -> ordered.put(w, hostOf.get(w)));
        return problems.isEmpty() ? ordered : Map.of();
    }
}

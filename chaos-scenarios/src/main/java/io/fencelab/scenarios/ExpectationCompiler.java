package io.fencelab.scenarios;


import static io.fencelab.scenarios.ScenarioCompiler.EXPECT;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.event.Event;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A scenario file's {@code expect}: the verdict, the end, bounds on the totals, event minimums and invariants. */
final class ExpectationCompiler {

    private final Problems problems;
    private final ValueReader read;

    ExpectationCompiler(Problems problems, ValueReader read) {
        this.problems = problems;
        this.read = read;
    }


    Expectation expectation(Fields top) {
        YamlNode node = top.required("expect", "expect: {verdict: SAFE}");
        Fields e = node == null ? null : read.fields(node, "expect", EXPECT);
        if (e == null) {
            return null;
        }
        YamlNode verdictNode = e.required("verdict", "verdict: SAFE");
        Verdict.Kind verdict = verdictNode == null ? null
                : read.choice(verdictNode, e.path("verdict"), Verdict.Kind.class, false);
        String endReason = e.name("endReason", Defaults.EXPECT_END_REASON.value());
        Map<Expectation.Total, Long> min = bounds(e, "min");
        Map<Expectation.Total, Long> max = bounds(e, "max");
        if (min != null && max != null) {
            for (Expectation.Total t : Expectation.Total.values()) {
                if (min.containsKey(t) && max.containsKey(t) && min.get(t) > max.get(t)) {
                    YamlNode.Mapping maxes = (YamlNode.Mapping) e.node("max");
                    read.problem(maxes.fields().get(t.key()).value(), "expect.max." + t.key(), "at most "
                            + max.get(t) + " is below the minimum " + min.get(t));
                }
            }
        }
        Map<String, Long> events = eventMinimums(e);
        List<Invariant> invariants = new ArrayList<>();
        List<YamlNode> items = e.list("invariants", "invariant names");
        for (int i = 0; items != null && i < items.size(); i++) {
            invariants.add(read.choice(items.get(i), "expect.invariants[" + i + "]", Invariant.class, false));
        }
        if (verdict == Verdict.Kind.SAFE && !invariants.isEmpty()) {
            read.problem(e.node("invariants"), "expect.invariants", "a SAFE run has no witnesses; expect VIOLATED "
                    + "or remove the invariants");
        }
        if (verdict == null || (e.has("endReason") && endReason == null) || min == null || max == null
                || events == null || items == null || invariants.contains(null)) {
            return null;
        }
        return new Expectation(verdict, endReason, min, max, events, invariants);
    }

    private Map<Expectation.Total, Long> bounds(Fields expect, String key) {
        Map<Expectation.Total, Long> bounds = new EnumMap<>(Expectation.Total.class);
        YamlNode node = expect.node(key);
        if (node == null) {
            return bounds;
        }
        Fields f = read.fields(node, expect.path(key), Expectation.Total.keys());
        if (f == null) {
            return null;
        }
        boolean ok = true;
        for (YamlNode.Field field : f.mapping().fields().values()) {
            Expectation.Total t = Expectation.Total.byKey(field.key());
            if (t == null) {
                ok = false;
                continue;
            }
            Long n = read.integer(field.value(), f.path(field.key()), 0, Long.MAX_VALUE, false);
            if (n == null) {
                ok = false;
            } else {
                bounds.put(t, n);
            }
        }
        return ok ? bounds : null;
    }

    private Map<String, Long> eventMinimums(Fields expect) {
        Map<String, Long> minimums = new LinkedHashMap<>();
        YamlNode node = expect.node("events");
        if (node == null) {
            return minimums;
        }
        List<String> types = Arrays.stream(Event.class.getPermittedSubclasses()).map(Class::getSimpleName).toList();
        if (!(node instanceof YamlNode.Mapping mapping)) {
            read.problem(node, "expect.events", "expected a mapping of event type to minimum count "
                    + "(LeaseExhausted: 1), got " + node.describe());
            return null;
        }
        boolean ok = true;
        for (YamlNode.Field field : mapping.fields().values()) {
            String path = "expect.events." + Texts.abbreviate(field.key());
            if (!types.contains(field.key())) {
                String hint = Texts.suggestion(field.key(), types);
                problems.add(field.keyMark(), path, "'" + Texts.abbreviate(field.key()) + "' is not an event type"
                        + (hint == null ? "" : "; did you mean " + hint + "?")
                        + " (allowed: " + String.join(", ", types) + ")");
                ok = false;
                continue;
            }
            Long n = read.integer(field.value(), path, 0, Long.MAX_VALUE, false);
            if (n == null) {
                ok = false;
            } else {
                minimums.put(field.key(), n);
            }
        }
        return ok ? minimums : null;
    }
}

package io.fencelab.scenarios;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.lease.LeaseProfileRegistry;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.AxisKind;
import io.fencelab.engine.tune.AxisValue;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSpec;
import io.fencelab.engine.tune.Spacing;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A scenario file whose numeric parameters a sweep sets by path ({@code lease.ttl},
 * {@code workers[1].count}, {@code faults[0].duration}) before compiling it, so every point is
 * checked by the same compiler as the file itself. Which paths can vary comes from the format's one
 * table ({@link Defaults}: every key holding a duration, a distribution or a number, except
 * {@code seed}, which a sweep sets itself), with {@code []} replaced by the file's own list entries,
 * plus the numbers inside a distribution the file writes ({@code faults[0].every.exponential},
 * {@code faults[0].duration.pareto.scale}).
 *
 * <p>A value is set in the parsed file (a key the file leaves out is added), and the changed tree is
 * compiled as the file would be; problems are then reported by field, without a position.
 */
public final class ScenarioVariation {

    /** Steps a range gets when {@code :STEPS} is not given: the syntax's own ({@link AxisRange}). */
    public static final int DEFAULT_STEPS = AxisRange.DEFAULT_STEPS;
    /** More steps than this on one axis is surely a typo. */
    public static final int MAX_STEPS = AxisRange.MAX_STEPS;

    private final ScenarioSource source;
    private final YamlNode root;
    private final Scenario base;
    private final Map<String, AxisKind> variable;

    private ScenarioVariation(ScenarioSource source, YamlNode root, Scenario base) {
        this.source = source;
        this.root = root;
        this.base = base;
        this.variable = variablePaths(root, base.spec().lease().getClass());
    }

    /**
     * The file, checked as written.
     *
     * @throws ScenarioException if the file itself is not a valid scenario
     */
    public static ScenarioVariation of(ScenarioSource source) {
        Scenario base = source.compile();
        return new ScenarioVariation(source, YamlTree.parse(source.text(), new Problems(source.file())), base);
    }

    public ScenarioSource source() {
        return source;
    }

    /** The scenario as written. */
    public Scenario base() {
        return base;
    }

    /** Every path a sweep can vary in this file, with what it counts, in the format's order. */
    public Map<String, AxisKind> variablePaths() {
        return variable;
    }

    // ---- the paths that can vary ------------------------------------------------------------------

    private static Map<String, AxisKind> variablePaths(YamlNode root, Class<? extends LeaseProfile> profile) {
        Map<String, AxisKind> out = new LinkedHashMap<>();
        List<String> settings = LeaseProfileRegistry.of(profile).settingNames();
        for (Defaults.Key<?> key : Defaults.all()) {
            AxisKind kind = kindOf(key);
            // Under lease: only the file's own profile's settings: the compiler refuses another's, so every point would be skipped.
            boolean otherProfile = key.parent().equals(Defaults.LEASE.path()) && !settings.contains(key.name());
            if (kind != null && !otherProfile) {
                expand(root, List.of(key.path().split("\\.")), "", kind, out);
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** What a key of the format counts, or null if it is not a number a sweep can vary. */
    static AxisKind kindOf(Defaults.Key<?> key) {
        if (key.path().equals(Defaults.SEED.path())) {
            return null;
        }
        Object v = key.value();
        String allowed = key.allowed();
        if (v instanceof Duration || v instanceof Distribution || v == null
                && (allowed.startsWith("a duration") || allowed.startsWith("a distribution"))) {
            return AxisKind.DURATION;
        }
        if (v instanceof Long || v == null && allowed.startsWith("a whole number")) {
            return AxisKind.INTEGER;
        }
        if (v instanceof Double || v == null && allowed.startsWith("a number")) {
            return AxisKind.NUMBER;
        }
        return null;
    }

    private static void expand(YamlNode node, List<String> segments, String prefix, AxisKind kind,
                               Map<String, AxisKind> out) {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            return;
        }
        String segment = segments.get(0);
        boolean list = segment.endsWith("[]");
        String name = list ? segment.substring(0, segment.length() - 2) : segment;
        YamlNode.Field field = mapping.fields().get(name);
        String here = prefix.isEmpty() ? name : prefix + "." + name;
        if (list) {
            if (field != null && field.value() instanceof YamlNode.Sequence seq) {
                for (int i = 0; i < seq.items().size(); i++) {
                    expand(seq.items().get(i), segments.subList(1, segments.size()), here + "[" + i + "]", kind, out);
                }
            }
        } else if (segments.size() == 1) {
            out.put(here, kind);
            if (kind == AxisKind.DURATION && field != null) {
                distributionLeaves(field.value(), here, out);
            }
        } else if (field != null) {
            expand(field.value(), segments.subList(1, segments.size()), here, kind, out);
        }
    }

    /** The numbers inside a distribution as written: {@code .exponential}, {@code .uniform[0]}, {@code .pareto.shape}. */
    private static void distributionLeaves(YamlNode node, String path, Map<String, AxisKind> out) {
        switch (node) {
            case YamlNode.Mapping m -> m.fields().forEach((key, f) -> {
                String p = path + "." + key;
                if (f.value() instanceof YamlNode.Scalar) {
                    out.put(p, key.equals("shape") ? AxisKind.NUMBER : AxisKind.DURATION);
                } else {
                    distributionLeaves(f.value(), p, out);
                }
            });
            case YamlNode.Sequence s -> {
                for (int i = 0; i < s.items().size(); i++) {
                    if (s.items().get(i) instanceof YamlNode.Scalar) {
                        out.put(path + "[" + i + "]", AxisKind.DURATION);
                    }
                }
            }
            case YamlNode.Scalar ignored -> {
            }
        }
    }

    /** The path of the profile's main lifetime ({@code lease.ttl}, {@code lease.leaseDuration}, …): what a sweep varies first. */
    public String mainLeasePath() {
        return Defaults.LEASE.path() + "." + LeaseProfile.mainSetting(base.spec().lease().getClass());
    }

    /**
     * The value {@code path} has in this scenario, in the file's syntax ({@code 15s}, {@code 3}): as
     * the file writes it, else the compiled lease's setting, else the format's default; empty when it
     * has none (a distribution written as a mapping, a key without a default).
     */
    public java.util.Optional<String> currentValue(String path) {
        if (!variable.containsKey(path)) {
            return java.util.Optional.empty();
        }
        YamlNode node = root;
        for (Object step : steps(path)) {
            node = child(node, step);
            if (node == null) {
                break;
            }
        }
        if (node instanceof YamlNode.Scalar scalar) {
            return java.util.Optional.of(scalar.text());
        }
        if (node != null) {
            return java.util.Optional.empty();
        }
        String name = path.substring(path.lastIndexOf('.') + 1);
        if (path.equals(Defaults.LEASE.path() + "." + name)
                && base.spec().lease().values().get(name) instanceof Duration d) {
            return java.util.Optional.of(Durations.format(d));
        }
        return Defaults.at(path.replaceAll("\\[\\d+]", "[]")).filter(Defaults.Key::literal)
                .map(Defaults.Key::written);
    }

    /** The node at one step of a path (a key, or a list position) below {@code node}; null where the file has none. */
    private static YamlNode child(YamlNode node, Object step) {
        if (step instanceof Integer i && node instanceof YamlNode.Sequence seq) {
            return i < seq.items().size() ? seq.items().get(i) : null;
        }
        if (step instanceof String key && node instanceof YamlNode.Mapping m && m.fields().containsKey(key)) {
            return m.fields().get(key).value();
        }
        return null;
    }

    // ---- --vary -----------------------------------------------------------------------------------

    /**
     * Reads one {@code --vary} argument ({@link AxisRange#parse}): {@code PATH=FROM..TO[:STEPS][log]}
     * ({@value #DEFAULT_STEPS} steps unless given; {@code log} spaces them by a constant factor) or
     * {@code PATH=V1,V2,…}, with the values in the path's own kind. Durations are rounded to four
     * significant digits, whole numbers to whole numbers; repeated values are dropped.
     *
     * @throws IllegalArgumentException with one line saying what is wrong; an unknown path lists the
     *                                  paths that can vary
     */
    public Axis axis(String vary) {
        AxisRange range = AxisRange.parse(vary);
        String path = range.path();
        AxisKind kind = variable.get(path);
        if (kind == null) {
            throw range.error(path + " is not a parameter of " + source.file() + " that can vary; these can: "
                    + String.join(", ", variable.keySet()));
        }
        List<Double> values = new ArrayList<>();
        switch (range.values()) {
            case AxisRange.Span span -> {
                double from = number(span.from(), kind, range);
                double to = number(span.to(), kind, range);
                int steps = span.stepsBetween(from, to);
                if (span.log() && !(from > 0 && to > 0)) {
                    throw range.error("a log range needs both ends above 0");
                }
                for (double v : span.log() ? Spacing.log(from, to, steps) : Spacing.linear(from, to, steps)) {
                    values.add(v);
                }
            }
            case AxisRange.Listed list -> {
                for (String item : list.items()) {
                    values.add(number(item, kind, range));
                }
            }
        }
        Map<String, AxisValue> distinct = new LinkedHashMap<>();
        for (double v : values) {
            AxisValue value = value(v, kind);
            distinct.putIfAbsent(value.text(), value);
        }
        return new Axis(path, kind, List.copyOf(distinct.values()));
    }

    /** A range end or list value in the path's own syntax, as a number (seconds for durations). */
    private static double number(String text, AxisKind kind, AxisRange range) {
        String t = text.strip();
        switch (kind) {
            case DURATION -> {
                return switch (Durations.parse(t)) {
                    case Durations.Parsed.Ok ok -> ok.value().toNanos() / 1e9;
                    case Durations.Parsed.Bad bad -> throw range.error(bad.message());
                };
            }
            case INTEGER -> {
                try {
                    return Long.parseLong(t);
                } catch (NumberFormatException e) {
                    throw range.error("'" + t + "' is not a whole number");
                }
            }
            default -> {
                try {
                    double d = Double.parseDouble(t);
                    if (!Double.isFinite(d)) {
                        throw new NumberFormatException();
                    }
                    return d;
                } catch (NumberFormatException e) {
                    throw range.error("'" + t + "' is not a number");
                }
            }
        }
    }

    private static AxisValue value(double v, AxisKind kind) {
        return switch (kind) {
            case DURATION -> {
                double rounded = new BigDecimal(v).round(new MathContext(4)).doubleValue();
                long micros = Math.round(rounded * 1e6);
                yield new AxisValue(micros / 1e6, Durations.format(Duration.ofNanos(micros * 1_000)));
            }
            case INTEGER -> {
                long n = Math.round(v);
                yield new AxisValue(n, Long.toString(n));
            }
            case NUMBER -> {
                BigDecimal d = new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros();
                yield new AxisValue(d.doubleValue(), d.toPlainString());
            }
        };
    }

    // ---- points -----------------------------------------------------------------------------------

    /**
     * What {@code point} of a sweep over {@code axes} runs: the scenario with the point's values, or
     * why that setting is not a valid scenario.
     */
    public PointSpec spec(List<Axis> axes, Point point) {
        Scenario scenario;
        try {
            scenario = scenario(point.assignments(axes));
        } catch (ScenarioException e) {
            return new PointSpec.Skipped(e.problems().stream()
                    .map(p -> (p.path() == null ? "" : p.path() + ": ") + p.message())
                    .collect(Collectors.joining("; ")));
        }
        // The compiler's own rules (renewEvery below ttl, each profile's constraints) decide validity.
        return new PointSpec.Ready(scenario.spec());
    }

    /**
     * The scenario with each path set to its value (file syntax: {@code 15s}, {@code 3}).
     *
     * @throws ScenarioException if the result is not a valid scenario, or a path cannot vary
     */
    public Scenario scenario(Map<String, String> assignments) {
        YamlNode tree = root;
        for (Map.Entry<String, String> a : assignments.entrySet()) {
            AxisKind kind = variable.get(a.getKey());
            if (kind == null) {
                throw new ScenarioException(Problem.ofFile(source.file(), a.getKey() + " is not a parameter that "
                        + "can vary (these can: " + String.join(", ", variable.keySet()) + ")"));
            }
            YamlNode.ScalarKind scalar = switch (kind) {
                case DURATION -> YamlNode.ScalarKind.STRING;
                case INTEGER -> YamlNode.ScalarKind.INTEGER;
                case NUMBER -> YamlNode.ScalarKind.FLOAT;
            };
            tree = set(tree, steps(a.getKey()), 0, new YamlNode.Scalar(YamlNode.Mark.START, scalar, a.getValue()));
        }
        Scenario varied = ScenarioCompiler.compile(source.file(), source.name(), FlowYaml.write(tree),
                source.dataFiles());
        if (base.fences().isEmpty()) {
            return varied;
        }
        // No path under targets varies: the file's own fences, located in the file rather than in the text written here.
        return new Scenario(varied.name(), varied.notes(),
                varied.spec().toBuilder().userFences(base.spec().userFences()).build(), varied.expectation());
    }

    /** {@code faults[0].duration} → {@code faults}, {@code 0}, {@code duration}: names, and list positions as Integers. */
    private static List<Object> steps(String path) {
        List<Object> out = new ArrayList<>();
        for (String part : path.split("\\.")) {
            Matcher m = Pattern.compile("([^\\[]+)((?:\\[\\d+])*)").matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a path: " + path);
            }
            out.add(m.group(1));
            Matcher idx = Pattern.compile("\\[(\\d+)]").matcher(m.group(2));
            while (idx.find()) {
                out.add(Integer.parseInt(idx.group(1)));
            }
        }
        return out;
    }

    private static YamlNode set(YamlNode node, List<Object> steps, int at, YamlNode.Scalar value) {
        if (at == steps.size()) {
            return value;
        }
        Object step = steps.get(at);
        if (step instanceof Integer i && node instanceof YamlNode.Sequence seq && i < seq.items().size()) {
            List<YamlNode> items = new ArrayList<>(seq.items());
            items.set(i, set(items.get(i), steps, at + 1, value));
            return new YamlNode.Sequence(seq.mark(), items);
        }
        if (step instanceof String key) {
            Map<String, YamlNode.Field> fields = new LinkedHashMap<>();
            if (node instanceof YamlNode.Mapping m) {
                fields.putAll(m.fields());
            } else if (at + 1 < steps.size() || !(node instanceof YamlNode.Scalar)) {
                // a distribution written as a plain duration has no inner numbers to set
                throw new IllegalStateException("the path does not fit the file at " + key);
            }
            YamlNode.Field old = fields.get(key);
            YamlNode child = old != null ? old.value() : new YamlNode.Mapping(YamlNode.Mark.START, Map.of());
            fields.put(key, new YamlNode.Field(key, old != null ? old.keyMark() : YamlNode.Mark.START,
                    set(child, steps, at + 1, value)));
            return new YamlNode.Mapping(node.mark(), fields);
        }
        throw new IllegalStateException("the path does not fit the file");
    }

    /** Writes a tree as flow YAML (JSON with YAML's plain scalars), which the loader reads back to the same tree. */
    static final class FlowYaml {
        private FlowYaml() {
        }

        static String write(YamlNode node) {
            StringBuilder out = new StringBuilder();
            write(node, out);
            return out.append('\n').toString();
        }

        private static void write(YamlNode node, StringBuilder out) {
            switch (node) {
                case YamlNode.Mapping m -> {
                    out.append('{');
                    boolean first = true;
                    for (YamlNode.Field f : m.fields().values()) {
                        if (!first) {
                            out.append(", ");
                        }
                        first = false;
                        quote(f.key(), out);
                        out.append(": ");
                        write(f.value(), out);
                    }
                    out.append('}');
                }
                case YamlNode.Sequence s -> {
                    out.append('[');
                    for (int i = 0; i < s.items().size(); i++) {
                        if (i > 0) {
                            out.append(", ");
                        }
                        write(s.items().get(i), out);
                    }
                    out.append(']');
                }
                case YamlNode.Scalar s -> {
                    switch (s.kind()) {
                        case STRING -> quote(s.text(), out);
                        case NULL -> out.append("null");
                        default -> out.append(s.text());
                    }
                }
            }
        }

        private static void quote(String text, StringBuilder out) {
            out.append('"');
            text.codePoints().forEach(c -> {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\t' -> out.append("\\t");
                    case '\r' -> out.append("\\r");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format(Locale.ROOT, "\\u%04x", c));
                        } else {
                            out.appendCodePoint(c);
                        }
                    }
                }
            });
            out.append('"');
        }
    }
}

package io.fencelab.scenarios;

import static io.fencelab.scenarios.ValueReader.DurationRule.NOT_NEGATIVE;
import static io.fencelab.scenarios.ValueReader.DurationRule.POSITIVE;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.pauses.PauseLogException;
import io.fencelab.engine.chaos.pauses.PauseSample;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Reads a distribution of durations (docs/SCENARIOS.md, Distributions): a plain duration (fixed), or
 * one of {@code {fixed: 1s}}, {@code {uniform: [1s, 3s]}}, {@code {exponential: 2s}},
 * {@code {pareto: {scale, shape, cap}}}, {@code {empirical: FILE}} (the pauses a real process logged)
 * and, for the gaps between faults, {@code {empiricalRate: FILE}} (exponential gaps at that file's own
 * pause rate). Problems are reported at the node, as everywhere in the compiler; a data file's own
 * problem keeps its line: {@code faults[0].duration.empirical: g1.log:12: …}.
 */
final class DistributionReader {

    static final List<String> KINDS = List.of("fixed", "uniform", "exponential", "pareto", "empirical",
            "empiricalRate");
    static final List<String> PARETO = List.of("scale", "shape", "cap");
    private static final String EXAMPLES = "{fixed: 1s}, {uniform: [1s, 3s]}, {exponential: 2s}, "
            + "{pareto: {scale: 200ms, shape: 1.2, cap: 5s}}, {empirical: gc.log}";

    /** What the durations drawn are. */
    enum Use {
        /** The time between fault occurrences, which must be able to be more than zero. */
        GAP,
        /** How long each occurrence lasts. */
        LENGTH
    }

    private final ValueReader read;
    private final DataFiles dataFiles;

    DistributionReader(ValueReader read, DataFiles dataFiles) {
        this.read = read;
        this.dataFiles = dataFiles;
    }

    Distribution read(YamlNode node, String path, Use use) {
        boolean gap = use == Use.GAP;
        ValueReader.DurationRule rule = gap ? POSITIVE : NOT_NEGATIVE;
        if (node instanceof YamlNode.Scalar) {
            Duration d = read.duration(node, path, rule);
            return d == null ? null : new Distribution.Fixed(d);
        }
        if (!(node instanceof YamlNode.Mapping)) {
            read.problem(node, path, "expected a duration or one of " + EXAMPLES
                    + (gap ? ", {empiricalRate: gc.log}" : "") + ", got " + node.describe());
            return null;
        }
        Fields f = read.fields(node, path, KINDS);
        List<String> given = KINDS.stream().filter(f::has).toList();
        if (given.size() != 1) {
            if (given.size() > 1 || f.mapping().fields().isEmpty()) {
                read.problem(node, path, given.isEmpty() ? "expected one of " + String.join(", ", KINDS)
                        : "give one distribution, not " + Texts.and(given));
            }
            return null;
        }
        String kind = given.getFirst();
        YamlNode value = f.node(kind);
        String at = f.path(kind);
        try {
            return switch (kind) {
                case "fixed" -> {
                    Duration d = read.duration(value, at, rule);
                    yield d == null ? null : new Distribution.Fixed(d);
                }
                case "exponential" -> {
                    Duration mean = read.duration(value, at, POSITIVE);
                    yield mean == null ? null : new Distribution.Exponential(mean);
                }
                case "uniform" -> uniform(value, at, gap);
                case "pareto" -> pareto(value, at);
                case "empirical" -> empirical(value, at, gap);
                default -> empiricalRate(value, at, gap);
            };
        } catch (IllegalArgumentException e) {
            read.problem(node, path, ScenarioCompiler.refusal(e));
            return null;
        }
    }

    private Distribution uniform(YamlNode node, String path, boolean gap) {
        List<YamlNode> bounds = read.list(node, path, "two durations, [min, max]");
        if (bounds == null) {
            return null;
        }
        if (bounds.size() != 2) {
            read.problem(node, path, "expected two durations, [min, max], got " + bounds.size());
            return null;
        }
        Duration min = read.duration(bounds.get(0), path + "[0]", NOT_NEGATIVE);
        Duration max = read.duration(bounds.get(1), path + "[1]", gap ? POSITIVE : NOT_NEGATIVE);
        if (min == null || max == null) {
            return null;
        }
        if (max.compareTo(min) < 0) {
            read.problem(bounds.get(1), path + "[1]", "the maximum " + Durations.format(max)
                    + " is below the minimum " + Durations.format(min));
            return null;
        }
        return new Distribution.Uniform(min, max);
    }

    private Distribution pareto(YamlNode node, String path) {
        Fields p = read.fields(node, path, PARETO);
        if (p == null) {
            return null;
        }
        Duration scale = p.requiredDuration("scale", "scale: 200ms", POSITIVE);
        YamlNode shapeNode = p.required("shape", "shape: 1.2");
        Double shape = shapeNode == null ? null : read.number(shapeNode, p.path("shape"));
        if (shape != null && !(shape > 0)) {
            read.problem(shapeNode, p.path("shape"), shape + " must be more than 0 (above 1 the mean is finite)");
            shape = null;
        }
        Duration cap = p.requiredDuration("cap", "cap: 5s", POSITIVE);
        if (scale != null && cap != null && cap.compareTo(scale) < 0) {
            read.problem(p.node("cap"), p.path("cap"), "the cap " + Durations.format(cap) + " is below the scale "
                    + Durations.format(scale));
            return null;
        }
        return scale == null || shape == null || cap == null ? null : new Distribution.Pareto(scale, shape, cap);
    }

    /** {@code {empirical: FILE}}: the file's pauses, drawn at random with replacement. */
    private Distribution empirical(YamlNode node, String path, boolean gap) {
        if (gap) {
            read.problem(node, path, "an empirical file gives pause durations, not the gaps between them; for "
                    + "the file's own pause rate write every: {empiricalRate: " + written(node) + "}");
            return null;
        }
        PauseSample sample = sample(node, path);
        return sample == null ? null : sample.distribution();
    }

    /** {@code {empiricalRate: FILE}}: exponential gaps whose mean is the file's mean time between pauses. */
    private Distribution empiricalRate(YamlNode node, String path, boolean gap) {
        if (!gap) {
            read.problem(node, path, "empiricalRate gives the gaps between pauses (for every); for the pauses' "
                    + "durations write duration: {empirical: " + written(node) + "}");
            return null;
        }
        PauseSample sample = sample(node, path);
        if (sample == null) {
            return null;
        }
        Optional<Duration> meanGap = sample.distribution().meanGap();
        if (meanGap.isEmpty()) {
            read.problem(node, path, sample.span() == null
                    ? sample.file() + " has no times (a " + sample.format().label() + "), so no pause rate; "
                            + "give a CSV file a time column, or write every: {exponential: …} yourself"
                    : sample.file() + "'s pauses fill its whole span (" + Durations.format(sample.span())
                            + "), so there is no gap between them to draw");
            return null;
        }
        return new Distribution.Exponential(meanGap.get());
    }

    private PauseSample sample(YamlNode node, String path) {
        String file = read.name(node, path);
        if (file == null) {
            return null;
        }
        try {
            return dataFiles.pauses(file);
        } catch (PauseLogException e) {
            read.problem(node, path, e.getMessage());
            return null;
        }
    }

    private static String written(YamlNode node) {
        return node instanceof YamlNode.Scalar s ? Texts.abbreviate(s.text().strip()) : "FILE";
    }
}

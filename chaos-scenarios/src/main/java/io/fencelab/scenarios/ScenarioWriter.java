package io.fencelab.scenarios;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@link RunSpec} as a scenario file that compiles back to the same spec (under the file's
 * name): every worker one by one ({@code count} 1), every value the format would otherwise default
 * written out, so the file does not depend on today's defaults. This is how a generated run (a soak's
 * disagreement) becomes something {@code fencelab run FILE} replays and a person can read and edit.
 * Distributions drawn from a data file ({@code empirical}) cannot be written without their file and
 * are refused.
 */
public final class ScenarioWriter {

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            // Several-line SQL (a target's schema, write, read) as a `|` block, line for line as the user wrote it.
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            // A long statement on one line stays on one line, as written, rather than folded at 80 columns.
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build());

    private ScenarioWriter() {
    }

    /**
     * The scenario file for {@code spec}, with {@code notes} and an expectation of {@code verdict}.
     *
     * @throws IllegalArgumentException if the spec holds a distribution read from a data file
     */
    public static String write(RunSpec spec, TeachingNotes notes, Verdict.Kind verdict) {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("title", notes.title());
        file.put("summary", notes.summary());
        file.put("story", notes.steps().stream().map(ScenarioWriter::step).toList());
        file.put("executor", spec.executor().name().toLowerCase(Locale.ROOT));
        file.put("seed", spec.seed());
        file.put("duration", Durations.format(spec.duration()));
        file.put("timeScale", spec.timeScale());
        Map<String, Object> lease = new LinkedHashMap<>();
        lease.put("profile", spec.lease().key());
        spec.lease().values().forEach((k, v) -> lease.put(k, v instanceof Duration d ? Durations.format(d) : v));
        if (spec.service().real()) {
            lease.put("service", spec.service().kind().key());
            lease.put("token", spec.service().token().key());
            if (spec.service().members() != 1) {
                lease.put("members", spec.service().members());
            }
        }
        file.put("lease", lease);
        file.put("fencing", spec.fencing().name());
        file.put("tokenScheme", spec.tokenScheme().name());
        file.put("firstWrite", spec.firstWrite().name());
        if (!spec.firstTokens().isEmpty()) {
            file.put("scopes", new TreeMap<>(spec.firstTokens()));
        }
        if (!spec.userFences().isEmpty()) {
            Map<String, Object> targets = new LinkedHashMap<>();
            spec.userFences().fences().forEach(f -> targets.put(f.name(), target(f)));
            file.put("targets", targets);
        }
        file.put("workers", spec.workers().stream().map(ScenarioWriter::worker).toList());
        if (!spec.hosts().isEmpty()) {
            file.put("hosts", hosts(spec));
        }
        if (!spec.faults().isEmpty()) {
            file.put("faults", spec.faults().stream().map(ScenarioWriter::fault).toList());
        }
        file.put("expect", Map.of("verdict", verdict.name()));
        try {
            return YAML.writeValueAsString(file);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the scenario: " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> worker(WorkerSpec w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", w.name());
        m.put("scope", w.scope());
        m.put("role", w.role().name().toLowerCase(Locale.ROOT));
        m.put("startAt", Durations.format(w.startAt()));
        m.put("workTime", Durations.format(w.workTime()));
        m.put("idleTime", Durations.format(w.idleTime()));
        m.put("jobs", w.jobs());
        m.put("onStale", w.onStale().name());
        m.put("checkDeadline", w.checkDeadline());
        m.put("sequenceWrites", w.sequenceWrites());
        m.put("pipelineWrites", w.pipelineWrites());
        List<Map<String, Object>> writes = new ArrayList<>();
        for (TargetWrite t : w.writes()) {
            Map<String, Object> write = new LinkedHashMap<>();
            boolean user = t.target() == TargetKind.SQL;
            write.put("target", user ? SqlKey.fence(t.key()) : t.target().name());
            write.put("key", user ? SqlKey.key(t.key()) : t.key());
            if (t.mode() != null) {
                write.put("fencing", t.mode().name());
            }
            writes.add(write);
        }
        m.put("writes", writes);
        return m;
    }

    /** Each host with its workers by name, hosts and workers in the workers' order (names, not counts: exact). */
    private static Map<String, List<String>> hosts(RunSpec spec) {
        Map<String, List<String>> byHost = new LinkedHashMap<>();
        for (WorkerSpec w : spec.workers()) {
            String host = spec.hosts().get(w.name());
            if (host != null) {
                byHost.computeIfAbsent(host, h -> new ArrayList<>()).add(w.name());
            }
        }
        return byHost;
    }

    /** A target of the file's own, every statement verbatim. */
    private static Map<String, Object> target(SqlFence f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", TargetKind.SQL.name());
        if (f.schema() != null) {
            m.put("schema", f.schema().sql());
        } else {
            m.put("copyFrom", f.copyFrom());
        }
        if (f.setup() != null) {
            m.put("setup", f.setup().sql());
        }
        List<String> write = f.write().stream().map(SqlText::sql).toList();
        m.put("write", write.size() == 1 ? write.getFirst() : write);
        m.put("accepted", f.outcome().accepted().toString());
        if (f.outcome().stale() != null) {
            m.put("stale", f.outcome().stale().toString());
        }
        if (f.outcome().missing() != null) {
            m.put("missing", f.outcome().missing().toString());
        }
        m.put("read", f.read().sql());
        m.put("equalToken", f.equalToken().name().toLowerCase(Locale.ROOT));
        m.put("firstWrite", f.firstWrite().name().toLowerCase(Locale.ROOT));
        return m;
    }

    private static Map<String, Object> fault(FaultSpec f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", f.kind().name());
        m.put("target", f.target());
        switch (f.start()) {
            case FaultStart.At at -> m.put("at", Durations.format(at.at()));
            case FaultStart.Every every -> m.put("every", distribution(every.gap()));
            case FaultStart.OnGrant onGrant -> m.put("at", FaultCompiler.AT_GRANT);
        }
        if (f.kind() == FaultKind.CRASH) {
            // A crash's duration is the time until it restarts; zero: it never does.
            if (!f.duration().equals(new Distribution.Fixed(Duration.ZERO))) {
                m.put("restart", Map.of("after", distribution(f.duration()),
                        "identity", f.identity().name().toLowerCase(Locale.ROOT)));
            }
        } else {
            m.put("duration", distribution(f.duration()));
        }
        if (!f.amount().isZero()) {
            m.put("amount", Durations.format(f.amount()));
        }
        return m;
    }

    private static Object distribution(Distribution d) {
        return switch (d) {
            case Distribution.Fixed fixed -> Durations.format(fixed.value());
            case Distribution.Uniform u -> Map.of("uniform",
                    List.of(Durations.format(u.min()), Durations.format(u.max())));
            case Distribution.Exponential e -> Map.of("exponential", Durations.format(e.mean()));
            case Distribution.Pareto p -> {
                Map<String, Object> pareto = new LinkedHashMap<>();
                pareto.put("scale", Durations.format(p.scale()));
                pareto.put("shape", p.shape());
                pareto.put("cap", Durations.format(p.cap()));
                yield Map.of("pareto", pareto);
            }
            case Distribution.Empirical e -> throw new IllegalArgumentException(
                    "an empirical distribution (" + e.source() + ") cannot be written without its data file");
        };
    }

    /** A step as its file writes it: plain text when it has no cue, question or notes. */
    private static Object step(StoryStep step) {
        if (step.cue() instanceof Cue.WithPrevious && !step.asks() && step.notes().isEmpty()) {
            return step.text();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", step.text());
        switch (step.cue()) {
            case Cue.At at -> m.put("at", Durations.format(at.at()));
            case Cue.On on -> {
                Map<String, Object> event = new LinkedHashMap<>();
                event.put("type", on.type());
                event.putAll(on.fields());
                m.put("on", event);
            }
            case Cue.WithPrevious w -> {
                // reached with the step before: nothing to write
            }
        }
        if (step.asks()) {
            Question q = step.question();
            m.put("ask", q.ask());
            m.put("choices", q.choices());
            m.put("answer", q.answer() + 1);
            m.put("why", q.why());
        }
        if (!step.notes().isEmpty()) {
            m.put("notes", step.notes());
        }
        return m;
    }
}

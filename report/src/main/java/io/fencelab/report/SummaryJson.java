package io.fencelab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.JudgementJson;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventJson;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * summary.json: the run's outcome for tools (CI gates, scripts), indented, fields in a fixed order.
 * The seed (and any token) is a decimal string, as in the event log, so no reader can round it;
 * counts are plain numbers; {@code tuning} holds the run's tuning figures ({@code docs/TUNING.md}).
 * Line ends are {@code \n} on every platform, so the bytes are the same.
 */
public final class SummaryJson {

    private SummaryJson() {
    }

    public static void write(Path file, ReportInput input) throws IOException {
        Files.writeString(file, render(input), StandardCharsets.UTF_8);
    }

    public static String render(ReportInput input) {
        try {
            return EventJson.documentWriter().writeValueAsString(tree(input)) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot write summary.json: " + e.getMessage(), e);
        }
    }

    static ObjectNode tree(ReportInput input) {
        RunResult result = input.result();
        RunSpec spec = result.spec();
        Event.RunStarted started = input.events().stream().filter(Event.RunStarted.class::isInstance)
                .map(Event.RunStarted.class::cast).findFirst().orElse(null);
        ObjectNode root = EventJson.mapper().createObjectNode();
        root.put("scenario", input.scenario());
        root.put("title", input.title());
        root.put("seed", Long.toString(started != null ? started.seed() : spec.seed()));
        root.put("executor", started != null ? started.executor() : spec.executor().name().toLowerCase(Locale.ROOT));
        root.put("fencing", started != null ? started.fencing() : spec.fencing().name());
        root.put("tokenScheme", started != null ? started.tokenScheme() : spec.tokenScheme().name());
        if (spec != null) {
            lease(root.putObject("lease"), spec.lease());
        }
        Judgement judgement = result.judgement();
        root.put("verdict", judgement.verdict().kind().name());
        root.put("expected", input.expected());
        root.put("expectationMet", input.expectationMet());
        ArrayNode mismatches = root.putArray("mismatches");
        input.mismatches().forEach(mismatches::add);
        root.put("endReason", result.endReason());
        JudgementJson.witnesses(root.putArray("witnesses"), judgement.verdict());
        ArrayNode changes = root.putArray("settingChanges");
        for (Event e : input.events()) {
            if (e instanceof Event.SettingChanged c) {
                ObjectNode node = changes.addObject();
                node.put("atMicros", c.atMicros());
                node.put("setting", c.setting());
                node.put("from", c.from());
                node.put("to", c.to());
            }
        }
        EventCounts totals = result.metrics().totals();
        ObjectNode t = root.putObject("totals");
        t.put("acquisitions", totals.acquisitions());
        t.put("renewals", totals.renewals());
        t.put("renewalFailures", totals.renewalFailures());
        t.put("staleRejections", totals.staleRejections());
        t.put("acceptedWrites", totals.acceptedWrites());
        // Of the accepted writes, those the checker found applied over newer work (judgement.json lists them).
        t.put("staleOverwrites", judgement.writes().all().stream().filter(WriteJudgement::isStaleOverwrite).count());
        tuning(root.putObject("tuning"), result.tuning().totals());
        root.put("events", input.events().size());
        root.put("database", result.database());
        return root;
    }

    /**
     * The lease client as a scenario's {@code lease:} mapping writes it: {@code profile}, then every
     * setting under its key, a duration in the file's syntax ({@code "15s"}), a flag or number as itself.
     */
    private static void lease(ObjectNode node, LeaseProfile lease) {
        node.put("profile", lease.key());
        lease.values().forEach((name, value) -> {
            switch (value) {
                case Duration d -> node.put(name, Distribution.text(d));
                case Boolean b -> node.put(name, b);
                case Integer i -> node.put(name, i);
                case Long l -> node.put(name, l);
                case Double d -> node.put(name, d);
                default -> node.put(name, String.valueOf(value));
            }
        });
    }

    /**
     * The tuning figures under their stable names ({@link TuningMetrics#NAMES}): counts as whole
     * numbers, the rest as decimals, a failover time null when no failover happened.
     */
    private static void tuning(ObjectNode node, TuningMetrics tuning) {
        tuning.values().forEach((name, value) -> {
            switch (name) {
                case "failovers" -> node.put(name, tuning.failovers());
                case "wastedJobs" -> node.put(name, tuning.wastedJobs());
                default -> {
                    if (value.isNaN()) {
                        node.putNull(name);
                    } else {
                        node.put(name, value.doubleValue());
                    }
                }
            }
        });
    }
}

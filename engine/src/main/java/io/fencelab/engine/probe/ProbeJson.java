package io.fencelab.engine.probe;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fencelab.engine.event.EventJson;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * probe.json: a probe's verdicts, fence by fence in checklist order, each failure with its witness.
 * Tokens are decimal strings (as the column held them: a {@code float8} column's rounding shows);
 * there are no credentials, and no row content but the bodies the probe itself wrote. Fields in a
 * fixed order and {@code \n} line ends, so the same report gives the same bytes everywhere.
 */
public final class ProbeJson {

    private ProbeJson() {
    }

    public static void write(Path file, ProbeReport report) throws IOException {
        Files.writeString(file, render(report), StandardCharsets.UTF_8);
    }

    public static String render(ProbeReport report) {
        try {
            return EventJson.documentWriter().writeValueAsString(tree(report)) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot write probe.json: " + e.getMessage(), e);
        }
    }

    static ObjectNode tree(ProbeReport report) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("source", report.source());
        root.put("database", report.database());
        root.put("allHold", report.allHold());
        ArrayNode fences = root.putArray("fences");
        report.fences().forEach(fences::add);
        ArrayNode verdicts = root.putArray("verdicts");
        for (ItemVerdict v : report.verdicts()) {
            ObjectNode node = verdicts.addObject();
            node.put("fence", v.fence());
            node.put("item", v.item().name());
            node.put("title", v.item().title());
            node.put("status", v.status().name());
            node.put("summary", v.summary());
            ArrayNode witness = node.putArray("witness");
            for (WitnessStep step : v.witness()) {
                step(witness.addObject(), step);
            }
        }
        return root;
    }

    private static void step(ObjectNode node, WitnessStep step) {
        node.put("action", step.action());
        putIf(node, "statement", step.statement());
        putIf(node, "said", step.said());
        putIf(node, "heldToken", step.heldToken());
        putIf(node, "heldBody", step.heldBody());
        putIf(node, "eventsFile", step.eventsFile());
    }

    private static void putIf(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}

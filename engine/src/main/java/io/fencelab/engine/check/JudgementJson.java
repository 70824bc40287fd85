package io.fencelab.engine.check;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fencelab.engine.event.EventJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * judgement.json: the checker's conclusions about a log, written beside it ({@code docs/EVENTS.md}).
 * Tokens are decimal strings, as in the log; seqs and counts are numbers. Fields in a fixed order and
 * {@code \n} line ends, so the same judgement gives the same bytes on every platform.
 */
public final class JudgementJson {

    private JudgementJson() {
    }

    public static void write(Path file, Judgement judgement) throws IOException {
        Files.writeString(file, render(judgement), StandardCharsets.UTF_8);
    }

    public static String render(Judgement judgement) {
        try {
            return EventJson.documentWriter().writeValueAsString(tree(judgement)) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot write judgement.json: " + e.getMessage(), e);
        }
    }

    /** The witnesses as summary.json also lists them. */
    public static void witnesses(ArrayNode into, Verdict verdict) {
        for (Witness w : verdict.witnesses()) {
            ObjectNode node = into.addObject();
            node.put("invariant", w.invariant().name());
            node.put("summary", w.summary());
            ArrayNode seqs = node.putArray("eventSeqs");
            w.eventSeqs().forEach(seqs::add);
        }
    }

    static ObjectNode tree(Judgement judgement) {
        ObjectNode root = EventJson.mapper().createObjectNode();
        root.put("verdict", judgement.verdict().kind().name());
        root.put("finalStateJudged", judgement.finalStateJudged());
        root.put("complete", judgement.incomplete().isEmpty());
        judgement.incomplete().ifPresent(cut -> {
            ObjectNode node = root.putObject("incomplete");
            node.put("lastSeq", cut.lastSeq());
            node.put("lastAtMicros", cut.lastAtMicros());
            node.put("summary", cut.describe());
        });
        witnesses(root.putArray("witnesses"), judgement.verdict());
        ObjectNode counts = root.putObject("writeCounts");
        for (WriteClass kind : WriteClass.values()) {
            counts.put(camel(kind), judgement.writes().all().stream().filter(w -> w.kind() == kind).count());
        }
        ArrayNode writes = root.putArray("writes");
        for (WriteJudgement w : judgement.writes().all()) {
            ObjectNode node = writes.addObject();
            node.put("seq", w.seq());
            node.put("class", w.kind().name());
            if (w.against() != null) {
                node.put("against", Long.toString(w.against()));
            }
            if (w.againstSeq() != 0) {
                node.put("againstSeq", w.againstSeq());
            }
        }
        ArrayNode kept = root.putArray("kept");
        judgement.kept().forEach((id, write) -> {
            ObjectNode node = kept.addObject();
            node.put("resource", id.toString());
            node.put("seq", write.seq());
            node.put("holder", write.holder());
            node.put("token", Long.toString(write.token()));
        });
        return root;
    }

    /** {@code STALE_OVERWRITE} as {@code staleOverwrite}. */
    static String camel(WriteClass kind) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : kind.name().toLowerCase(Locale.ROOT).toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }
}

package io.fencelab.engine.probe;

import java.util.List;

/**
 * What a probe found: every checklist item's verdict for every fence, in {@link ChecklistItem} order
 * fence by fence.
 *
 * @param source   the file the fences came from
 * @param database where the probe ran: {@code embedded PostgreSQL 17.6}, or the server's URL without
 *                 credentials
 * @param fences   the fences' names, in the file's order
 * @param verdicts one per fence and item
 */
public record ProbeReport(String source, String database, List<String> fences, List<ItemVerdict> verdicts) {

    public ProbeReport {
        fences = List.copyOf(fences);
        verdicts = List.copyOf(verdicts);
    }

    /** Whether no item fails (an item that does not apply does not count against the fence). */
    public boolean allHold() {
        return verdicts.stream().noneMatch(v -> v.status() == ItemVerdict.Status.FAILS);
    }

    /** The verdicts of one fence, in checklist order. */
    public List<ItemVerdict> of(String fence) {
        return verdicts.stream().filter(v -> v.fence().equals(fence)).toList();
    }
}

package io.fencelab.engine.probe;

import java.util.List;

/**
 * One checklist item tried against one fence: whether it holds, and for a failure the witness that
 * shows it.
 *
 * @param fence   the fence's name ({@code targets:} key)
 * @param status  holds, fails, or not applicable (with why in {@code summary})
 * @param summary one line for the user
 * @param witness the steps that show a failure, in order; empty when the item holds
 */
public record ItemVerdict(String fence, ChecklistItem item, Status status, String summary, List<WitnessStep> witness) {

    public enum Status { HOLDS, FAILS, NOT_APPLICABLE }

    public ItemVerdict {
        witness = List.copyOf(witness);
    }

    /**
     * One step of a witness: what was done ({@code write token 9 to key 17 as holder A}), the statement
     * sent (its {@code file:line}), what it said and what the row read back holds. Never the user's
     * data beyond Fencelab's own bodies and tokens.
     *
     * @param eventsFile for a step taken from a run, the run's {@code events.jsonl} (relative to the
     *                   probe's output directory), else null
     */
    public record WitnessStep(String action, String statement, String said, String heldToken, String heldBody,
                              String eventsFile) {}
}

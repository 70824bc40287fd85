package io.fencelab.report;

import io.fencelab.engine.resource.ResourceId;
import java.util.List;

/**
 * One fenced resource's lane: the highest token it has accepted as a step series (a step each time
 * it rises), and every write's outcome on it.
 */
public record ResourceLane(ResourceId resource, List<TokenStep> steps, List<Mark> marks) {

    public ResourceLane {
        steps = List.copyOf(steps);
        marks = List.copyOf(marks);
    }

    /** The individual write marks (without buckets). */
    public List<Mark.Write> writes() {
        return marks.stream().filter(Mark.Write.class::isInstance).map(Mark.Write.class::cast).toList();
    }
}

package io.fencelab.report;

import java.util.List;

/**
 * One holder's lane: what the lease service says it holds, what it believes, the gap between them,
 * its pauses and faults (spans, ordered by kind then start), and its writes' outcomes (marks, by time).
 */
public record HolderLane(String holder, List<Span> spans, List<Mark> marks) {

    public HolderLane {
        spans = List.copyOf(spans);
        marks = List.copyOf(marks);
    }

    public List<Span.Held> held() {
        return only(Span.Held.class);
    }

    public List<Span.Believed> believed() {
        return only(Span.Believed.class);
    }

    public List<Span.Gap> gaps() {
        return only(Span.Gap.class);
    }

    public List<Span.Pause> pauses() {
        return only(Span.Pause.class);
    }

    public List<Span.Fault> faults() {
        return only(Span.Fault.class);
    }

    /** The individual write marks (without buckets). */
    public List<Mark.Write> writes() {
        return marks.stream().filter(Mark.Write.class::isInstance).map(Mark.Write.class::cast).toList();
    }

    private <T extends Span> List<T> only(Class<T> type) {
        return spans.stream().filter(type::isInstance).map(type::cast).toList();
    }
}

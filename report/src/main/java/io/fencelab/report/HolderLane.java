package io.fencelab.report;

import java.util.List;

/**
 * One holder's lane: what the lease service says it holds, what it believes, the gap between them,
 * its pauses and faults (spans, ordered by kind then start), and its writes' outcomes (marks, by time).
 * In a process run, {@code agent} says where the holder runs; null in a run of threads.
 */
public record HolderLane(String holder, List<Span> spans, List<Mark> marks, Agent agent) {

    public HolderLane {
        spans = List.copyOf(spans);
        marks = List.copyOf(marks);
    }

    /** A lane of a run whose holders are threads (simulated, live). */
    public HolderLane(String holder, List<Span> spans, List<Mark> marks) {
        this(holder, spans, marks, null);
    }

    /**
     * The process a holder of a process run runs as ({@code AgentReport}s): its host and the pid of
     * its latest start, when that process was seen gone ({@code EXITED}, null while it runs) and when
     * its host stopped answering ({@code LOST}, null while it answers). A lost host's holder may still
     * run, but nothing it does reaches the log: its events up to then stay on the lane.
     */
    public record Agent(String host, Long pid, Long exitedAtMicros, Long lostAtMicros) {

        /** {@code host b · pid 41234}, as lane labels show it. */
        public String label() {
            return "host " + host + (pid == null ? "" : " \u00b7 pid " + pid);
        }

        public boolean lost() {
            return lostAtMicros != null;
        }
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

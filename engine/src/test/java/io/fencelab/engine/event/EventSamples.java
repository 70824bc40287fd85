package io.fencelab.engine.event;

import io.fencelab.engine.event.Event.*;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One hand-written event of every type, numbered 1, 2, 3, … in the order of the paused-holder
 * story. A new event type needs a line here: {@code EventLogRoundTripTest} fails until it has one.
 */
final class EventSamples {

    private EventSamples() {
    }

    static Map<Class<?>, Event> oneOfEach() {
        List<Event> events = new ArrayList<>();
        long s = 0;
        events.add(new RunStarted(++s, 0, "paused-holder", "simulated", "FENCED", "MONOTONIC", 42, "embedded"));
        events.add(new LeaseAcquired(++s, 1_000, "A", "report", 41, 41, 30_001_000));
        events.add(new BeliefStarted(++s, 1_000, "A", "report", 41));
        events.add(new LeaseRenewed(++s, 5_000_000, "A", "report", 41, 35_000_000));
        events.add(new PauseStarted(++s, 10_000_000, "A", 35_000_000, "gc"));
        events.add(new LeaseExpired(++s, 35_000_000, "A", "report", 41));
        events.add(new LeaseAcquired(++s, 35_000_100, "B", "report", 42, 42, 65_000_100));
        events.add(new LeaseBusy(++s, 35_000_200, "C", "report", "B", 42));
        events.add(new WriteAttempted(++s, 36_000_000, "B", "report", 42, TargetKind.ROW, "report-1", 1L));
        events.add(new WriteAccepted(++s, 36_000_500, "B", "report", 42, TargetKind.ROW, "report-1", "sha256:9f2c", 41L));
        events.add(new PauseEnded(++s, 45_000_000, "A"));
        events.add(new WriteAttempted(++s, 45_000_100, "A", "report", 41, TargetKind.ROW, "report-1", null));
        events.add(new WriteRejectedStale(++s, 45_000_600, "A", "report", 41, TargetKind.ROW, "report-1", 42));
        events.add(new BeliefEnded(++s, 45_000_700, "A", "report", 41, BeliefEnded.Cause.STALE_ANSWER, "stale"));
        events.add(new LeaseRenewalFailed(++s, 45_000_800, "A", "report", 41, "not held"));
        events.add(new WriteMissing(++s, 46_000_000, "B", "report", 42, TargetKind.POINTER, "current"));
        events.add(new WriteOutOfOrder(++s, 46_500_000, "B", "report", 42, TargetKind.OBJECT, "blob-7", 3, 5));
        events.add(new Event.WriteContradicted(++s, 46_600_000, "B", "report", 9_007_199_254_740_993L, TargetKind.SQL,
                "report:17", "ACCEPTED", "9007199254740992", "it said accepted and the row holds this write, but under "
                        + "token 9007199254740992, not 9007199254740993"));
        events.add(new FaultInjected(++s, 47_000_000, "connection-kill", "B", 0, "terminate backend"));
        events.add(new FaultHealed(++s, 47_000_001, "connection-kill", "B"));
        events.add(new SettingChanged(++s, 47_000_001, "leaseTtl", "30s", "10s"));
        events.add(new OperationFailed(++s, 47_000_002, "B", "renew", "connection closed"));
        events.add(new Event.AgentReport(++s, 47_000_003, Event.AgentReport.Kind.STARTED, "b", "B", 41_234L,
                -7_000_120L, 180L, null));
        events.add(new LeaseReleased(++s, 48_000_000, "B", "report", 42));
        events.add(new LeaseExhausted(++s, 49_000_000, "D", "max", Long.MAX_VALUE));
        events.add(new RunEnded(++s, 50_000_001, RunEnded.Reason.COMPLETED));
        Map<Class<?>, Event> byType = new LinkedHashMap<>();
        for (Event e : events) {
            byType.putIfAbsent(e.getClass(), e);
        }
        return byType;
    }

    /** The story above as a list, seqs 1, 2, 3, … */
    static List<Event> story() {
        List<Event> events = new ArrayList<>();
        long s = 0;
        for (Event e : oneOfEach().values()) {
            events.add(withSeq(e, ++s));
        }
        return events;
    }

    /** A copy of {@code e} with another seq (the first record component of every event). */
    static Event withSeq(Event e, long seq) {
        try {
            var components = e.getClass().getRecordComponents();
            Object[] args = new Object[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                args[i] = components[i].getAccessor().invoke(e);
            }
            args[0] = seq;
            return (Event) e.getClass().getDeclaredConstructor(types).newInstance(args);
        } catch (ReflectiveOperationException x) {
            throw new AssertionError(x);
        }
    }
}

package io.fencelab.engine.agent;

import java.time.Duration;

/**
 * Freezes, thaws and kills a process of this machine, the way the kernel does to a stopped-the-world
 * program: SIGSTOP stops every thread of it at once, SIGCONT lets them go on, SIGKILL ends it with no
 * chance to clean up. A freeze is confirmed by reading {@code /proc/PID/stat} until its state is
 * {@code T} (stopped), so a run records when the process really stopped, not when it was asked to.
 * Linux only.
 */
public final class ProcessSignals {

    private ProcessSignals() {
    }

    /** What a freeze did: when the signal was sent and when the kernel showed the process stopped (nanoTime). */
    public record Frozen(long pid, long deliveredNanos, long confirmedNanos) {
    }

    /**
     * Sends SIGSTOP to {@code pid} and waits (at most {@code limit}) until {@code /proc/PID/stat} shows
     * it stopped.
     *
     * @throws IllegalStateException if the process is gone or does not stop within the limit
     */
    public static Frozen freeze(long pid, Duration limit) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Sends SIGCONT to {@code pid}; a process that is gone is ignored. */
    public static void thaw(long pid) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Sends SIGKILL to {@code pid} and waits (at most {@code limit}) until it is gone. */
    public static void kill(long pid, Duration limit) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The process's state letter from {@code /proc/PID/stat} ('R', 'S', 'T', …), or empty if it is gone. */
    public static java.util.Optional<Character> state(long pid) {
        throw new UnsupportedOperationException("not yet");
    }
}

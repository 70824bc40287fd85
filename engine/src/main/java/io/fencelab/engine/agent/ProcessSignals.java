package io.fencelab.engine.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Freezes, thaws and kills a process of this machine, the way the kernel does to a stopped-the-world
 * program: SIGSTOP stops every thread of it at once, SIGCONT lets them go on, SIGKILL ends it with no
 * chance to clean up. A freeze is confirmed by reading {@code /proc/PID/stat} until its state is
 * {@code T} (stopped), so a run records when the process really stopped, not when it was asked to.
 * Linux only.
 */
public final class ProcessSignals {

    /** How long a freeze's confirmation is polled without pausing; after that, every 0.2 ms. */
    private static final long SPIN_NANOS = 5_000_000;

    private ProcessSignals() {
    }

    /** What a freeze did: when the signal was sent and when the kernel showed the process stopped (nanoTime). */
    public record Frozen(long pid, long deliveredNanos, long confirmedNanos) {
    }

    /**
     * Sends SIGSTOP to {@code pid} and waits (at most {@code limit}) until {@code /proc/PID/stat} shows
     * it stopped. {@code deliveredNanos} is when {@code kill} returned (the kernel has the signal by
     * then); {@code confirmedNanos} when the state first read {@code T}.
     *
     * @throws IllegalStateException if the process is gone or does not stop within the limit
     */
    public static Frozen freeze(long pid, Duration limit) {
        requireAlive(pid, "freeze");
        signal("STOP", pid);
        long delivered = System.nanoTime();
        long deadline = delivered + limit.toNanos();
        while (true) {
            Optional<Character> state = state(pid);
            long now = System.nanoTime();
            if (state.isEmpty() || isGone(state.get())) {
                throw new IllegalStateException("process " + pid + " exited while it was being frozen");
            }
            if (state.get() == 'T' || state.get() == 't') {
                return new Frozen(pid, delivered, now);
            }
            if (now - deadline >= 0) {
                throw new IllegalStateException("process " + pid + " did not stop within " + limit.toMillis()
                        + " ms of SIGSTOP (its state is still " + state.get() + ")");
            }
            if (now - delivered < SPIN_NANOS) {
                Thread.onSpinWait(); // a stop usually shows within microseconds: no sleep is that fine
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(200_000); // a slow stop: look less often
            }
        }
    }

    /** Sends SIGCONT to {@code pid}; a process that is gone is ignored. */
    public static void thaw(long pid) {
        if (state(pid).filter(s -> !isGone(s)).isEmpty()) {
            return;
        }
        try {
            signal("CONT", pid);
        } catch (IllegalStateException e) {
            if (state(pid).filter(s -> !isGone(s)).isPresent()) {
                throw e; // still there and not thawed: that is a failure; gone meanwhile is not
            }
        }
    }

    /**
     * Sends SIGKILL to {@code pid} and waits (at most {@code limit}) until it is gone (exited; a zombie
     * waiting for its parent counts as gone: it runs nothing any more).
     *
     * @throws IllegalStateException if there is no such process, or it is still there after the limit
     */
    public static void kill(long pid, Duration limit) {
        requireAlive(pid, "kill");
        ProcessHandle handle = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalStateException("cannot kill process " + pid + ": there is none"));
        handle.destroyForcibly(); // SIGKILL on Linux
        long deadline = System.nanoTime() + limit.toNanos();
        while (state(pid).filter(s -> !isGone(s)).isPresent()) {
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("process " + pid + " is still there " + limit.toMillis()
                        + " ms after SIGKILL");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for process " + pid + " to die", e);
            }
        }
    }

    /** The process's state letter from {@code /proc/PID/stat} ('R', 'S', 'T', …), or empty if it is gone. */
    public static Optional<Character> state(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            // read between the process's exit and its entry's removal: gone all the same
            return Optional.empty();
        }
        return Optional.of(stateOf(stat));
    }

    /**
     * The state field of a {@code /proc/PID/stat} line: the one after the ')' that closes the command
     * name, found from the end since the name itself may hold spaces and parentheses.
     */
    static char stateOf(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            throw new IllegalStateException("unreadable /proc stat line: " + stat.strip());
        }
        return stat.charAt(close + 2);
    }

    private static boolean isGone(char state) {
        return state == 'Z' || state == 'X' || state == 'x';
    }

    private static void requireAlive(long pid, String what) {
        if (pid <= 0) {
            throw new IllegalArgumentException("cannot " + what + " process " + pid + ": not a process id");
        }
        if (pid == ProcessHandle.current().pid()) {
            throw new IllegalArgumentException("cannot " + what + " process " + pid + ": it is this program");
        }
        if (state(pid).filter(s -> !isGone(s)).isEmpty()) {
            throw new IllegalStateException("cannot " + what + " process " + pid + ": there is no such process");
        }
    }

    /** Runs {@code kill -SIG pid} (the JDK can only terminate a process, not stop or continue it). */
    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true).start();
            String said = new String(kill.getInputStream().readAllBytes()).strip();
            int code = kill.waitFor();
            if (code != 0) {
                throw new IllegalStateException("could not send SIG" + signal + " to process " + pid + ": kill exited "
                        + code + (said.isEmpty() ? "" : " (" + said + ")"));
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run kill to send SIG" + signal + " to process " + pid + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to process " + pid, e);
        }
    }
}

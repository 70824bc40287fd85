package io.fencelab.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An etcd or ZooKeeper ensemble that Fencelab started: a {@link ServerProcess} per member, each in its
 * own directory under one, and two questions only the service can answer (does a member serve as part
 * of an ensemble with a leader, and does it lead). A fault on the whole server hits every member:
 * pause freezes all, restart stops all and starts all; {@link #stopLeader} stops one.
 */
public final class Ensemble implements ServiceServer {

    /** How long a started ensemble may take until every member serves. */
    private static final Duration WHOLE_LIMIT = Duration.ofSeconds(30);

    /** One member: its name ({@code fencelab1}), its process and the address its clients use. */
    public record Member(String name, ServerProcess process, String endpoint) {}

    private final String kind;
    private final Path dir;
    private final List<Member> members;
    private final Predicate<Member> serves;
    private final Predicate<Member> leads;
    private Member stopped;

    /**
     * Launches a member of each name in its own directory under {@code dir}, then waits until every
     * one serves. A member's process must accept on its port before the others run: etcd and
     * ZooKeeper both open their client port before they have a quorum.
     *
     * @param kind   how a message names it: {@code etcd}, {@code ZooKeeper}
     * @param dir    the directory that holds every member's, removed by {@link #close}
     * @param launch starts the member of a name in its directory ({@code dir/<name>})
     * @param serves whether a member answers clients as part of an ensemble with a leader (never throws)
     * @param leads  whether a member is the leader now (never throws)
     * @throws IllegalStateException if a member does not start or serve in time (what started is stopped and removed)
     */
    public static Ensemble start(String kind, Path dir, List<String> names, BiFunction<String, Path, Member> launch,
                                 Predicate<Member> serves, Predicate<Member> leads) {
        List<Member> launched = new ArrayList<>();
        try {
            for (String name : names) {
                launched.add(launch.apply(name, memberDirectory(dir, name)));
            }
            Ensemble e = new Ensemble(kind, dir, launched, serves, leads);
            e.awaitWhole();
            return e;
        } catch (RuntimeException e) {
            launched.forEach(m -> m.process().close());
            delete(dir);
            throw e;
        }
    }

    private Ensemble(String kind, Path dir, List<Member> members, Predicate<Member> serves, Predicate<Member> leads) {
        this.kind = kind;
        this.dir = dir;
        this.members = List.copyOf(members);
        this.serves = serves;
        this.leads = leads;
    }

    /** Every member's address, comma-separated, as jetcd and ZooKeeper's connect string take them. */
    @Override
    public String endpoints() {
        return members.stream().map(Member::endpoint).collect(Collectors.joining(","));
    }

    /** The first member's process (a fault names the ensemble, not a process). */
    @Override
    public long pid() {
        return members.getFirst().process().pid();
    }

    @Override
    public synchronized void pause() {
        running().forEach(m -> m.process().pause());
    }

    @Override
    public synchronized void resume() {
        running().forEach(m -> m.process().resume());
    }

    @Override
    public synchronized void restart() {
        stop();
        startAgain();
    }

    @Override
    public synchronized void stop() {
        members.forEach(m -> m.process().stop());
    }

    /** Starts every member that is not running (a member stopped as leader too) and waits for all. */
    @Override
    public synchronized void startAgain() {
        members.forEach(m -> m.process().start());
        stopped = null;
        awaitWhole();
    }

    /**
     * Stops the member that leads now. Right after a start or an election a member may not know the
     * leader yet, so this asks every member until one says it leads.
     */
    @Override
    public synchronized String stopLeader() {
        if (stopped != null) {
            throw new IllegalStateException(kind + " member " + stopped.name() + " is already stopped; "
                    + "the other two have no leader to spare");
        }
        Member leader = poll(() -> running().stream().filter(leads).findFirst().orElse(null), "no member leads");
        leader.process().stop();
        stopped = leader;
        return leader.name();
    }

    @Override
    public synchronized void startStopped() {
        if (stopped == null) {
            return;
        }
        stopped.process().start();
        stopped = null;
        awaitWhole();
    }

    @Override
    public synchronized void close() {
        members.forEach(m -> m.process().close());
        delete(dir);
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a leftover temporary directory is harmless
        }
    }

    private List<Member> running() {
        return members.stream().filter(m -> m != stopped).toList();
    }

    /** Waits until every running member serves. */
    private void awaitWhole() {
        poll(() -> running().stream().allMatch(serves) ? Boolean.TRUE : null, "not every member serves");
    }

    /** The first non-null answer, asked every 100 ms; else {@code failure}, with every member's log. */
    private <T> T poll(Supplier<T> answer, String failure) {
        long deadline = System.nanoTime() + WHOLE_LIMIT.toNanos();
        while (true) {
            T found = answer.get();
            if (found != null) {
                return found;
            }
            if (System.nanoTime() - deadline > 0) {
                List<String> logs = new ArrayList<>();
                running().forEach(m -> logs.add(m.name() + ": " + m.process().logTail()));
                throw new IllegalStateException(kind + " ensemble on " + endpoints() + ": " + failure + " after "
                        + WHOLE_LIMIT.toSeconds() + " s; " + String.join("; ", logs));
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the " + kind + " ensemble", e);
            }
        }
    }

    private static Path memberDirectory(Path dir, String name) {
        try {
            return Files.createDirectories(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + dir.resolve(name) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return kind + " ensemble of " + members.size() + " on " + endpoints();
    }
}

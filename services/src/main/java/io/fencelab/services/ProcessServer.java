package io.fencelab.services;

import java.time.Duration;

/**
 * A {@link ServiceServer} that is one {@link ServerProcess}: freezing, stopping, starting and closing
 * are the process's. A server that serves only some time after its port opens (etcd once it has a
 * leader, ZooKeeper once its data is loaded) says so in {@link #notServing}; every start waits for it.
 */
public abstract class ProcessServer implements ServiceServer {

    private static final Duration SERVING_LIMIT = Duration.ofSeconds(30);

    protected final ServerProcess process;

    protected ProcessServer(ServerProcess process) {
        this.process = process;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void pause() {
        process.pause();
    }

    @Override
    public void resume() {
        process.resume();
    }

    /** Why the server does not serve yet though its port is open, or null once it serves. */
    protected String notServing() {
        return null;
    }

    /** {@code server}, once it serves; if it does not in time, it is closed and this throws. */
    protected static <S extends ProcessServer> S serving(S server) {
        try {
            ((ProcessServer) server).awaitServing(); // a private method is not reached through a type variable
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void awaitServing() {
        long deadline = System.nanoTime() + SERVING_LIMIT.toNanos();
        for (String why = notServing(); why != null; why = notServing()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(this + " did not serve within " + SERVING_LIMIT.toSeconds() + " s ("
                        + why + "): " + process.logTail());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + this + " started", e);
            }
        }
    }

    /** Stops the server and starts it again on the same ports and data, returning once it serves. */
    @Override
    public void restart() {
        process.restart();
        awaitServing();
    }

    @Override
    public void stop() {
        process.stop();
    }

    @Override
    public void startAgain() {
        process.start();
        awaitServing();
    }

    /** A single server has no leader to stop: {@code Run} refuses SERVICE_LEADER_STOP on one before it begins. */
    @Override
    public String stopLeader() {
        throw new IllegalStateException(this + " is a single server, not an ensemble with a leader to stop");
    }

    @Override
    public void startStopped() {
        throw new IllegalStateException(this + " is a single server, not an ensemble with a leader to stop");
    }

    @Override
    public void close() {
        process.close();
    }
}

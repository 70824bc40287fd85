package io.fencelab.services;

/**
 * A {@link ServiceServer} that is one {@link ServerProcess}: freezing, stopping, starting and closing
 * are the process's. A server that is ready only some time after its port opens (etcd's health)
 * overrides {@link #restart} and {@link #startAgain} to wait for it.
 */
public abstract class ProcessServer implements ServiceServer {

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

    @Override
    public void restart() {
        process.restart();
    }

    @Override
    public void stop() {
        process.stop();
    }

    @Override
    public void startAgain() {
        process.start();
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

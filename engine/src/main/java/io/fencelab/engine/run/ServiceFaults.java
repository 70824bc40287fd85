package io.fencelab.engine.run;

import io.fencelab.engine.store.RealServices;

/**
 * Faults on a run's real lease service: its server frozen (SIGSTOP) or stopped and started again, or
 * an ensemble's leader stopped and started again.
 * Only a server Fencelab started for the run can be hit; {@link Run#prepare} refuses such a fault
 * on the user's own cluster, or on PostgreSQL's lease table, before anything runs.
 */
public final class ServiceFaults {

    /** A run without a server of its own. */
    static final ServiceFaults NONE = new ServiceFaults(null);

    private final RealServices.Server server;

    ServiceFaults(RealServices.Server server) {
        this.server = server;
    }

    void pause() {
        server().pause();
    }

    void resume() {
        server().resume();
    }

    void stop() {
        server().stop();
    }

    void start() {
        server().startAgain();
    }

    /** The name of the member stopped. */
    String stopLeader() {
        return server().stopLeader();
    }

    void startStopped() {
        server().startStopped();
    }

    private RealServices.Server server() {
        if (server == null) {
            throw new IllegalStateException("this run has no lease service server of its own to pause or restart");
        }
        return server;
    }
}

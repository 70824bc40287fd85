package io.fencelab.engine.store;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Real lease services for the engine, from the module that holds their clients ({@code services},
 * found with {@link ServiceLoader}): a server Fencelab starts for a run, and a run's leases on one.
 */
public interface RealServices {

    /** One run's leases on a real service ({@code io.fencelab.services.ServiceLeases}). */
    interface Leases extends LeaseStore, AutoCloseable {
        /** The service and its client, for the run's store description: {@code etcd 3.4.23 (jetcd 0.8.7)}. */
        String describe();

        /** Where each token comes from, in words. */
        String tokenSource();

        @Override
        void close();
    }

    /** A server Fencelab started ({@code io.fencelab.services.ServiceServer}). */
    interface Server extends AutoCloseable {
        String endpoints();

        long pid();

        void pause();

        void resume();

        void restart();

        /** Stops the server (a SERVICE_RESTART's first half); its data stays. */
        void stop();

        /** Starts the stopped server again on the same ports and data, returning once it answers. */
        void startAgain();

        /**
         * Stops the member of an ensemble that leads it now (a SERVICE_LEADER_STOP's first half) and
         * answers its name ({@code fencelab1}); its data stays.
         *
         * @throws IllegalStateException on a single server, or if no member leads
         */
        String stopLeader();

        /** Starts the member {@link #stopLeader} stopped, returning once the ensemble is whole again. */
        void startStopped();

        @Override
        void close();
    }

    /**
     * Starts a server of {@code kind} on this machine, from its package's binaries: one member, or an
     * ensemble of {@code members} ({@link LeaseServiceSpec#membersProblem} says which are allowed).
     *
     * @throws IllegalStateException naming the apt command if the binaries are missing
     */
    Server start(ServiceKind kind, int members);

    /** A single server of {@code kind}. */
    default Server start(ServiceKind kind) {
        return start(kind, 1);
    }

    /**
     * {@code runId}'s leases on the service at {@code service.endpoints()}, each granted for
     * {@code lifetime} of real time (the profile's ttl, session timeout or watchdog timeout, on the
     * run's time scale) and kept alive by the client.
     */
    Leases open(LeaseServiceSpec service, java.time.Duration lifetime, long runId, RunClock clock);

    /** The installed services, if the program has them (the engine alone does not). */
    static Optional<RealServices> installed() {
        return ServiceLoader.load(RealServices.class).findFirst();
    }

    /** As {@link #installed}, or a clear refusal. */
    static RealServices require() {
        return installed().orElseThrow(() -> new IllegalStateException(
                "real lease services come with the fencelab program (module services); only the engine is here"));
    }
}

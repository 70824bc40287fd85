package io.fencelab.engine.run;

import io.fencelab.engine.worker.Worker;
import io.fencelab.engine.worker.WorkerEnv;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;

/**
 * Where a run's workers live and act. Today every worker is a {@link Worker} state machine in this
 * JVM ({@link #inJvm()}), its actions run by the executor's scheduler; a placement of workers as
 * agent processes (issue 23) would give the executor the same handles for processes elsewhere.
 */
interface WorkerPlacement {

    /** What an executor does to a placed worker: start it, crash and restart it, retire it. */
    interface Placed {
        String name();

        WorkerSpec spec();

        /** Whether it is up (a crash fault skips one that is down). */
        boolean running();

        void start();

        void startAfter(Duration delay);

        /** Its process dies: it acts no more until {@link #restart}. */
        void crash();

        /** The crashed worker starts again, under a new holder name if {@code newIdentity}. */
        void restart(boolean newIdentity);

        /** It finishes its job and takes no more (a live change removed it). */
        void retire();
    }

    /** A worker for {@code spec}, acting through {@code env}. */
    Placed place(WorkerSpec spec, WorkerEnv env);

    /** Whether the workers act in this JVM, with this run's lease store (agents have stores of their own). */
    default boolean actsHere() {
        return true;
    }

    /** Workers as threads of this JVM: the executor's scheduler runs their actions. */
    static WorkerPlacement inJvm() {
        return (spec, env) -> new InJvm(new Worker(spec, env));
    }

    /** A worker of this JVM. */
    record InJvm(Worker worker) implements Placed {
        @Override
        public String name() {
            return worker.name();
        }

        @Override
        public WorkerSpec spec() {
            return worker.spec();
        }

        @Override
        public boolean running() {
            return worker.running();
        }

        @Override
        public void start() {
            worker.start();
        }

        @Override
        public void startAfter(Duration delay) {
            worker.startAfter(delay);
        }

        @Override
        public void crash() {
            worker.crash();
        }

        @Override
        public void restart(boolean newIdentity) {
            worker.restart(newIdentity);
        }

        @Override
        public void retire() {
            worker.retire();
        }
    }
}

package io.fencelab.services;

import io.fencelab.engine.store.RealServices;

/**
 * A lease service's server that Fencelab started for a run from the machine's own binaries, in a
 * temporary directory on free ports, as its own process (so that a fault can stop or freeze it).
 */
public interface ServiceServer extends RealServices.Server {

    /** What a client connects to: {@code http://127.0.0.1:23791}, {@code 127.0.0.1:21811}, {@code redis://127.0.0.1:63791}. */
    @Override
    String endpoints();

    /** The server process's id. */
    @Override
    long pid();

    /** Freezes the server's process (SIGSTOP, confirmed by the kernel's state T). */
    @Override
    void pause();

    /** Thaws it (SIGCONT). */
    @Override
    void resume();

    /** Stops the server and starts it again on the same ports and data, returning once it answers. */
    @Override
    void restart();

    /** Stops the server and removes its directory. */
    @Override
    void close();
}

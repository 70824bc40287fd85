package io.fencelab.services.zookeeper;

import io.fencelab.services.ServerProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay between one holder's client and the server that can fall silent: while silent it
 * forwards nothing in either direction and opens nothing upstream, as if the holder's process were
 * frozen (its client sends no heartbeat and reads no answer). When it speaks again it drops the
 * connections that were open, as the server has by then for an expired session, and relays anew.
 * It notes when it last forwarded a byte to the server: the last heartbeat the server heard.
 */
final class SilentRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final int upstreamPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean silent;
    private volatile long lastUpstreamNanos = System.nanoTime();

    SilentRelay(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.listener = new ServerSocket(ServerProcess.freePort(), 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("relay-accept").start(this::acceptLoop);
    }

    String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Stops forwarding: the holder's client falls silent as in a frozen process. */
    void fallSilent() {
        silent = true;
    }

    /** Forwards again, on new connections. */
    void speak() {
        silent = false;
        open.forEach(SilentRelay::closeQuietly);
        open.clear();
    }

    /** When (nanoTime) a byte last went from the client to the server. */
    long lastUpstreamNanos() {
        return lastUpstreamNanos;
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                open.add(client);
                if (silent) {
                    Thread.ofVirtual().start(() -> drain(client)); // a frozen process: connected, nothing said
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                open.add(server);
                Thread.ofVirtual().start(() -> pump(client, server, true));
                Thread.ofVirtual().start(() -> pump(server, client, false));
            } catch (IOException e) {
                // closed, or the server refused: the client will try again
            }
        }
    }

    private void pump(Socket from, Socket to, boolean upstream) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (silent) {
                    continue; // dropped: a frozen process neither sends nor reads
                }
                out.write(buffer, 0, n);
                out.flush();
                if (upstream) {
                    lastUpstreamNanos = System.nanoTime();
                }
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            if (!silent) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }
    }

    private static void drain(Socket socket) {
        try (InputStream in = socket.getInputStream()) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // closed
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        open.forEach(SilentRelay::closeQuietly);
    }
}

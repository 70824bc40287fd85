package io.fencelab.services.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's own record of what it executed, in its order: Redis's {@code MONITOR} stream (commands that
 * scripts run included, marked {@code lua}), read on a raw connection. A test's independent witness of the
 * order in which grants happened on the server.
 */
final class RedisMonitor implements AutoCloseable {

    private static final Pattern ARG = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One executed command: whether a script ran it, and its words. */
    record Command(boolean lua, List<String> words) {}

    private final Socket socket;
    private final List<Command> commands = new CopyOnWriteArrayList<>();

    RedisMonitor(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        OutputStream out = socket.getOutputStream();
        out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        if (!"+OK".equals(in.readLine())) {
            throw new IOException("MONITOR was not accepted");
        }
        Thread.ofPlatform().daemon().name("redis-monitor").start(() -> read(in));
    }

    private void read(BufferedReader in) {
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                List<String> words = new ArrayList<>();
                Matcher m = ARG.matcher(line);
                while (m.find()) {
                    words.add(m.group(1));
                }
                commands.add(new Command(line.contains(" lua] "), words));
            }
        } catch (IOException e) {
            // closed
        }
    }

    /** Everything seen once {@code marker} (a key some command named last) has come through. */
    List<Command> until(String marker) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (commands.stream().noneMatch(c -> c.words().contains(marker))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("MONITOR never showed " + marker);
            }
            Thread.sleep(20);
        }
        return List.copyOf(commands);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Console and terminal on one data directory: the second process uses the server the first
 * started, the server outlives whichever leaves first and stops with the last, and a server left
 * by a killed process is taken over at once. Each "process" here is a real JVM.
 */
class SharedEmbeddedServerTest {

    @Test
    void aSecondProcessUsesTheServerTheFirstStarted(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        try (Child console = Child.start(data); Database terminal = Database.open(DatabaseConfig.embedded(data), 2)) {
            assertThat(terminal.embeddedPort()).as("the terminal joins the console's server").isEqualTo(console.port);
            assertThat(terminal.restartRefusal()).as("a restart would stop the console's server")
                    .hasValueSatisfying(why -> assertThat(why).contains("another Fencelab").contains("--data-dir"));
        }
    }

    @Test
    void theServerOutlivesTheProcessThatStartedItAndStopsWithTheLast(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        Child console = Child.start(data);
        Database terminal = Database.open(DatabaseConfig.embedded(data), 2);
        long postmaster = postmasterPid(data).orElseThrow();

        console.send("close", "closed");
        console.close();
        assertThat(running(postmaster)).as("still serving the terminal").isTrue();
        int answer = terminal.jdbi().withHandle(h -> h.createQuery("SELECT 41 + 1").mapTo(Integer.class).one());
        assertThat(answer).isEqualTo(42);

        terminal.close();
        assertThat(postmasterPid(data)).as("the last user gone, the server stops").isEmpty();
        assertThat(running(postmaster)).isFalse();
    }

    @Test
    void aServerLeftByAKilledProcessIsTakenOverAtOnceAndStoppedByItsLastUser(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        Child killed = Child.start(data);
        long postmaster = postmasterPid(data).orElseThrow();
        killed.process.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, the server is orphaned
        killed.close();

        long started = System.nanoTime();
        try (Database next = Database.open(DatabaseConfig.embedded(data), 2)) {
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(took).as("recognised at once, not a 60 s wait").isLessThan(Duration.ofSeconds(10));
            assertThat(next.embeddedPort()).as("the orphan is reused").isEqualTo(killed.port);
            assertThat(next.restartRefusal()).as("the dead process is no user").isEmpty();
        }
        assertThat(running(postmaster)).as("the orphan stopped with its last user").isFalse();
    }

    @Test
    void aDeadServersPidFileDoesNotStopTheNextStart(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        try (Database first = Database.open(DatabaseConfig.embedded(data), 2)) {
            assertThat(first.embeddedPort()).isPositive();
        }
        // A server killed with its machine leaves postmaster.pid naming a pid that is gone or reused.
        Files.writeString(data.resolve("postmaster.pid"), "999999\n" + data + "\n0\n5432\n\n127.0.0.1\n0 0\nready\n");
        long started = System.nanoTime();
        try (Database second = Database.open(DatabaseConfig.embedded(data), 2)) {
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            assertThat(second.embeddedPort()).isNotEqualTo(5432);
        }
    }

    /** Whether the process runs (a stopped server's process may linger a moment as a zombie until it is reaped). */
    private static boolean running(long pid) throws IOException {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String line;
        try {
            line = Files.readString(stat);
        } catch (java.nio.file.NoSuchFileException gone) {
            return false;
        }
        char state = line.charAt(line.lastIndexOf(')') + 2);
        return state != 'Z' && state != 'X';
    }

    private static Optional<Long> postmasterPid(Path data) throws IOException {
        Path pid = data.resolve("postmaster.pid");
        return Files.exists(pid) ? Optional.of(Long.parseLong(Files.readAllLines(pid).get(0).strip())) : Optional.empty();
    }

    /** A child JVM running {@link SharedServerChild}. */
    private static final class Child implements AutoCloseable {
        final Process process;
        final BufferedReader out;
        final PrintWriter in;
        final int port;

        private Child(Process process) throws IOException {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new PrintWriter(process.getOutputStream(), true);
            this.port = Integer.parseInt(expect("ready ").substring("ready ".length()));
        }

        static Child start(Path data) throws IOException {
            String java = ProcessHandle.current().info().command().orElseThrow();
            return new Child(new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                    SharedServerChild.class.getName(), data.toString())).redirectErrorStream(true).start());
        }

        void send(String command, String answer) throws IOException {
            in.println(command);
            expect(answer);
        }

        private String expect(String prefix) throws IOException {
            StringBuilder seen = new StringBuilder();
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith(prefix)) {
                    return line;
                }
                seen.append(line).append('\n');
            }
            throw new AssertionError("the child ended before '" + prefix + "'; it said:\n" + seen);
        }

        @Override
        public void close() throws Exception {
            in.close();
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}

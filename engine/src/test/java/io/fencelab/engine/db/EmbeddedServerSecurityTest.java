package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server admits only its owner: the holes an adversarial pass found (trust logins,
 * a 0777 socket in /tmp) tried again the way they were broken.
 */
class EmbeddedServerSecurityTest {

    @Test
    void aConnectionWithoutTheSecretIsAskedForAPassword(@TempDir Path dir) throws Exception {
        try (Database db = Database.open(DatabaseConfig.embedded(dir.resolve("pgdata")), 2)) {
            assertThat(authenticationRequest(db.embeddedPort()))
                    .as("the server's first answer to a login with no password: 0 would be 'trust', 10 is SCRAM")
                    .isEqualTo(10);
        }
    }

    @Test
    void theServerListensOnLoopbackOnlyWithNoSocketAndNoTrustRule(@TempDir Path dir) throws Exception {
        try (Database db = Database.open(DatabaseConfig.embedded(dir.resolve("pgdata")), 2)) {
            db.jdbi().useHandle(h -> {
                assertThat(h.createQuery("SHOW listen_addresses").mapTo(String.class).one()).isEqualTo("127.0.0.1");
                assertThat(h.createQuery("SHOW unix_socket_directories").mapTo(String.class).one())
                        .as("no Unix socket, in /tmp or anywhere").isEmpty();
                assertThat(h.createQuery("SELECT count(*) FROM pg_hba_file_rules WHERE auth_method <> 'scram-sha-256'")
                        .mapTo(Integer.class).one()).as("every access rule asks for the password").isZero();
            });
            assertThat(Files.exists(Path.of("/tmp/.s.PGSQL." + db.embeddedPort()))).isFalse();
        }
    }

    @Test
    void theDataDirectoryAndTheSecretAreTheOwnersAlone(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        try (Database db = Database.open(DatabaseConfig.embedded(data), 2)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("fencelab-secret"))))
                    .isEqualTo("rw-------");
            assertThat(Files.readString(data.resolve("fencelab-secret"))).as("a secret of 48 hex digits")
                    .matches("[0-9a-f]{48}");
        }
    }

    @Test
    void theSecretIsNeverInWhatTheDatabaseSaysAboutItself(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        try (Database db = Database.open(DatabaseConfig.embedded(data), 2)) {
            String secret = Files.readString(data.resolve("fencelab-secret"));
            assertThat(db.describe()).doesNotContain(secret);
            assertThat(db.toString()).doesNotContain(secret);
            assertThat(db.jdbcUrlWithoutSecret()).doesNotContain(secret);
            assertThat(Files.readString(data.resolve("fencelab-server.log"))).doesNotContain(secret);
        }
    }

    @Test
    void aDirectoryMadeBeforePasswordsIsGivenOneAndKeepsItsData(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pgdata");
        // An older Fencelab made its data directory through zonky: trust logins, no secret.
        try (EmbeddedPostgres old = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).start();
                Connection c = old.getPostgresDatabase().getConnection()) {
            c.createStatement().execute("CREATE TABLE kept (token bigint)");
            c.createStatement().execute("INSERT INTO kept VALUES (42)");
        }
        try (Database db = Database.open(DatabaseConfig.embedded(data), 2)) {
            long kept = db.jdbi().withHandle(h -> h.createQuery("SELECT token FROM kept").mapTo(Long.class).one());
            assertThat(kept).as("the data made before the conversion").isEqualTo(42L);
            assertThat(authenticationRequest(db.embeddedPort())).as("converted to SCRAM").isEqualTo(10);
            assertThat(Files.exists(data.resolve("fencelab-secret"))).isTrue();
        }
    }

    /**
     * The attack from the report, by another account: with the console's database running, an
     * ordinary user tried to log in as {@code postgres} and read what Fencelab keeps. Root only (it
     * makes the account); CI runs as root.
     */
    @Test
    void anotherAccountCanNeitherConnectNorReadTheSecret(@TempDir Path dir) throws Exception {
        assumeThat(isRoot()).as("making another account needs root").isTrue();
        String account = "fencelab-other";
        if (exec(List.of("id", "-u", account)) != 0) {
            assertThat(exec(List.of("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", account))).isZero();
        }
        Path probeDir = Files.createTempDirectory("fencelab-probe");
        Files.setPosixFilePermissions(probeDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path probe = probeDir.resolve("Probe.java");
        Files.writeString(probe, PROBE);
        Files.setPosixFilePermissions(probe, PosixFilePermissions.fromString("rw-r--r--"));
        // Even a data directory under a world-readable parent stays closed to others.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path data = dir.resolve("pgdata");
        try (Database db = Database.open(DatabaseConfig.embedded(data), 2)) {
            String java = ProcessHandle.current().info().command().orElseThrow();
            Process p = new ProcessBuilder("setpriv", "--reuid=" + account, "--regid=" + account, "--clear-groups",
                    "--", java, "-Duser.home=/tmp", probe.toString(), Integer.toString(db.embeddedPort()),
                    data.resolve("fencelab-secret").toString(), data.resolve("postgresql.conf").toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(out).as("what the other account saw:%n%s", out)
                    .contains("secret: AccessDeniedException")
                    .contains("data: AccessDeniedException")
                    .contains("tcp: authentication request 10")
                    .contains("socket: absent");
        } finally {
            Files.deleteIfExists(probe);
            Files.deleteIfExists(probeDir);
        }
    }

    /** Run as the other account: what it can read and what the server answers it. */
    private static final String PROBE = """
            import java.io.*;
            import java.net.Socket;
            import java.nio.file.*;

            public class Probe {
                public static void main(String[] a) throws Exception {
                    System.out.println("secret: " + tryRead(a[1]));
                    System.out.println("data: " + tryRead(a[2]));
                    try (Socket s = new Socket("127.0.0.1", Integer.parseInt(a[0]))) {
                        DataOutputStream out = new DataOutputStream(s.getOutputStream());
                        byte[] params = "user\\0postgres\\0database\\0postgres\\0\\0".getBytes("US-ASCII");
                        out.writeInt(8 + params.length);
                        out.writeInt(196608);
                        out.write(params);
                        out.flush();
                        DataInputStream in = new DataInputStream(s.getInputStream());
                        char kind = (char) in.readByte();
                        in.readInt();
                        System.out.println(kind == 'R' ? "tcp: authentication request " + in.readInt() : "tcp: answer " + kind);
                    }
                    System.out.println("socket: " + (Files.exists(Path.of("/tmp/.s.PGSQL." + a[0])) ? "present" : "absent"));
                }

                static String tryRead(String file) {
                    try {
                        Files.readAllBytes(Path.of(file));
                        return "READ";
                    } catch (IOException e) {
                        return e.getClass().getSimpleName();
                    }
                }
            }
            """;

    /** The server's first answer to a startup message that names {@code postgres} and no password. */
    static int authenticationRequest(int port) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            byte[] params = "user\0postgres\0database\0postgres\0\0".getBytes(StandardCharsets.US_ASCII);
            out.writeInt(8 + params.length);
            out.writeInt(196608); // protocol 3.0
            out.write(params);
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertThat((char) in.readByte()).as("an authentication request").isEqualTo('R');
            in.readInt();
            return in.readInt();
        }
    }

    private static boolean isRoot() throws IOException {
        return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    private static int exec(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor();
    }
}

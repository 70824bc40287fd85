package io.fencelab.engine.db;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;

/**
 * Another Fencelab process, for {@link SharedEmbeddedServerTest}: opens the embedded database in
 * the directory it is given, prints {@code ready PORT}, then answers {@code query} with a token it
 * takes from the database and {@code close} by closing it.
 */
public final class SharedServerChild {

    public static void main(String[] args) throws Exception {
        Database db = Database.open(DatabaseConfig.embedded(Path.of(args[0])), 2);
        System.out.println("ready " + db.embeddedPort());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("query")) {
                System.out.println("answer " + db.jdbi().withHandle(h -> h.createQuery("SELECT 41 + 1").mapTo(Integer.class).one()));
            } else if (line.equals("close")) {
                db.close();
                System.out.println("closed");
            }
            System.out.flush();
        }
    }

    private SharedServerChild() {
    }
}

package io.fencelab.testing;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.db.RunContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: one embedded PostgreSQL per test JVM (started on first use, in a throwaway
 * directory), and a fresh, isolated run for every test that asks for a {@link RunContext}.
 * Tests may also ask for the {@link Database} itself.
 */
public final class EmbeddedDatabase implements ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(EmbeddedDatabase.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == Database.class || type == RunContext.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Database db = shared(context);
        if (parameter.getParameter().getType() == Database.class) {
            return db;
        }
        return db.newRun(context.getDisplayName());
    }

    /** The JVM-wide embedded database, closed when the test plan ends. */
    public static Database shared(ExtensionContext context) {
        return context.getRoot().getStore(NS)
                .getOrComputeIfAbsent("db", key -> new Holder(startThrowaway()), Holder.class).db;
    }

    /** Starts a new embedded PostgreSQL in a fresh temporary directory. The caller closes it. */
    public static Database startThrowaway() {
        return startThrowaway(40);
    }

    /** As {@link #startThrowaway()} with a pool of at most {@code poolSize} connections. */
    public static Database startThrowaway(int poolSize) {
        try {
            Path dir = Files.createTempDirectory("fencelab-test-pg");
            return Database.open(DatabaseConfig.embedded(dir), poolSize);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Holder(Database db) implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() {
            db.close();
        }
    }
}

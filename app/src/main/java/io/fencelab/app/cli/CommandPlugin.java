package io.fencelab.app.cli;

import java.util.List;

/**
 * Subcommands that a module above the app adds to {@code fencelab} (the benchmarks), found with
 * {@link java.util.ServiceLoader} so the app does not depend on them.
 */
public interface CommandPlugin {

    /** Picocli command objects, each annotated with its {@code @Command} name. */
    List<Object> commands();
}

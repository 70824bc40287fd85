package io.fencelab.engine.agent;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one rule for the names a process run passes between machines: agent names and host names reach
 * the database, command lines and logs, so they are plain identifiers; and {@link #LOCAL} names the
 * run's own machine, so no agent host may take it.
 */
public final class AgentNames {

    /** The run's own machine, in events and lanes; no agent host is called this. */
    public static final String LOCAL = "local";

    /** An agent: its worker's name, {@code #n} for a restarted one. */
    public static final Pattern AGENT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.#-]{0,63}");

    /** An agent host. */
    public static final Pattern HOST = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");

    /** What a host name must be, for messages. */
    public static final String HOST_RULE = "1 to 64 of A-Z a-z 0-9 _ . -, beginning with a letter, digit or _, "
            + "and not 'local' (the run's own machine)";

    private AgentNames() {
    }

    /** Why {@code host} cannot name an agent host, or empty if it can. */
    public static Optional<String> hostProblem(String host) {
        if (host == null || !HOST.matcher(host).matches() || LOCAL.equals(host)) {
            return Optional.of("a host name is " + HOST_RULE);
        }
        return Optional.empty();
    }
}

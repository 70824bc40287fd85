package io.fencelab.app.console.run;

/** Turns exceptions into one line for people: what failed and why, never a stack trace. */
public final class Problems {

    private Problems() {
    }

    public static String describe(String what, Throwable e) {
        return what + ": " + reason(e);
    }

    /** The first message in the exception's chain, first line only (the engine's messages never hold passwords). */
    public static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && !m.isBlank()) {
                return m.lines().findFirst().orElse(m).strip();
            }
        }
        return e.getClass().getSimpleName();
    }
}

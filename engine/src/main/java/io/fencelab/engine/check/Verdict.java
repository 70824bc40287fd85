package io.fencelab.engine.check;

import java.util.List;

/** The checker's judgement of a run: safe, or violated with one witness per broken invariant instance. */
public record Verdict(Kind kind, List<Witness> witnesses) {

    public enum Kind { SAFE, VIOLATED }

    public Verdict {
        witnesses = List.copyOf(witnesses);
        if ((kind == Kind.SAFE) != witnesses.isEmpty()) {
            throw new IllegalArgumentException(kind + " with " + witnesses.size() + " witnesses");
        }
    }

    /** SAFE exactly when there is nothing to witness. */
    public static Verdict of(List<Witness> witnesses) {
        return new Verdict(witnesses.isEmpty() ? Kind.SAFE : Kind.VIOLATED, witnesses);
    }

    public boolean isSafe() {
        return kind == Kind.SAFE;
    }
}

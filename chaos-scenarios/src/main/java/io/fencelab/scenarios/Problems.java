package io.fencelab.scenarios;

import java.util.ArrayList;
import java.util.List;

/**
 * The problems found in one file so far. Readers report here and carry on with a fallback value, so
 * one pass over a file finds all its problems rather than only the first.
 */
final class Problems {
    /** The path shown for problems with the file's top-level mapping itself. */
    static final String TOP_LEVEL = "(top level)";

    private final String file;
    private final List<Problem> found = new ArrayList<>();

    Problems(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    void add(YamlNode.Mark at, String path, String message) {
        found.add(new Problem(file, at.line(), at.column(), path.isEmpty() ? TOP_LEVEL : path, message));
    }

    boolean isEmpty() {
        return found.isEmpty();
    }

    List<Problem> list() {
        return List.copyOf(found);
    }

    void throwIfAny() {
        if (!found.isEmpty()) {
            throw new ScenarioException(found);
        }
    }
}

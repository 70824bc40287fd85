package io.fencelab.engine.run;

import io.fencelab.engine.fence.SqlFence;
import java.util.List;
import java.util.Optional;

/**
 * The user's own SQL fences of a run ({@code targets:} in a scenario) and whether their scratch schema
 * outlives the run ({@code --keep}, to look at what the statements left).
 */
public record UserFences(List<SqlFence> fences, boolean keep) {

    public static final UserFences NONE = new UserFences(List.of(), false);

    public UserFences {
        fences = List.copyOf(fences);
    }

    public boolean isEmpty() {
        return fences.isEmpty();
    }

    public Optional<SqlFence> named(String name) {
        return fences.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    public UserFences keeping(boolean value) {
        return new UserFences(fences, value);
    }
}

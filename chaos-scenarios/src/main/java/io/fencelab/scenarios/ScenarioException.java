package io.fencelab.scenarios;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A scenario that cannot be used, with every problem found in it. The message is meant for the person
 * who wrote the file: one {@code file:line:column: field: problem} line per problem, never a stack
 * trace or a parser's class name.
 */
public final class ScenarioException extends RuntimeException {

    private final transient List<Problem> problems;

    public ScenarioException(List<Problem> problems) {
        super(problems.stream().sorted(Problem.BY_POSITION).map(Problem::toString)
                .collect(Collectors.joining("\n")), null, false, false);
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a scenario exception needs at least one problem");
        }
        this.problems = problems.stream().sorted(Problem.BY_POSITION).toList();
    }

    public ScenarioException(Problem problem) {
        this(List.of(problem));
    }

    /** The problems in file order. */
    public List<Problem> problems() {
        return problems;
    }
}

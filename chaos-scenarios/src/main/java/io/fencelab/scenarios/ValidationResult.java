package io.fencelab.scenarios;

import java.util.List;

/**
 * The outcome of checking a file without running it ({@code fencelab validate}).
 *
 * @param file     the file as named
 * @param scenario the compiled scenario, or null when there are problems
 * @param problems in file order; empty when the file is valid
 */
public record ValidationResult(String file, Scenario scenario, List<Problem> problems) {

    public ValidationResult {
        problems = List.copyOf(problems);
        if ((scenario == null) == problems.isEmpty()) {
            throw new IllegalArgumentException("a validation result has a scenario or problems, not both");
        }
    }

    public boolean valid() {
        return problems.isEmpty();
    }

    /** The problems, one {@code file:line:column: field: problem} line each. */
    public List<String> messages() {
        return problems.stream().map(Problem::toString).toList();
    }
}

package io.fencelab.scenarios;

import java.util.List;
import java.util.Objects;

/**
 * A question for the room, asked before its step plays out: the question, the choices, which one is
 * right ({@code answer}, 0-based here, 1-based in files and on screen) and a short why, shown when
 * the run reveals it.
 */
public record Question(String ask, List<String> choices, int answer, String why) {

    public Question {
        Objects.requireNonNull(ask, "ask");
        choices = List.copyOf(choices);
        if (choices.size() < 2) {
            throw new IllegalArgumentException("a question needs at least two choices");
        }
        if (answer < 0 || answer >= choices.size()) {
            throw new IllegalArgumentException("answer " + (answer + 1) + " is not one of the " + choices.size()
                    + " choices");
        }
        Objects.requireNonNull(why, "why");
    }

    public String rightChoice() {
        return choices.get(answer);
    }

    /** The choice's letter as shown: A, B, C, … */
    public static char letter(int choice) {
        return (char) ('A' + choice);
    }
}

package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.MINIMAL;
import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoryStepValidationTest {

    private static String story(String steps) {
        return MINIMAL.replace("story: [one]\n", "story:\n" + steps);
    }

    @Test
    void aStepTiedToAnEventOrATimeLoadsWithItsQuestion() {
        Scenario s = ScenarioLoader.load("t.yaml", story("""
                  - first, untied
                  - text: B acquires
                    on: {type: LeaseAcquired, holder: B, token: 42}
                    notes: for the teacher
                  - text: later
                    at: 31s
                    ask: What now?
                    choices: [this, that]
                    answer: 2
                    why: Because.
                """));

        List<StoryStep> steps = s.notes().steps();
        assertThat(steps.get(0).cue()).isEqualTo(Cue.WITH_PREVIOUS);
        assertThat(steps.get(1).cue()).isEqualTo(new Cue.On("LeaseAcquired", Map.of("holder", "B", "token", "42")));
        assertThat(steps.get(1).notes()).isEqualTo("for the teacher");
        assertThat(steps.get(2).cue()).isEqualTo(new Cue.At(Duration.ofSeconds(31)));
        assertThat(steps.get(2).question()).isEqualTo(new Question("What now?", List.of("this", "that"), 1, "Because."));
        assertThat(steps.get(2).line()).as("where the step is written").isEqualTo(8);
        assertThat(s.notes().story()).containsExactly("first, untied", "B acquires", "later");
    }

    @Test
    void anUnknownEventTypeIsNamedWithTheNearestAndTheAllowedOnes() {
        assertThat(problems(story("""
                  - text: B acquires
                    on: {type: LeaseAquired, holder: B}
                """))).singleElement().satisfies(p -> assertThat(p)
                .startsWith("t.yaml:5:")
                .contains("story[0].on.type", "unknown event type LeaseAquired", "did you mean LeaseAcquired?",
                        "allowed: RunStarted"));
    }

    @Test
    void aFieldTheEventDoesNotHaveListsTheFieldsItHas() {
        assertThat(problems(story("""
                  - text: B acquires
                    on: {type: LeaseAcquired, holdr: B}
                """))).singleElement().satisfies(p -> assertThat(p)
                .contains("story[0].on.holdr", "LeaseAcquired has no field holdr", "did you mean holder?",
                        "allowed: atMicros, holder, scope, token, fencingToken, expiresAtMicros"));
    }

    @Test
    void atAndOnTogetherAreRefused() {
        assertThat(problems(story("""
                  - text: both
                    at: 3s
                    on: {type: RunEnded}
                """))).singleElement().satisfies(p -> assertThat(p).contains("story[0].on", "not both"));
    }

    @Test
    void aQuestionWithAnAnswerOutsideItsChoicesIsRefused() {
        assertThat(problems(story("""
                  - text: q
                    ask: Which?
                    choices: [a, b]
                    answer: 3
                    why: W.
                """))).singleElement().satisfies(p -> assertThat(p).contains("story[0].answer", "3"));
    }

    @Test
    void aQuestionNeedsItsChoicesAndWhy() {
        assertThat(problems(story("""
                  - text: q
                    ask: Which?
                    answer: 1
                """))).anySatisfy(p -> assertThat(p).contains("story[0].choices", "missing required key"))
                .anySatisfy(p -> assertThat(p).contains("story[0].why", "missing required key"));
    }

    @Test
    void choicesWithoutAQuestionAreRefused() {
        assertThat(problems(story("""
                  - text: q
                    choices: [a, b]
                """))).singleElement().satisfies(p -> assertThat(p).contains("story[0].choices", "add ask"));
    }
}

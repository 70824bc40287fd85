package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.MINIMAL;
import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Control characters in what reaches the database, the log or a report are refused by validate, at
 * their line: a NUL in a key used to pass and fail every write at run time (SQLSTATE 22021).
 */
class ScenarioCharactersTest {

    @Test
    void aNulInAKeyIsRefusedAtTheKey() {
        String yaml = MINIMAL.replace("- key: report-1", "- key: \"report\\0-1\"");

        assertThat(problems(yaml)).as("the NUL is named and shown escaped, at the key's line")
                .containsExactly("t.yaml:11:14: workers[0].writes[0].key: 'report\\u0000-1' holds the control "
                        + "character U+0000 (NULL); a name is printable text on one line");
    }

    @Test
    void aLineBreakInAWorkerNameIsRefused() {
        String yaml = MINIMAL.replace("- name: A", "- name: \"A\\nB\"");

        assertThat(problems(yaml)).as("a name is one line")
                .containsExactly("t.yaml:8:11: workers[0].name: 'A\\u000AB' holds the control character U+000A "
                        + "(LINE FEED (LF)); a name is printable text on one line");
    }

    @Test
    void aRightToLeftOverrideInAScopeIsRefused() {
        String yaml = MINIMAL.replace("scope: report", "scope: \"report\\u202E\"");

        assertThat(problems(yaml)).as("an invisible character that reorders text on screen")
                .singleElement().asString()
                .startsWith("t.yaml:9:12: workers[0].scope: 'report\\u202E' holds the invisible character U+202E");
    }

    @Test
    void aControlCharacterInAScopeNameOfScopesIsRefusedAtTheName() {
        String yaml = MINIMAL.replace("lease:", "scopes:\n  \"rep\\x01ort\": 41\nlease:");

        assertThat(problems(yaml)).as("a scope's first token names it by its key").anySatisfy(p -> assertThat(p)
                .startsWith("t.yaml:6:3: scopes.rep\\u0001ort: 'rep\\u0001ort' holds the control character U+0001"));
    }

    @Test
    void aControlCharacterInATargetIsRefused() {
        String yaml = MINIMAL + "faults:\n  - {kind: PAUSE, target: \"A\\0\", at: 10s, duration: 5s}\n";

        assertThat(problems(yaml)).as("a fault's target is a name").singleElement().asString()
                .startsWith("t.yaml:15:27: faults[0].target: 'A\\u0000' holds the control character U+0000");
    }

    @Test
    void aBellInTheTitleIsRefusedButLineBreaksInTheSummaryAreText() {
        String yaml = MINIMAL.replace("title: T", "title: \"T\\a\"").replace("summary: S.",
                "summary: |\n  First line.\n  \tSecond, indented.");

        assertThat(problems(yaml)).as("a text keeps its line breaks and tabs, and no other control character")
                .containsExactly("t.yaml:1:8: title: 'T\\u0007' holds the control character U+0007 (BEL); a text "
                        + "is printable, with line breaks and tabs");
    }
}

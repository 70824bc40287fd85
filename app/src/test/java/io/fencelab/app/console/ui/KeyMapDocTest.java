package io.fencelab.app.console.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/CONSOLE.md lists the console's shortcuts as the key map has them. Run with
 * {@code -Dfencelab.updateDocs=true} to rewrite the table from the key map.
 */
class KeyMapDocTest {

    private static final String START = "<!-- shortcuts: generated from view.KeyMap; KeyMapDocTest fails when they differ -->";
    private static final String END = "<!-- end of shortcuts -->";

    static String table() {
        return "| keys | what they do |\n|---|---|\n" + KeyMap.shortcuts().stream()
                .map(s -> "| " + s.keys().replace("|", "\\|") + " | " + s.does() + ". |")
                .collect(Collectors.joining("\n")) + "\n";
    }

    @Test
    void consoleDocListsEveryShortcutOfTheKeyMap() throws IOException {
        Path doc = Path.of("..", "docs", "CONSOLE.md");
        String text = Files.readString(doc);
        int from = text.indexOf(START);
        int to = text.indexOf(END);
        assertThat(from).as("docs/CONSOLE.md has the generated shortcuts table").isNotNegative();
        String expected = text.substring(0, from + START.length()) + "\n" + table() + text.substring(to);
        if (Boolean.getBoolean("fencelab.updateDocs")) {
            Files.writeString(doc, expected);
            text = expected;
        }
        assertThat(text).as("docs/CONSOLE.md's shortcuts table is out of date with view.KeyMap; run this test "
                + "with -Dfencelab.updateDocs=true to rewrite it").isEqualTo(expected);
    }

    @Test
    void noTwoShortcutsShareAKey() {
        List<Object> codes = KeyMap.shortcuts().stream().flatMap(s -> s.codes().stream()).map(c -> (Object) c)
                .toList();
        assertThat(codes).doesNotHaveDuplicates();
    }
}

package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.ui.KeyMap;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javafx.event.Event;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * A global single-letter shortcut never fires while text is being typed: not in a text field, and not
 * in an editable picker or spinner, which hold the focus themselves and hand the keys to their editor
 * (typing {@code t} into the Tune view's scenario field once opened the teacher's window).
 */
class ShortcutsWhileTypingTest extends ConsoleTestBase {

    @Test
    void typingTInTheTuneScenarioFieldTypesItAndLeavesTheTeachersWindowClosed(FxRobot robot) {
        waitForDatabase();
        fxRun(() -> console.tune().show(true));
        ComboBox<?> scenario = fx(() -> (ComboBox<?>) console.scene().lookup("#tune-scenario"));
        robot.clickOn(scenario);
        fxRun(scenario::requestFocus);
        // Pressed as keys (a key press, then the character typed), as a keyboard sends them.
        robot.type(KeyCode.T);

        assertThat(fx(() -> console.model().lesson().teacherProperty().get()))
                .as("the teacher's window stays closed while t is typed into the scenario field").isFalse();
        assertThat(fx(() -> scenario.getEditor().getText())).as("the letter went into the field").isEqualTo("t");
        screenshot("tune-typing-t");
    }

    @Test
    void noShortcutTakesAKeyAimedAtAnyFieldOfTheConsole() {
        waitForDatabase();
        Set<Node> fields = new LinkedHashSet<>();
        for (boolean tune : List.of(false, true)) {
            fxRun(() -> console.tune().show(tune));
            fields.addAll(fx(() -> console.scene().getRoot().lookupAll("*").stream()
                    .filter(KeyMap::typingInto).toList()));
        }
        assertThat(fields).as("the console's text fields, editable pickers and spinners")
                .hasSizeGreaterThanOrEqualTo(8);

        List<String> taken = new ArrayList<>();
        for (Node field : fields) {
            for (KeyMap.Shortcut s : KeyMap.shortcuts()) {
                for (KeyCode code : s.codes()) {
                    if (code.isLetterKey() || code.isDigitKey() || code == KeyCode.SPACE) {
                        if (!reaches(field, code)) {
                            taken.add(code.getName() + " (" + s.does() + ") at #" + field.getId());
                        }
                    }
                }
            }
        }
        assertThat(taken).as("keys a shortcut took away from the field they were typed into").isEmpty();
        assertThat(fx(() -> console.model().lesson().teacherProperty().get()))
                .as("no key typed into a field opened the teacher's window").isFalse();
    }

    /** Whether a key press aimed at {@code field} gets there, rather than being taken by a shortcut on the way. */
    private static boolean reaches(Node field, KeyCode code) {
        return fx(() -> {
            boolean[] arrived = {false};
            javafx.event.EventHandler<KeyEvent> mark = e -> arrived[0] = true;
            field.addEventFilter(KeyEvent.KEY_PRESSED, mark);
            try {
                Event.fireEvent(field, new KeyEvent(null, field, KeyEvent.KEY_PRESSED, "", "", code, false, false,
                        false, false));
            } finally {
                field.removeEventFilter(KeyEvent.KEY_PRESSED, mark);
            }
            return arrived[0];
        });
    }
}

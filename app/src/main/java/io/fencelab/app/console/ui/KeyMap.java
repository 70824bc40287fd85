package io.fencelab.app.console.ui;

import io.fencelab.app.console.model.HandFault;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javafx.event.EventTarget;
import javafx.scene.control.ComboBoxBase;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * Every keyboard shortcut of the console, in one table: the keys, what they do, and the action they
 * stand for. The key handler (the console view's {@code installShortcuts}) and the help overlay ({@code ?})
 * both read it, and a test checks docs/CONSOLE.md's table against it, so the three cannot drift.
 */
public final class KeyMap {

    /** What a shortcut asks for; the console view hands each to its intent. */
    public enum Action {
        CONTINUE, BACK, STEP, GUIDED, FIT, FAULT, PICK, NEXT_LESSON, PREVIOUS_LESSON, FASTER, SLOWER, PRESENTER,
        TEACHER, HEATMAP, HELP, CLOSE, PRESS
    }

    /**
     * One shortcut.
     *
     * @param keys  the keys as shown to people ({@code Space / Page Down})
     * @param does  what it does, in a few words
     * @param codes the key codes that trigger it
     * @param typed a character typed that triggers it ({@code ?}, whatever the keyboard layout), or empty
     * @param fault the fault it adds by hand ({@link Action#FAULT}), or null
     */
    public record Shortcut(String keys, String does, Action action, List<KeyCode> codes, String typed,
                           HandFault fault) {
        public Shortcut {
            codes = List.copyOf(codes);
            typed = typed == null ? "" : typed;
        }

        static Shortcut of(String keys, String does, Action action, KeyCode... codes) {
            return new Shortcut(keys, does, action, Arrays.asList(codes), "", null);
        }
    }

    /** The digits that mark the room's pick, 1 to 6 (the choices A to F). */
    static final List<KeyCode> PICKS = List.of(KeyCode.DIGIT1, KeyCode.DIGIT2, KeyCode.DIGIT3, KeyCode.DIGIT4,
            KeyCode.DIGIT5, KeyCode.DIGIT6, KeyCode.NUMPAD1, KeyCode.NUMPAD2, KeyCode.NUMPAD3, KeyCode.NUMPAD4,
            KeyCode.NUMPAD5, KeyCode.NUMPAD6);

    private static final List<Shortcut> SHORTCUTS = build();

    private KeyMap() {
    }

    private static List<Shortcut> build() {
        List<Shortcut> all = new ArrayList<>();
        all.add(Shortcut.of("Space / Page Down", "Play or pause. In guided mode: Continue (at a question: reveal "
                + "the answer, which stays until the next press takes it off; else on to the next step). A "
                + "presentation clicker sends Page Down, which works wherever the focus is", Action.CONTINUE,
                KeyCode.SPACE, KeyCode.PAGE_DOWN));
        all.add(Shortcut.of("Page Up", "Back to the previous story step (the run is replayed to it), wherever the "
                + "focus is", Action.BACK, KeyCode.PAGE_UP));
        all.add(Shortcut.of("]", "Next lesson of the open workshop", Action.NEXT_LESSON, KeyCode.CLOSE_BRACKET));
        all.add(Shortcut.of("[", "Previous lesson of the open workshop", Action.PREVIOUS_LESSON,
                KeyCode.OPEN_BRACKET));
        all.add(Shortcut.of("Right arrow", "Step: one more event, then pause", Action.STEP, KeyCode.RIGHT));
        all.add(Shortcut.of("G", "Guided mode on or off: stop at every story step", Action.GUIDED, KeyCode.G));
        all.add(new Shortcut("1 to 6 / Shift + 1 to 6", "While a question is on screen: mark the room's pick (A to F); "
                + "with Shift, one more raised hand for that choice in the show of hands", Action.PICK,
                PICKS, "", null));
        for (HandFault f : HandFault.values()) {
            all.add(new Shortcut(f.key, "Fault by hand: " + f.words + " on the chosen holder", Action.FAULT,
                    List.of(KeyCode.getKeyCode(f.key)), "", f));
        }
        all.add(Shortcut.of("+", "Faster: twice the speed", Action.FASTER, KeyCode.PLUS, KeyCode.ADD,
                KeyCode.EQUALS));
        all.add(Shortcut.of("-", "Slower: half the speed", Action.SLOWER, KeyCode.MINUS, KeyCode.SUBTRACT));
        all.add(Shortcut.of("Home / F", "Fit the whole run in the timeline and follow the playhead", Action.FIT,
                KeyCode.HOME, KeyCode.F));
        all.add(Shortcut.of("F5", "Presenter view on or off", Action.PRESENTER, KeyCode.F5));
        all.add(Shortcut.of("T", "The teacher's window open or closed (with one screen: not while a question "
                + "is on screen)", Action.TEACHER, KeyCode.T));
        all.add(Shortcut.of("H", "Presenter view: the sweep's heatmap in place of the timeline, or the timeline back",
                Action.HEATMAP, KeyCode.H));
        all.add(new Shortcut("? / F1", "This list of shortcuts", Action.HELP, List.of(KeyCode.F1), "?", null));
        all.add(Shortcut.of("Tab, then Enter", "Move to a button (Tab, Shift+Tab) and press it (Enter). Space "
                + "stays Continue wherever the focus is", Action.PRESS, KeyCode.ENTER));
        all.add(Shortcut.of("Esc", "Close this list, or take a question off the screen", Action.CLOSE,
                KeyCode.ESCAPE));
        return List.copyOf(all);
    }

    /** Every shortcut, in the order the help lists them. */
    public static List<Shortcut> shortcuts() {
        return SHORTCUTS;
    }

    /**
     * Whether {@code code} is the clicker's (Page Down, Page Up): those always move the lesson, wherever
     * the focus was left, a text field or a picker of the Tune view included.
     */
    public static boolean clicker(KeyCode code) {
        return code == KeyCode.PAGE_DOWN || code == KeyCode.PAGE_UP;
    }

    /** The shortcut a key press (or, for {@link KeyEvent#KEY_TYPED}, a typed character) triggers. */
    public static Optional<Shortcut> find(KeyEvent e) {
        for (Shortcut s : SHORTCUTS) {
            if (e.getEventType() == KeyEvent.KEY_TYPED ? !s.typed().isEmpty() && s.typed().equals(e.getCharacter())
                    : s.codes().contains(e.getCode())) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether keys aimed at {@code target} are text being typed, which no shortcut takes: a text field
     * or area, or an editable picker or spinner. Those last two hold the focus themselves and pass the
     * keys on to their editor, so the key event's target is the picker, not a text field.
     */
    public static boolean typingInto(EventTarget target) {
        return target instanceof TextInputControl
                || target instanceof ComboBoxBase<?> picker && picker.isEditable()
                || target instanceof Spinner<?> spinner && spinner.isEditable();
    }

    /** The choice (0-based) a pick key stands for. */
    public static int pickOf(KeyCode code) {
        return PICKS.indexOf(code) % 6;
    }
}

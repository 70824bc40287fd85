package io.fencelab.scenarios;

import java.util.List;
import java.util.Map;

/**
 * A parsed scenario file as a small tree that remembers where each value was written, which
 * Jackson's own tree does not. Scalars keep the text exactly as written, so the scenario reader (not
 * the YAML library) decides what counts as a number: {@code 012} stays twelve, not octal ten.
 */
sealed interface YamlNode {

    /** 1-based position of the node's first character. */
    record Mark(int line, int column) {
        static final Mark START = new Mark(1, 1);
    }

    Mark mark();

    /** How a message names this kind of value: "a list", "the text 'abc'", … */
    String describe();

    enum ScalarKind { STRING, INTEGER, FLOAT, BOOLEAN, NULL }

    /** A single value. {@code kind} is the YAML parser's reading, {@code text} the characters written. */
    record Scalar(Mark mark, ScalarKind kind, String text) implements YamlNode {
        @Override
        public String describe() {
            return switch (kind) {
                case STRING -> text.isEmpty() ? "an empty text" : "the text '" + Texts.abbreviate(text) + "'";
                case INTEGER, FLOAT -> "the number " + Texts.abbreviate(text);
                case BOOLEAN -> "the value " + text;
                case NULL -> "nothing (an empty value)";
            };
        }
    }

    /** A key as written, with its own position (unknown keys are reported there, not at the value). */
    record Field(String key, Mark keyMark, YamlNode value) {}

    /** Keys in file order. */
    record Mapping(Mark mark, Map<String, Field> fields) implements YamlNode {
        @Override
        public String describe() {
            return "a mapping";
        }
    }

    record Sequence(Mark mark, List<YamlNode> items) implements YamlNode {
        @Override
        public String describe() {
            return "a list";
        }
    }
}

package io.fencelab.scenarios;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * Reads YAML (and so JSON) token by token into a {@link YamlNode} tree that keeps each node's
 * position. A syntax error becomes one {@code YAML syntax} problem with the parser's own position and
 * a short reason; duplicate keys are reported (YAML forbids them, the parser does not check).
 */
final class YamlTree {

    /** Thread-safe once configured; parsers are cheap. */
    private static final YAMLFactory FACTORY = YAMLFactory.builder()
            // `title: ""` should be an empty text (reported as such), not a missing value.
            .disable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build();

    static final String SYNTAX = "YAML syntax";

    private final Problems problems;
    private final YAMLParser parser;

    private YamlTree(Problems problems, YAMLParser parser) {
        this.problems = problems;
        this.parser = parser;
    }

    /**
     * The file's single document, or null for an empty file (nothing but blanks and comments).
     *
     * @throws ScenarioException on a syntax error, with every duplicate key found before it
     */
    static YamlNode parse(String text, Problems problems) {
        YAMLParser parser;
        try {
            parser = FACTORY.createParser(text);
        } catch (IOException e) {
            throw new IllegalStateException("reading from a string cannot fail", e);
        }
        try (parser) {
            YamlTree tree = new YamlTree(problems, parser);
            if (parser.nextToken() == null) {
                return null;
            }
            YamlNode root = tree.node();
            if (parser.nextToken() != null) {
                problems.add(mark(parser.currentTokenLocation()), SYNTAX,
                        "a scenario file holds one YAML document; a second one starts here (after '---')");
            }
            return root;
        } catch (IOException | RuntimeException e) {
            // Jackson and SnakeYAML report syntax errors as exceptions; the user gets a line, not the exception.
            syntaxError(e, text, parser, problems);
            problems.throwIfAny();
            throw new IllegalStateException("unreachable");
        }
    }

    /** The node whose first token is the parser's current one. */
    private YamlNode node() throws IOException {
        YamlNode.Mark at = mark(parser.currentTokenLocation());
        JsonToken token = parser.currentToken();
        if (token == null) {
            throw new IOException("the file ends where a value was expected");
        }
        if (parser.isCurrentAlias()) {
            problems.add(at, SYNTAX, "aliases (*" + Texts.abbreviate(parser.getText())
                    + ") are not supported in scenario files; write the value out");
        }
        return switch (token) {
            case START_OBJECT -> mapping(at);
            case START_ARRAY -> sequence(at);
            case VALUE_STRING -> new YamlNode.Scalar(at, YamlNode.ScalarKind.STRING, parser.getText());
            case VALUE_NUMBER_INT -> new YamlNode.Scalar(at, YamlNode.ScalarKind.INTEGER, parser.getText());
            case VALUE_NUMBER_FLOAT -> new YamlNode.Scalar(at, YamlNode.ScalarKind.FLOAT, parser.getText());
            case VALUE_TRUE, VALUE_FALSE -> new YamlNode.Scalar(at, YamlNode.ScalarKind.BOOLEAN, parser.getText());
            case VALUE_NULL -> new YamlNode.Scalar(at, YamlNode.ScalarKind.NULL, "");
            // Embedded binary (!!binary) and anything exotic: keep the text, the reader will refuse it.
            default -> new YamlNode.Scalar(at, YamlNode.ScalarKind.STRING, String.valueOf(parser.getText()));
        };
    }

    private YamlNode mapping(YamlNode.Mark at) throws IOException {
        Map<String, YamlNode.Field> fields = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            YamlNode.Mark keyMark = mark(parser.currentTokenLocation());
            parser.nextToken();
            YamlNode value = node();
            YamlNode.Field earlier = fields.get(key);
            if (earlier != null) {
                problems.add(keyMark, SYNTAX, "duplicate key '" + Texts.abbreviate(key) + "' (first written at line "
                        + earlier.keyMark().line() + ")");
            } else {
                fields.put(key, new YamlNode.Field(key, keyMark, value));
            }
        }
        return new YamlNode.Mapping(at, fields);
    }

    private YamlNode sequence(YamlNode.Mark at) throws IOException {
        List<YamlNode> items = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            if (t == null) {
                throw new IOException("the list is not closed before the end of the file");
            }
            items.add(node());
        }
        return new YamlNode.Sequence(at, items);
    }

    private static YamlNode.Mark mark(JsonLocation location) {
        return location == null ? YamlNode.Mark.START
                : new YamlNode.Mark(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
    }

    /** Turns whatever the parser threw into one located, short, class-name-free problem. */
    private static void syntaxError(Exception e, String text, YAMLParser parser, Problems problems) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException marked) {
                Mark m = marked.getProblemMark() != null ? marked.getProblemMark() : marked.getContextMark();
                YamlNode.Mark at = m == null ? fallbackMark(e, parser)
                        : new YamlNode.Mark(m.getLine() + 1, m.getColumn() + 1);
                String problem = marked.getProblem() != null ? marked.getProblem() : marked.getContext();
                problems.add(at, SYNTAX, shortReason(problem));
                return;
            }
            if (t instanceof ReaderException unreadable) {
                int codePoint = unreadable.getCodePoint();
                problems.add(markAtCodePoint(text, unreadable.getPosition()), SYNTAX,
                        String.format("the character U+%04X is not allowed in YAML", codePoint));
                return;
            }
        }
        String reason = e instanceof JacksonException jackson ? jackson.getOriginalMessage() : e.getMessage();
        problems.add(fallbackMark(e, parser), SYNTAX, shortReason(reason));
    }

    private static YamlNode.Mark fallbackMark(Exception e, YAMLParser parser) {
        if (e instanceof JacksonException jackson && jackson.getLocation() != null) {
            return mark(jackson.getLocation());
        }
        return mark(parser.currentLocation());
    }

    private static YamlNode.Mark markAtCodePoint(String text, int codePointIndex) {
        int line = 1;
        int column = 1;
        int seen = 0;
        for (int i = 0; i < text.length() && seen < codePointIndex; i += Character.charCount(text.codePointAt(i))) {
            if (text.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
            seen++;
        }
        return new YamlNode.Mark(line, column);
    }

    /**
     * The parser's reason cut to one plain line in words a scenario author knows. SnakeYAML speaks of
     * its own tokens ({@code expected <block end>, but found '<block mapping start>'}), which nearly
     * always means the indentation is off; Jackson's messages can name SnakeYAML classes. Both are
     * translated.
     */
    static String shortReason(String raw) {
        if (raw == null || raw.isBlank()) {
            return "cannot be read as YAML";
        }
        String line = raw.strip().lines().findFirst().orElse("").strip();
        if (line.startsWith("Expected a field name")) {
            return "a mapping key must be a single plain value, not a list or a mapping";
        }
        if (line.contains("nesting depth")) {
            return "lists and mappings are nested more than 1000 deep";
        }
        if (line.contains("exceeds the maximum")) {
            // Jackson's StreamReadConstraints: limits no scenario comes near.
            return "a value is too large to be a scenario setting";
        }
        if (line.startsWith("expected <block end>")) {
            return "this line's indentation does not fit the lines above it (" + tokens(line) + ")";
        }
        if (line.startsWith("expected '<document start>'")) {
            return "unexpected text after the end of the top-level mapping; check this line's indentation";
        }
        if (line.equals("mapping values are not allowed here")) {
            return "a ':' is not allowed here (check the indentation, or put text containing ': ' in quotes)";
        }
        if (line.equals("could not find expected ':'")) {
            return "expected 'key: value' here (a ':' is missing, or a quote is not closed)";
        }
        line = line.replaceAll("<[^>]*(Event|org\\.|com\\.)[^>]*>", "this");
        if (line.contains("org.") || line.contains("com.") || line.contains("Exception")) {
            return "cannot be read as YAML";
        }
        return Texts.abbreviate(tokens(line).replace("(TAB)", ""), 120);
    }

    /** SnakeYAML's token names in words. */
    private static String tokens(String message) {
        return message.replace("'<stream end>'", "the end of the file")
                .replace("'<block mapping start>'", "a new key")
                .replace("'<block sequence start>'", "a list item")
                .replace("'<block end>'", "the end of a block")
                .replace("<block end>", "the end of a block")
                .replace("'<scalar>'", "a value")
                .replace("<stream end>", "the end of the file")
                .replace("'<document start>'", "a new document")
                .replace("but found", "found");
    }
}

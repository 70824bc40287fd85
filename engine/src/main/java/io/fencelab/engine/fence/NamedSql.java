package io.fencelab.engine.fence;

import java.util.ArrayList;
import java.util.List;

/**
 * One statement of the user's with its {@code :name} parameters ({@link SqlFence#PARAMETERS}) found
 * and rewritten: as JDBC text ({@code ?} per occurrence, a literal {@code ?} doubled so the driver
 * leaves it alone) and as numbered text ({@code $1}, {@code $2}, ... for {@code PREPARE}), with a map
 * from every character of the numbered text back to the user's, so that an error position PostgreSQL
 * reports becomes the file's line and column. Names are looked for outside string literals, quoted
 * identifiers, comments and dollar quotes, and a {@code ::} cast is not a name.
 */
final class NamedSql {

    private final SqlText source;
    private final String jdbc;
    private final String numbered;
    private final int[] numberedToSource;
    private final List<String> names;
    /** Where the statement ends in the user's text (a trailing semicolon and blanks left out). */
    private final int end;

    private NamedSql(SqlText source, String jdbc, String numbered, int[] numberedToSource, List<String> names,
                     int end) {
        this.end = end;
        this.source = source;
        this.jdbc = jdbc;
        this.numbered = numbered;
        this.numberedToSource = numberedToSource;
        this.names = List.copyOf(names);
    }

    /**
     * Reads one statement ({@code role} names it in errors: {@code write}, {@code read}). A trailing
     * semicolon is allowed; a second statement is not.
     *
     * @throws SqlFenceException located at an unknown {@code :name} or at a second statement
     */
    static NamedSql parse(SqlText text, String target, String role) {
        String sql = text.sql();
        int end = sql.length();
        while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
            end--;
        }
        String body = sql.substring(0, end);
        StringBuilder jdbc = new StringBuilder();
        StringBuilder numbered = new StringBuilder();
        List<Integer> map = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int[] copied = {0};
        java.util.Set<Integer> questions = new java.util.HashSet<>();
        scan(body, new Visitor() {
            @Override
            public void code(int at) {
                if (body.charAt(at) == '?') {
                    questions.add(at);
                }
            }

            @Override
            public void parameter(int start, int stop) {
                String name = body.substring(start + 1, stop);
                if (!SqlFence.PARAMETERS.contains(name)) {
                    throw new SqlFenceException(text.locate(start) + ": target " + target + ": " + role
                            + " uses :" + name + ", which Fencelab does not bind; allowed: " + allowed());
                }
                copy(copied[0], start);
                names.add(name);
                jdbc.append('?');
                String n = "$" + names.size();
                numbered.append(n);
                for (int i = 0; i < n.length(); i++) {
                    map.add(start);
                }
                copied[0] = stop;
            }

            @Override
            public void semicolon(int at) {
                throw new SqlFenceException(text.locate(at) + ": target " + target + ": " + role
                        + " holds more than one statement; give the statements of a check-then-write as a list");
            }

            private void copy(int from, int to) {
                for (int i = from; i < to; i++) {
                    char c = body.charAt(i);
                    jdbc.append(c);
                    if (c == '?' && questions.contains(i)) {
                        jdbc.append('?'); // an operator of the user's; ? inside a literal stays as written
                    }
                    numbered.append(c);
                    map.add(i);
                }
            }

            @Override
            public void done() {
                copy(copied[0], body.length());
            }
        });
        int[] toSource = map.stream().mapToInt(Integer::intValue).toArray();
        return new NamedSql(text, jdbc.toString(), numbered.toString(), toSource, names, body.length());
    }

    /** {@code :token, :key, :scope, :body, :seq}. */
    static String allowed() {
        return String.join(", ", SqlFence.PARAMETERS.stream().map(p -> ":" + p).toList());
    }

    /**
     * The top-level statements of a script ({@code schema}, {@code setup}) with their offsets, so that
     * each can be sent alone and an error in it located in the file.
     */
    static List<Piece> statements(String sql) {
        List<Piece> pieces = new ArrayList<>();
        int[] start = {0};
        scan(sql, new Visitor() {
            /** Inside a SQL-standard function body ({@code BEGIN ATOMIC ... END}), whose semicolons are its own. */
            private int atomic;
            private int cases;
            private String previous = "";

            @Override
            public void code(int at) {
                String word = wordAt(sql, at);
                if (word.isEmpty()) {
                    return;
                }
                if (word.equals("ATOMIC") && previous.equals("BEGIN")) {
                    atomic++;
                } else if (atomic > 0 && word.equals("CASE")) {
                    cases++;
                } else if (atomic > 0 && word.equals("END")) {
                    if (cases > 0) {
                        cases--;
                    } else {
                        atomic--;
                    }
                }
                previous = word;
            }

            @Override
            public void semicolon(int at) {
                if (atomic > 0) {
                    return;
                }
                add(start[0], at);
                start[0] = at + 1;
            }

            @Override
            public void done() {
                add(start[0], sql.length());
            }

            private void add(int from, int to) {
                int a = from;
                while (a < to && Character.isWhitespace(sql.charAt(a))) {
                    a++;
                }
                if (a < to && !onlyComments(sql.substring(a, to))) {
                    pieces.add(new Piece(a, sql.substring(a, to)));
                }
            }
        });
        return pieces;
    }

    /** The keyword starting at {@code at}, upper case; empty when no letter starts there. */
    private static String wordAt(String sql, int at) {
        int end = at;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
            end++;
        }
        return end == at || !Character.isLetter(sql.charAt(at)) ? ""
                : sql.substring(at, end).toUpperCase(java.util.Locale.ROOT);
    }

    /** A statement of a script and where it starts in it. */
    record Piece(int offset, String sql) {}

    private static boolean onlyComments(String sql) {
        boolean[] code = {false};
        scan(sql, new Visitor() {
            @Override
            public void code(int at) {
                code[0] = true;
            }
        });
        return !code[0];
    }

    SqlText source() {
        return source;
    }

    /** The statement for a JDBC {@code PreparedStatement}: one {@code ?} per name, in {@link #names()} order. */
    String jdbc() {
        return jdbc;
    }

    /** The statement with {@code $n} in place of the names, for {@code PREPARE}. */
    String numbered() {
        return numbered;
    }

    /** Each occurrence's name, in order: the i-th {@code ?} binds {@code names().get(i)}. */
    List<String> names() {
        return names;
    }

    boolean uses(String name) {
        return names.contains(name);
    }

    /** {@code file:line:column} of the character at {@code offset} (from 0) of {@link #numbered()}. */
    String locateNumbered(int offset) {
        if (offset >= numberedToSource.length) {
            // "at end of input": just after the statement's last character
            return source.locate(end + offset - numberedToSource.length);
        }
        return source.locate(numberedToSource[Math.max(0, offset)]);
    }

    /** The first keyword, upper case: tells a query from a command. */
    String firstWord() {
        String[] word = {null};
        scan(numbered, new Visitor() {
            @Override
            public void code(int at) {
                if (word[0] == null) {
                    String w = wordAt(numbered, at);
                    word[0] = w.isEmpty() ? numbered.substring(at, at + 1) : w;
                }
            }
        });
        return word[0] == null ? "" : word[0];
    }

    /** What the scanner reports; every method does nothing unless overridden. */
    interface Visitor {
        /** A {@code :name} from {@code start} (the colon) to {@code stop} (exclusive). */
        default void parameter(int start, int stop) {
        }

        /** A {@code ;} outside literals and comments. */
        default void semicolon(int at) {
        }

        /** A character of code (not whitespace, comment or inside a literal's quotes) starts at {@code at}. */
        default void code(int at) {
        }

        default void done() {
        }
    }

    /**
     * Walks {@code sql} as PostgreSQL's lexer would for what matters here: {@code '...'} (with
     * {@code ''}, and backslash escapes after {@code E}), {@code "..."}, {@code -- ...},
     * nested {@code /* ... *}{@code /}, {@code $tag$ ... $tag$}, and {@code ::}.
     */
    static void scan(String sql, Visitor v) {
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            char next = i + 1 < n ? sql.charAt(i + 1) : '\0';
            if (c == '-' && next == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && next == '*') {
                i = skipBlockComment(sql, i);
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'') {
                v.code(i);
                boolean escapes = i > 0 && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e')
                        && (i < 2 || !identifierChar(sql.charAt(i - 2)));
                i = skipQuoted(sql, i, '\'', escapes);
            } else if (c == '"') {
                v.code(i);
                i = skipQuoted(sql, i, '"', false);
            } else if (c == '$' && (i == 0 || !identifierChar(sql.charAt(i - 1))) && dollarTagEnd(sql, i) > 0) {
                v.code(i);
                int tagEnd = dollarTagEnd(sql, i);
                String tag = sql.substring(i, tagEnd + 1);
                int close = sql.indexOf(tag, tagEnd + 1);
                i = close < 0 ? n : close + tag.length();
            } else if (c == ':' && next == ':') {
                v.code(i);
                i += 2;
            } else if (c == ':' && (Character.isLetter(next) || next == '_')) {
                v.code(i);
                int stop = i + 1;
                while (stop < n && identifierChar(sql.charAt(stop))) {
                    stop++;
                }
                v.parameter(i, stop);
                i = stop;
            } else if (c == ';') {
                v.semicolon(i);
                i++;
            } else if (identifierChar(c)) {
                v.code(i);
                while (i < n && identifierChar(sql.charAt(i))) {
                    i++;
                }
            } else {
                v.code(i);
                i++;
            }
        }
        v.done();
    }

    private static boolean identifierChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** The index of the closing {@code $} of a dollar-quote tag opening at {@code i}, or -1 if none opens there. */
    private static int dollarTagEnd(String sql, int i) {
        int j = i + 1;
        if (j < sql.length() && Character.isDigit(sql.charAt(j))) {
            return -1; // $1 is a positional parameter, not a quote
        }
        while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
            j++;
        }
        return j < sql.length() && sql.charAt(j) == '$' ? j : -1;
    }

    private static int skipBlockComment(String sql, int i) {
        int depth = 0;
        int n = sql.length();
        while (i < n) {
            if (sql.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (sql.startsWith("*/", i)) {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    private static int skipQuoted(String sql, int i, char quote, boolean backslashEscapes) {
        int n = sql.length();
        i++;
        while (i < n) {
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return n;
    }
}

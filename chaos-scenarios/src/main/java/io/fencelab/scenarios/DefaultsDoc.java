package io.fencelab.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes {@link Defaults} into {@code docs/SCENARIOS.md}, so the documentation cannot drift from the
 * compiler:
 *
 * <ul>
 *   <li>the table between {@value #BEGIN} and {@value #END} (every key, its default, what it accepts
 *       and what it means) is generated whole;</li>
 *   <li>each section's key table, marked by a {@code <!-- keys -->} line (or {@code <!-- keys: workers[] -->}
 *       when its rows name keys inside a list item) above it, keeps its own words, and its default column
 *       is rewritten from the table. A row naming a key the format does not have, or a key documented in
 *       no section, is an error to fix by hand.</li>
 * </ul>
 *
 * <p>Run {@code main} (argument: the file, default {@code docs/SCENARIOS.md}) to rewrite the file;
 * {@code DefaultsDocTest} fails while the file differs from what this writes.
 */
public final class DefaultsDoc {

    static final String BEGIN = "<!-- BEGIN generated from Defaults by DefaultsDoc: do not edit -->";
    static final String END = "<!-- END generated -->";

    private static final Pattern MARKER = Pattern.compile("<!-- keys(?:: (\\S+))? -->");
    private static final Pattern ROW = Pattern.compile("\\| `([^`]+)` \\| (.*?) \\| (.*)");

    private DefaultsDoc() {
    }

    public static void main(String[] args) throws IOException {
        Path doc = Path.of(args.length > 0 ? args[0] : "docs/SCENARIOS.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        String updated = update(text);
        if (updated.equals(text)) {
            System.out.println(doc + " is up to date with Defaults");
        } else {
            Files.writeString(doc, updated, StandardCharsets.UTF_8);
            System.out.println(doc + " rewritten from Defaults");
        }
    }

    /** How a key's default reads in a table cell: {@code `0s`}, or words such as {@code required}. */
    static String cell(Defaults.Key<?> key) {
        return key.literal() ? "`" + key.written() + "`" : key.written();
    }

    /** The generated reference table: every key of the format, parents before children. */
    static String table() {
        StringBuilder t = new StringBuilder("| key | default | accepts | meaning |\n|---|---|---|---|\n");
        for (Defaults.Key<?> k : Defaults.all()) {
            t.append("| `").append(k.path()).append("` | ").append(cell(k)).append(" | ").append(k.allowed())
                    .append(" | ").append(k.meaning()).append(" |\n");
        }
        return t.toString();
    }

    /**
     * The keys the section tables document, by path, with the default cell each row shows, in document
     * order.
     *
     * @throws IllegalStateException if a row names no key of the format, or a key twice
     */
    static Map<String, String> documented(String doc) {
        Map<String, String> rows = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        eachRow(doc, (path, row) -> {
            if (Defaults.at(path).isEmpty()) {
                problems.add("a row documents " + path + ", which is not a key of the format (Defaults)");
            } else if (rows.put(path, row.group(2)) != null) {
                problems.add(path + " is documented twice");
            }
            return row.group(0);
        });
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("\n", problems));
        }
        return rows;
    }

    /** Keys that hold other keys ({@code lease}, {@code workers}, {@code targets}) may be told in prose; every other key needs a row. */
    static List<String> undocumented(String doc) {
        Map<String, String> rows = documented(doc);
        return Defaults.all().stream().map(Defaults.Key::path)
                .filter(p -> !rows.containsKey(p))
                .filter(p -> Defaults.all().stream().noneMatch(k -> k.parent().equals(p)
                        || k.parent().equals(p + "[]") || k.parent().equals(p + ".*")))
                .toList();
    }

    /**
     * {@code doc} with the generated table and every section's default column rewritten from
     * {@link Defaults}.
     *
     * @throws IllegalStateException if a row names no key of the format, a key is documented in no
     *                               section, or the generated table's markers are missing
     */
    static String update(String doc) {
        List<String> missing = undocumented(doc);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("no section of the doc documents " + String.join(", ", missing)
                    + "; add a row for each to the section's key table");
        }
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException("the doc has no place for the generated table: a line " + BEGIN
                    + ", later a line " + END);
        }
        String generated = doc.substring(0, begin + BEGIN.length()) + "\n" + table() + doc.substring(end);
        return eachRow(generated, (path, row) -> "| `" + row.group(1) + "` | " + cell(Defaults.at(path).orElseThrow())
                + " | " + row.group(3));
    }

    private interface RowEdit {
        String apply(String path, Matcher row);
    }

    /** Calls {@code edit} on each row of each marked table, with the row's key path; returns the doc with the rows it gives. */
    private static String eachRow(String doc, RowEdit edit) {
        StringBuilder out = new StringBuilder();
        String prefix = null;
        boolean inTable = false;
        for (String line : doc.split("\n", -1)) {
            Matcher marker = MARKER.matcher(line.strip());
            Matcher row = ROW.matcher(line);
            if (marker.matches()) {
                prefix = marker.group(1) == null ? "" : marker.group(1) + ".";
                inTable = false;
            } else if (prefix != null && line.startsWith("|")) {
                inTable = true;
                if (row.matches()) {
                    line = edit.apply(prefix + row.group(1), row);
                }
            } else if (inTable) {
                prefix = null;
                inTable = false;
            }
            out.append(line).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }
}

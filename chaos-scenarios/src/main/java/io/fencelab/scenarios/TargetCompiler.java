package io.fencelab.scenarios;

import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.OutcomeRule;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a scenario's {@code targets:} section: the fences the user defines in SQL. Each SQL text keeps
 * the file, line and column of its first character, so an error PostgreSQL reports at a position in
 * the statement can be told at the file's own line and column. The SQL itself is checked by the
 * database when the run's scratch schema is made (engine {@code ScratchSchema}); here only the shape of
 * the entry is.
 */
final class TargetCompiler {

    static final List<String> TARGET = Defaults.keysOf("targets.*");

    /** A name that is safe in a resource key ({@code report:17}), a log line and a file name. */
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]*");
    private static final String IDENT = "(?:[A-Za-z_][A-Za-z0-9_$]*|\"(?:[^\"]|\"\")+\")";
    /** {@code schema.table} or {@code schema.function(argument types)}. */
    private static final Pattern COPIED = Pattern.compile(IDENT + "\\." + IDENT + "(?:\\s*\\([^()]*\\))?");
    private static final String KIND = "SQL";

    /**
     * The section read.
     *
     * @param fences the fences read without a problem, in file order
     * @param names  every name the section declares, read well or not, so a write naming a broken
     *               target is not reported a second time as naming no target
     */
    record Targets(List<SqlFence> fences, Set<String> names) {
        static final Targets NONE = new Targets(List.of(), Set.of());
    }

    private final Problems problems;
    private final ValueReader read;
    /** The file's lines, to find where a block scalar's text starts (the parser marks its indicator). */
    private final List<String> lines;

    TargetCompiler(Problems problems, ValueReader read, String text) {
        this.problems = problems;
        this.read = read;
        this.lines = Arrays.asList(text.split("\r?\n", -1));
    }

    Targets targets(Fields top) {
        YamlNode node = top.node("targets");
        if (node == null) {
            return Targets.NONE;
        }
        if (!(node instanceof YamlNode.Mapping mapping)) {
            read.problem(node, "targets", "expected a mapping of target name to its definition "
                    + "(report: {kind: SQL, schema: …, write: …, accepted: rows = 1, read: …}), got " + node.describe());
            return Targets.NONE;
        }
        if (mapping.fields().isEmpty()) {
            read.problem(node, "targets", "names no target; leave the section out, or define one");
        }
        List<SqlFence> fences = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (YamlNode.Field f : mapping.fields().values()) {
            String path = "targets." + Texts.abbreviate(f.key());
            names.add(f.key());
            if (!NAME.matcher(f.key()).matches()) {
                problems.add(f.keyMark(), path, "'" + Texts.abbreviate(f.key()) + "' is not a target name "
                        + "(a lower-case letter, then lower-case letters, digits, _ or -: report, report_v2)");
                continue;
            }
            if (Arrays.stream(TargetKind.values()).anyMatch(k -> k.name().equalsIgnoreCase(f.key()))) {
                problems.add(f.keyMark(), path, "'" + f.key() + "' is the name of a built-in target kind ("
                        + builtIns() + "); choose another name");
                continue;
            }
            SqlFence fence = fence(f.key(), f.value(), path);
            if (fence != null) {
                fences.add(fence);
            }
        }
        return new Targets(fences, names);
    }

    static String builtIns() {
        return String.join(", ", TargetKind.BUILT_IN.stream().map(Enum::name).toList());
    }

    private SqlFence fence(String name, YamlNode node, String path) {
        Fields t = read.fields(node, path, TARGET);
        if (t == null) {
            return null;
        }
        int before = problems.list().size();
        String kind = t.requiredText("kind", "kind: SQL");
        if (kind != null && !kind.equalsIgnoreCase(KIND)) {
            read.problem(t.node("kind"), t.path("kind"), "'" + Texts.abbreviate(kind) + "' is not a target kind "
                    + "(allowed: " + KIND + ")");
        }
        SqlText schema = t.has("schema") ? sql(t.node("schema"), t.path("schema")) : null;
        List<String> copyFrom = t.has("copyFrom") ? copyFrom(t.node("copyFrom"), t.path("copyFrom")) : List.of();
        if (t.has("schema") == t.has("copyFrom")) {
            YamlNode at = t.has("copyFrom") ? t.node("copyFrom") : t.mapping();
            read.problem(at, t.has("copyFrom") ? t.path("copyFrom") : t.path("schema"), t.has("schema")
                    ? "give schema or copyFrom, not both: the target's objects come from one of them"
                    : "missing: schema (DDL run in the scratch schema) or copyFrom (existing tables and functions to "
                    + "copy there), exactly one");
        }
        SqlText setup = t.has("setup") ? sql(t.node("setup"), t.path("setup")) : null;
        List<SqlText> write = write(t.required("write", "write: UPDATE … WHERE … AND fencing_token <= :token"),
                t.path("write"));
        OutcomeRule outcome = outcome(t);
        YamlNode readNode = t.required("read", "read: SELECT fencing_token AS token, body FROM … WHERE id = :key");
        SqlText readBack = readNode == null ? null : sql(readNode, t.path("read"));
        // Written in lower case (equalToken: accept), as the table shows them.
        EqualToken equalToken = t.has("equalToken") ? read.choice(t.node("equalToken"), t.path("equalToken"),
                EqualToken.class, true) : Defaults.TARGET_EQUAL_TOKEN.value();
        FirstWritePolicy firstWrite = t.has("firstWrite") ? read.choice(t.node("firstWrite"), t.path("firstWrite"),
                FirstWritePolicy.class, true) : Defaults.TARGET_FIRST_WRITE.value();
        if (problems.list().size() > before) {
            return null;
        }
        return new SqlFence(name, schema, copyFrom, setup, write, outcome, readBack, equalToken, firstWrite);
    }

    /** The write: one statement, or several in order (check-then-write). */
    private List<SqlText> write(YamlNode node, String path) {
        if (node == null) {
            return null;
        }
        if (!(node instanceof YamlNode.Sequence sequence)) {
            SqlText one = sql(node, path);
            return one == null ? null : List.of(one);
        }
        if (sequence.items().isEmpty()) {
            read.problem(node, path, "needs at least one statement");
            return null;
        }
        List<SqlText> statements = new ArrayList<>();
        for (int i = 0; i < sequence.items().size(); i++) {
            statements.add(sql(sequence.items().get(i), path + "[" + i + "]"));
        }
        return statements.contains(null) ? null : statements;
    }

    /** accepted, stale and missing, each a condition on the answer, read the same way and consistent. */
    private OutcomeRule outcome(Fields t) {
        YamlNode acceptedNode = t.required("accepted", "accepted: rows = 1");
        OutcomeRule.Condition accepted = acceptedNode == null ? null : condition(acceptedNode, t.path("accepted"));
        OutcomeRule.Condition stale = t.has("stale") ? condition(t.node("stale"), t.path("stale")) : null;
        OutcomeRule.Condition missing = t.has("missing") ? condition(t.node("missing"), t.path("missing")) : null;
        if (accepted instanceof OutcomeRule.Condition.SqlState) {
            read.problem(acceptedNode, t.path("accepted"), "a statement that fails has written nothing, so an "
                    + "error cannot mean accepted; read accepted from the affected rows or a returned value");
            return null;
        }
        boolean fits = fits(t, "stale", stale, accepted) & fits(t, "missing", missing, accepted);
        if (stale != null && stale.equals(missing)) {
            read.problem(t.node("missing"), t.path("missing"), "'" + missing + "' is also stale's rule; stale and "
                    + "missing must read differently, or leave missing out");
            fits = false;
        }
        return accepted == null || !fits ? null : new OutcomeRule(accepted, stale, missing);
    }

    /** Whether {@code key}'s condition reads the answer as accepted does (rows with rows, a result with a result). */
    private boolean fits(Fields t, String key, OutcomeRule.Condition c, OutcomeRule.Condition accepted) {
        if (c == null || accepted == null || c instanceof OutcomeRule.Condition.SqlState) {
            return true;
        }
        if (c.equals(accepted)) {
            read.problem(t.node(key), t.path(key), "'" + c + "' is also accepted's rule; the two could not be told "
                    + "apart");
            return false;
        }
        if (c.getClass() != accepted.getClass()) {
            boolean rows = accepted instanceof OutcomeRule.Condition.Rows;
            read.problem(t.node(key), t.path(key), "accepted reads " + (rows ? "the affected-row count" : "a returned "
                    + "value") + " (" + accepted + "), so " + key + " must read " + (rows ? "it" : "one") + " too, or "
                    + "an error (sqlstate = 'P0001'); got '" + c + "'");
            return false;
        }
        return true;
    }

    private OutcomeRule.Condition condition(YamlNode node, String path) {
        String text = node instanceof YamlNode.Scalar s && s.kind() != YamlNode.ScalarKind.NULL ? s.text() : null;
        OutcomeRule.Condition c = OutcomeRule.parse(text).orElse(null);
        if (c == null) {
            read.problem(node, path, (text == null ? "expected a rule, got " + node.describe()
                    : "'" + Texts.abbreviate(text.strip()) + "' is not a rule") + " (allowed: " + OutcomeRule.ALLOWED + ")");
        }
        return c;
    }

    private List<String> copyFrom(YamlNode node, String path) {
        List<YamlNode> items = read.list(node, path, "tables and functions (public.report_state, "
                + "public.fence_write(bigint, bigint, text))");
        if (items == null) {
            return List.of();
        }
        if (items.isEmpty()) {
            read.problem(node, path, "names nothing to copy; name at least one table or function");
        }
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String p = path + "[" + i + "]";
            YamlNode at = items.get(i);
            String name = read.name(at, p);
            // In a one-line list the commas of a function's argument types split it into items
            // ([public.f(bigint, text)]): an item that opens a parenthesis takes the items up to the one that closes it.
            while (name != null && name.indexOf('(') >= 0 && name.indexOf(')') < 0 && i + 1 < items.size()) {
                String next = read.name(items.get(++i), path + "[" + i + "]");
                name = next == null ? null : name + ", " + next;
            }
            if (name == null) {
                continue;
            }
            if (!COPIED.matcher(name).matches()) {
                read.problem(at, p, "'" + Texts.abbreviate(name) + "' is not schema.table or "
                        + "schema.function(argument types) (for example public.report_state, "
                        + "public.fence_write(bigint, bigint, text))");
            } else if (!names.add(name)) {
                read.problem(at, p, "'" + Texts.abbreviate(name) + "' is named twice");
            }
        }
        return List.copyOf(names);
    }

    /** SQL as written (not stripped: its positions count), where its first character stands in the file. */
    private SqlText sql(YamlNode node, String path) {
        if (!(node instanceof YamlNode.Scalar s) || s.kind() != YamlNode.ScalarKind.STRING) {
            read.problem(node, path, "expected SQL text (a block: '|' and the SQL on the lines below), got "
                    + node.describe());
            return null;
        }
        if (s.text().isBlank()) {
            read.problem(node, path, "must not be empty");
            return null;
        }
        String refused = ValueReader.refusedCharacter(s.text(), false);
        if (refused != null) {
            read.problem(node, path, refused);
            return null;
        }
        YamlNode.Mark at = start(s);
        return new SqlText(s.text(), problems.file(), at.line(), at.column());
    }

    /**
     * Where a scalar's text starts. The parser marks a scalar's first character, which for a block
     * ({@code |} or {@code >}) is the indicator and for a quoted text the quote: a block's text starts on
     * the next line, at the column its first line's text starts; a quoted text one column on.
     */
    private YamlNode.Mark start(YamlNode.Scalar s) {
        YamlNode.Mark m = s.mark();
        String line = m.line() <= lines.size() ? lines.get(m.line() - 1) : "";
        char first = m.column() <= line.length() ? line.charAt(m.column() - 1) : ' ';
        if (first == '"' || first == '\'') {
            return new YamlNode.Mark(m.line(), m.column() + 1);
        }
        if (first != '|' && first != '>') {
            return m;
        }
        // Leading blank lines are part of a block's text; its column is that of the first line with text.
        String[] text = first == '|' ? s.text().split("\n", -1) : new String[0];
        for (int i = 0; i < text.length && m.line() + i < lines.size(); i++) {
            String raw = lines.get(m.line() + i);
            if (!text[i].isEmpty() && raw.endsWith(text[i])) {
                return new YamlNode.Mark(m.line() + 1, raw.length() - text[i].length() + 1);
            }
        }
        // A folded block (>) joins its lines: its text starts where the first line with text is indented to.
        for (int i = m.line(); i < lines.size(); i++) {
            String raw = lines.get(i);
            if (!raw.isBlank()) {
                return new YamlNode.Mark(m.line() + 1, raw.length() - raw.stripLeading().length() + 1);
            }
        }
        return new YamlNode.Mark(m.line() + 1, 1);
    }
}

package io.fencelab.engine.fence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fence's {@code copyFrom}: the user's own table (with its constraints, defaults, indexes and
 * triggers, {@code LIKE ... INCLUDING ALL}) and functions ({@code pg_get_functiondef}) copied into
 * the scratch schema, so the statement under test meets the real definitions while nothing outside
 * the scratch schema is written. A trigger's function comes along with its table. References to a
 * copied object by its qualified name ({@code public.report_state}) in a copied definition are moved
 * to the copy, and a function's own {@code SET search_path} becomes the scratch schema.
 */
final class CopiedObjects {

    /** One object to copy: its oid, quoted schema and name, and whether it is a table. */
    private record Source(String spec, long oid, String schema, String name, boolean table) {
        String qualified() {
            return schema + "." + name;
        }
    }

    private final String fence;
    private final String file;
    private final List<Source> sources;

    private CopiedObjects(String fence, String file, List<Source> sources) {
        this.fence = fence;
        this.file = file;
        this.sources = sources;
    }

    /**
     * Finds every object of {@code fence.copyFrom()} in the database, as the connection's own
     * {@code search_path} names them. Runs outside a transaction: a name PostgreSQL cannot read fails
     * alone.
     *
     * @throws SqlFenceException naming the first object that is not there, or not a table or function
     * @throws io.fencelab.engine.db.DatabaseException when the connection fails
     */
    static CopiedObjects find(Connection c, SqlFence fence) {
        List<Source> found = new ArrayList<>();
        String file = fence.read().file();
        for (String spec : fence.copyFrom()) {
            boolean function = spec.contains("(");
            String sql = function
                    ? "SELECT p.oid, quote_ident(n.nspname), quote_ident(p.proname), p.prokind IN ('f', 'p') "
                    + "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE p.oid = to_regprocedure(?)"
                    : "SELECT c.oid, quote_ident(n.nspname), quote_ident(c.relname), c.relkind IN ('r', 'p') "
                    + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass(?)";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, spec);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new SqlFenceException(file + ": target " + fence.name() + ": copyFrom " + spec
                                + ": no such " + (function ? "function (name and argument types, as public.f(bigint, text))"
                                : "table") + " in the database");
                    }
                    if (!rs.getBoolean(4)) {
                        throw new SqlFenceException(file + ": target " + fence.name() + ": copyFrom " + spec
                                + ": not a " + (function ? "function or procedure" : "table"));
                    }
                    found.add(new Source(spec, rs.getLong(1), rs.getString(2), rs.getString(3), !function));
                }
            } catch (SQLException e) {
                if (SqlChecks.isConnectionLoss(e)) {
                    throw io.fencelab.engine.db.DatabaseException.from(e); // the database, not the name
                }
                throw new SqlFenceException(file + ": target " + fence.name() + ": copyFrom " + spec + ": "
                        + SqlChecks.serverMessage(e));
            }
        }
        return new CopiedObjects(fence.name(), file, found);
    }

    /**
     * Creates the copies in {@code scratch} (quoted), inside the caller's transaction whose
     * {@code search_path} is the scratch schema alone (so every definition read here names its
     * source objects with their schema).
     */
    void create(Connection c, String scratch) throws SQLException {
        Map<String, String> moved = new LinkedHashMap<>();
        List<Long> functions = new ArrayList<>();
        for (Source s : sources) {
            moved.put(s.qualified(), scratch + "." + s.name());
            if (!s.table()) {
                functions.add(s.oid());
            }
        }
        List<String> triggers = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            st.setEscapeProcessing(false);
            for (Source s : sources) {
                if (s.table()) {
                    run(st, s, "CREATE TABLE " + scratch + "." + s.name() + " (LIKE " + s.qualified() + " INCLUDING ALL)");
                    ownSequences(c, st, s, scratch);
                    triggers.addAll(triggersOf(c, s, functions, moved, scratch));
                }
            }
            for (long oid : functions) {
                Source s = sources.stream().filter(x -> !x.table() && x.oid() == oid).findFirst()
                        .orElse(new Source("trigger function", oid, null, null, false));
                String copy = functionCopy(c, oid, scratch, moved);
                refuseOutsideNames(copy, s);
                run(st, s, copy);
            }
            for (String trigger : triggers) {
                run(st, sources.get(0), trigger);
            }
        }
    }

    /** The table's own triggers, moved to its copy; each trigger's function joins {@code functions}. */
    private static List<String> triggersOf(Connection c, Source table, List<Long> functions, Map<String, String> moved,
                                           String scratch) throws SQLException {
        List<String> defs = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_get_triggerdef(t.oid), t.tgfoid, "
                + "quote_ident(n.nspname) || '.' || quote_ident(p.proname), n.nspname = 'pg_catalog' "
                + "FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_namespace n ON n.oid = p.pronamespace "
                + "WHERE t.tgrelid = ? AND NOT t.tgisinternal ORDER BY t.tgname")) {
            ps.setLong(1, table.oid());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long fn = rs.getLong(2);
                    if (!rs.getBoolean(4)) {
                        if (!functions.contains(fn)) {
                            functions.add(fn);
                        }
                        String qualified = rs.getString(3);
                        moved.putIfAbsent(qualified, scratch + qualified.substring(qualified.indexOf('.')));
                    }
                    defs.add(rs.getString(1));
                }
            }
        }
        List<String> movedDefs = new ArrayList<>();
        for (String def : defs) {
            movedDefs.add(moveReferences(def, moved));
        }
        return movedDefs;
    }

    private static final Pattern SEARCH_PATH = Pattern.compile("(?im)^\\s*SET search_path (?:TO|=) .*$");

    /** A function's definition, created in the scratch schema, its references to copied objects moved. */
    private static String functionCopy(Connection c, long oid, String scratch, Map<String, String> moved)
            throws SQLException {
        String def;
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_get_functiondef(?::oid)")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                def = rs.getString(1);
            }
        }
        int body = def.indexOf("\nAS ");
        if (body < 0) {
            body = def.length(); // a SQL-standard body (BEGIN ATOMIC, RETURN): no search_path of its own to move
        }
        // The copy must look its names up in the scratch schema, not where the original does.
        String header = SEARCH_PATH.matcher(def.substring(0, body))
                .replaceAll(Matcher.quoteReplacement(" SET search_path TO " + scratch));
        return moveReferences(header + def.substring(body), moved);
    }

    /**
     * A default that draws from a sequence outside the scratch schema ({@code serial}: {@code nextval}
     * of the original's sequence) would advance the user's sequence: the copy gets a sequence of its own.
     */
    private void ownSequences(Connection c, Statement st, Source table, String scratch) throws SQLException {
        List<String[]> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT quote_ident(a.attname), quote_ident(s.relname) "
                + "FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum "
                + "JOIN pg_depend dep ON dep.classid = 'pg_attrdef'::regclass AND dep.objid = d.oid "
                + "  AND dep.refclassid = 'pg_class'::regclass "
                + "JOIN pg_class s ON s.oid = dep.refobjid AND s.relkind = 'S' "
                + "WHERE d.adrelid = (?::text)::regclass AND s.relnamespace <> (?::text)::regnamespace")) {
            ps.setString(1, scratch + "." + table.name());
            ps.setString(2, scratch);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
        }
        for (String[] column : columns) {
            String sequence = scratch + "." + column[1];
            run(st, table, "CREATE SEQUENCE IF NOT EXISTS " + sequence);
            run(st, table, "ALTER TABLE " + scratch + "." + table.name() + " ALTER COLUMN " + column[0]
                    + " SET DEFAULT nextval('" + sequence.replace("'", "''") + "'::regclass)");
        }
    }

    /**
     * A copied function that still names its own schema ({@code public.audit}) after the copied objects
     * were moved would write outside the scratch schema: refused, naming what to add to {@code copyFrom}.
     */
    private void refuseOutsideNames(String definition, Source function) {
        for (Source s : sources) {
            Matcher m = Pattern.compile("(?<![\\w$\"])" + Pattern.quote(s.schema()) + "\\.(\"?[\\w$]+\"?)")
                    .matcher(definition);
            if (m.find()) {
                String named = s.schema() + "." + m.group(1);
                throw new SqlFenceException(file + ": target " + fence + ": copyFrom " + function.spec()
                        + ": it names " + named + ", outside the scratch schema; add " + named
                        + " to copyFrom so that the copy uses a copy (Fencelab writes nowhere else)");
            }
        }
    }

    /** {@code sql} with every whole {@code schema.name} of {@code moved} replaced by its copy's name. */
    private static String moveReferences(String sql, Map<String, String> moved) {
        String out = sql;
        for (Map.Entry<String, String> e : moved.entrySet()) {
            Pattern p = Pattern.compile("(?<![\\w$\"])" + Pattern.quote(e.getKey()) + "(?![\\w$])");
            out = p.matcher(out).replaceAll(Matcher.quoteReplacement(e.getValue()));
        }
        return out;
    }

    private void run(Statement st, Source s, String sql) throws SQLException {
        try {
            st.execute(sql);
        } catch (SQLException e) {
            if (SqlChecks.isConnectionLoss(e)) {
                throw e;
            }
            throw new SqlFenceException(file + ": target " + fence + ": copyFrom " + s.spec() + ": could not copy it: "
                    + SqlChecks.serverMessage(e));
        }
    }
}

package io.fencelab.engine.probe;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.ReadBack;
import io.fencelab.engine.fence.ScratchSchema;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.UserFences;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;

/**
 * Tries the design note's checklist against the user's own SQL fences, each item on a fresh scratch
 * schema ({@code fencelab_probe<n>_<fence>_<item>}, dropped after unless kept), and gives a verdict
 * per item with a witness for every failure. Every statement of the user's runs with
 * {@code search_path} set to the item's scratch schema alone; outside it the probe writes only
 * Fencelab's own lease tables (the leases of its holders).
 */
public final class Probe {

    /** A key the probe writes to find out what the fence does with a key that has no row. */
    static final long ABSENT_KEY = 987_654_321L;

    private final Database database;
    private final UserFences fences;
    private final RunSpec spec;
    private final ProbeOptions options;
    private long runId = -1;

    /** Tries every checklist item against every fence of {@code fences}, on {@code database}. */
    public Probe(Database database, UserFences fences, ProbeOptions options) {
        this(database, fences, null, options);
    }

    /**
     * Tries the checklist against the fences of a scenario's {@code spec}: each fence's key and scope
     * are the first its workers write (without workers: key {@value ProbeSubject#DEFAULT_KEY}, scope
     * {@value ProbeSubject#DEFAULT_SCOPE}).
     */
    public Probe(Database database, RunSpec spec, ProbeOptions options) {
        this(database, spec.userFences(), spec, options);
    }

    private Probe(Database database, UserFences fences, RunSpec spec, ProbeOptions options) {
        if (fences.isEmpty()) {
            throw new IllegalArgumentException("nothing to probe: no user fences (a targets: section of kind SQL)");
        }
        this.database = database;
        this.fences = fences;
        this.spec = spec;
        this.options = options;
    }

    /** The scratch schemas' common prefix, {@code fencelab_probe<n>_}: the only schemas the probe writes in. */
    public synchronized String scratchSchemas() {
        return "fencelab_" + labelPrefix();
    }

    /**
     * Where the probe runs, as the report names it: {@code embedded PostgreSQL 17.6}, or the server's
     * URL without its parameters or user info (no user name, no password) and its version.
     */
    public String databaseName() {
        if (database.isEmbedded()) {
            return "embedded PostgreSQL " + database.serverVersion();
        }
        String url = database.config().jdbcUrl().orElseThrow();
        int query = url.indexOf('?');
        String bare = (query < 0 ? url : url.substring(0, query)).replaceFirst("//[^/@]*@", "//");
        return DatabaseConfig.shown(bare) + " (PostgreSQL " + database.serverVersion() + ")";
    }

    /** The file the fences came from, as their SQL names it. */
    public String source() {
        return fences.fences().getFirst().read().file();
    }

    /**
     * Runs the items in ChecklistItem order, fence by fence; {@code onEach} hears each verdict as it is found.
     *
     * @throws io.fencelab.engine.fence.SqlFenceException before any item, when a fence cannot be used
     * @throws CancellationException when the thread is interrupted (the verdicts so far were heard)
     */
    public ProbeReport run(Consumer<ItemVerdict> onEach) {
        List<ProbeSubject> subjects = prepare();
        List<ItemVerdict> verdicts = new ArrayList<>();
        Map<String, ItemVerdict> everyTarget = new HashMap<>();
        try {
            for (int i = 0; i < subjects.size(); i++) {
                for (ChecklistItem item : ChecklistItem.values()) {
                    ItemVerdict v = item == ChecklistItem.EVERY_TARGET_FENCED
                            ? everyTarget(subjects, i, everyTarget) : tryItem(subjects.get(i), i, item);
                    verdicts.add(v);
                    onEach.accept(v);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("the probe was interrupted after " + verdicts.size() + " verdicts");
        }
        return new ProbeReport(source(), databaseName(), fences.fences().stream().map(SqlFence::name).toList(), verdicts);
    }

    /**
     * Checks every fence (a scratch schema each, made and dropped: every statement checked before
     * anything runs), then all of them together, and reads what setup left at each fence's key.
     */
    private List<ProbeSubject> prepare() {
        List<ProbeSubject> subjects = new ArrayList<>();
        List<SqlFence> all = fences.fences();
        for (int i = 0; i < all.size(); i++) {
            ProbeSubject s = ProbeSubject.of(all.get(i), spec);
            try (ScratchSchema schema = ScratchSchema.create(database, label(i, "check"), List.of(s.fence()), false);
                 Session session = database.openSession()) {
                ReadBack row = schema.target(s.name()).read(session, s.scope(), s.key());
                subjects.add(s.withFloor(floorOf(row)));
            }
        }
        if (all.size() > 1) {
            // A run puts every fence in one scratch schema, and so does the multi-target item: fences
            // that cannot share one (two tables of one name) are told now, before any item.
            ScratchSchema.create(database, label(0, "check_all"), all, false).close();
        }
        return subjects;
    }

    private ItemVerdict tryItem(ProbeSubject s, int index, ChecklistItem item) throws InterruptedException {
        if (item == ChecklistItem.RACES) {
            if (s.fence().write().size() > 1) {
                // The gap of a check-then-write, raced on purpose before any run leaves it to chance.
                try (Trial t = Trial.open(database, label(index, "gap"), List.of(s.fence()), options.keep(), s, item)) {
                    ItemVerdict raced = DirectedItems.raceInTheGap(t);
                    if (raced != null) {
                        return raced;
                    }
                }
            }
            return new RaceItem(database, options).run(s);
        }
        if (item == ChecklistItem.SCOPES_APART && !DirectedItems.usesScope(s.fence())) {
            return new ItemVerdict(s.name(), item, Status.NOT_APPLICABLE,
                    "no statement uses :scope, so the fence has one scope per key", List.of());
        }
        try (Trial t = Trial.open(database, label(index, item.name()), List.of(s.fence()), options.keep(), s, item)) {
            return switch (item) {
                case STALE_HOLDER_REJECTED -> LeasedItems.staleHolderRejected(database, t);
                case NUMERIC_COMPARISON -> DirectedItems.numericComparison(t);
                case LARGE_TOKENS -> DirectedItems.largeTokens(t);
                case EQUAL_TOKEN -> DirectedItems.equalToken(t);
                case FIRST_WRITE_AND_MISSING -> DirectedItems.firstWriteAndMissing(t, absentKey(t));
                case ROLLBACK -> DirectedItems.rollback(t);
                case SCOPES_APART -> scopesApart(t);
                case STALE_TOKEN_FINAL -> DirectedItems.staleTokenFinal(t);
                case EVERY_TARGET_FENCED, RACES -> throw new IllegalStateException(item + " is tried elsewhere");
            };
        }
    }

    /** The multi-target job, tried once for all fences when the first fence reaches it. */
    private ItemVerdict everyTarget(List<ProbeSubject> subjects, int index, Map<String, ItemVerdict> found) {
        ProbeSubject s = subjects.get(index);
        if (subjects.size() < 2) {
            return new ItemVerdict(s.name(), ChecklistItem.EVERY_TARGET_FENCED, Status.NOT_APPLICABLE,
                    "one fence only: no job writes several targets", List.of());
        }
        if (found.isEmpty()) {
            List<SqlFence> all = subjects.stream().map(ProbeSubject::fence).toList();
            try (Trial t = Trial.open(database, label(0, "every_target"), all, options.keep(), subjects.getFirst(),
                    ChecklistItem.EVERY_TARGET_FENCED)) {
                LeasedItems.everyTargetFenced(database, t, subjects).forEach(v -> found.put(v.fence(), v));
            }
        }
        return found.get(s.name());
    }

    private ItemVerdict scopesApart(Trial t) {
        ProbeSubject s = t.subject();
        String other = s.otherScopes().isEmpty() ? s.scope() + "-other" : s.otherScopes().getFirst();
        boolean otherHasRow = t.read(s.fence(), other, s.key()).exists()
                || s.fence().firstWrite() == FirstWritePolicy.CREATE;
        return DirectedItems.scopesApart(t, other, otherHasRow);
    }

    /** The first of 987654321, 987654322, ... that has no row. */
    private static String absentKey(Trial t) {
        ProbeSubject s = t.subject();
        long k = ABSENT_KEY;
        while (k < ABSENT_KEY + 100 && t.read(s.fence(), s.scope(), Long.toString(k)).exists()) {
            k++;
        }
        return Long.toString(k);
    }

    private static long floorOf(ReadBack row) {
        return Math.max(0, Math.min(row.tokenAsLong(), Long.MAX_VALUE - 2));
    }

    /** A scratch schema's label: the probe's run, the fence's place in the file, the item. */
    private synchronized String label(int fence, String what) {
        String label = labelPrefix() + fence + "_" + what.toLowerCase(Locale.ROOT);
        return label.length() > 50 ? label.substring(0, 50) : label;
    }

    private String labelPrefix() {
        if (runId < 0) {
            // The database numbers runs: two probes on one server never share a schema name.
            runId = database.newRun("probe " + source()).runId();
        }
        return "probe" + runId + "_";
    }
}

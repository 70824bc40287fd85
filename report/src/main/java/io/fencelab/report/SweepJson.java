package io.fencelab.report;

import io.fencelab.engine.event.EventJson;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Recommendation;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.ResultsFile;
import io.fencelab.engine.tune.SweepResults;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code sweep.json}: the plan, the constraints, every point (its values, status, the mean, least and
 * greatest of every figure over its seeds, its bounds, feasibility and margin, worst seed and the
 * link to that seed's report), the Pareto frontier and the recommended point. A missing figure is
 * {@code null}. Written atomically, so a reader never sees half a file while a sweep goes on.
 */
public final class SweepJson {

    private SweepJson() {
    }

    public static void write(Path file, SweepResults results, Predicate<Point> hasReport,
                             SweepDirectory.BackendNote backend) throws IOException {
        Map<String, Object> doc = document(results, hasReport);
        if (backend != null) {
            doc.put("backend", backend.backend().name().toLowerCase(java.util.Locale.ROOT));
            if (backend.check() != null) {
                Map<String, Object> check = new LinkedHashMap<>();
                check.put("point", backend.check().point().id());
                check.put("seed", String.valueOf(backend.check().seed()));
                check.put("identicalToPostgres", backend.check().identical());
                check.put("bytes", backend.check().bytes());
                doc.put("postgresCheck", check);
            }
        }
        StagedDirectory.writeFile(file, EventJson.documentWriter().writeValueAsString(doc));
    }

    static Map<String, Object> document(SweepResults r, Predicate<Point> hasReport) {
        Map<String, Object> doc = new LinkedHashMap<>(r.plan().identity());
        doc.put("requirements", r.requirements().stream().map(Requirement::toString).toList());
        List<Map<String, Object>> points = new ArrayList<>();
        for (Point p : r.points()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("point", p.id());
            pm.put("values", p.assignments(r.plan().axes()));
            String reason = r.skipped().get(p.index());
            PointSummary s = r.done().get(p.index());
            if (reason != null) {
                pm.put("status", "skipped");
                pm.put("reason", reason);
            } else if (s == null) {
                pm.put("status", "pending");
            } else {
                pm.put("status", "done");
                pm.put("runs", s.runs().size());
                pm.put("violatedRuns", s.violatedRuns());
                pm.put("worstSeed", String.valueOf(s.worst().seed()));
                pm.put("report", hasReport.test(p) ? SweepReport.reportLink(p) : null);
                Map<String, Object> mean = new LinkedHashMap<>();
                Map<String, Object> min = new LinkedHashMap<>();
                Map<String, Object> max = new LinkedHashMap<>();
                for (String f : ResultsFile.figureNames()) {
                    mean.put(f, json(s.mean(f)));
                    min.put(f, json(s.min(f)));
                    max.put(f, json(s.max(f)));
                }
                pm.put("mean", mean);
                pm.put("min", min);
                pm.put("max", max);
                Map<String, Object> bounds = new LinkedHashMap<>();
                bounds.put("failoverSeconds", json(s.bounds().failoverSeconds()));
                bounds.put("stepDownFailoverSeconds", json(s.bounds().stepDownFailoverSeconds()));
                bounds.put("survivedPauseSeconds", json(s.bounds().survivedPauseSeconds()));
                bounds.put("lostPauseSeconds", json(s.bounds().lostPauseSeconds()));
                pm.put("bounds", bounds);
                List<Map<String, Object>> past = new ArrayList<>();
                s.pastBounds().forEach((seed, all) -> all.forEach(b -> {
                    Map<String, Object> entry = new LinkedHashMap<>();
                    entry.put("seed", seed);
                    entry.put("bound", b.bound().name());
                    entry.put("modelled", b.modelled());
                    entry.put("why", b.why());
                    past.add(entry);
                }));
                pm.put("pastBounds", past);
                if (!r.requirements().isEmpty()) {
                    Recommendation.Assessment a = r.assess(s);
                    pm.put("feasible", a.feasible());
                    pm.put("margin", json(a.margin()));
                }
            }
            points.add(pm);
        }
        doc.put("points", points);
        doc.put("paretoFrontier", r.frontier().stream().map(s -> s.point().id()).toList());
        doc.put("recommended", r.recommended().map(a -> a.point().point().id()).orElse(null));
        return doc;
    }

    private static Double json(double v) {
        return Double.isFinite(v) ? v : null;
    }
}

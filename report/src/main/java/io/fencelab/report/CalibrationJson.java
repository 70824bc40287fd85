package io.fencelab.report;

import io.fencelab.engine.event.EventJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code calibration.json}: what {@link CalibrationPage} shows, as data: the runs, seeds, service
 * and where its server came from, every value of each figure on both sides with its spread and
 * whether the sides differ, and the lease losses and edge per pause length. A missing figure is null.
 */
public final class CalibrationJson {

    private CalibrationJson() {
    }

    public static void write(Path file, Calibration c) throws IOException {
        StagedDirectory.writeFile(file, EventJson.documentWriter().writeValueAsString(document(c)));
    }

    static Map<String, Object> document(Calibration c) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("scenario", c.scenario());
        doc.put("service", c.service());
        doc.put("serviceVersion", c.serviceVersion());
        doc.put("server", c.serverSource());
        doc.put("profile", c.profile());
        doc.put("pauseVaried", c.pauseAt());
        doc.put("modelRuns", c.modelSeeds().size() * c.pauses().size());
        doc.put("modelSeeds", c.modelSeeds().stream().map(String::valueOf).toList());
        doc.put("realRuns", c.realSeeds().size() * c.pauses().size());
        doc.put("realSeeds", c.realSeeds().stream().map(String::valueOf).toList());
        doc.put("differsRule", "each side's least to greatest value, widened by the larger of the figure's tolerance and "
                + Math.round(Calibration.RELATIVE_SLACK * 100) + " % of its median; differs when the real median is "
                + "outside the model's, the model's median outside the real, or only one side has values");
        Map<String, Object> figures = new LinkedHashMap<>();
        for (Calibration.Figure f : c.figures()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("title", f.title());
            fm.put("unit", f.unit());
            fm.put("onePer", f.per());
            fm.put("tolerance", f.tolerance());
            fm.put("model", side(f.model(), f.modelSpread()));
            fm.put("real", side(f.real(), f.realSpread()));
            fm.put("differs", f.differs().orElse(null));
            figures.put(f.name(), fm);
        }
        doc.put("figures", figures);
        List<Map<String, Object>> pauses = new ArrayList<>();
        for (Calibration.PauseRow p : c.pauses()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("pauseSeconds", p.pauseSeconds());
            pm.put("modelRuns", p.modelRuns());
            pm.put("modelRunsThatLostALease", p.modelLost());
            pm.put("realRuns", p.realRuns());
            pm.put("realRunsThatLostALease", p.realLost());
            pm.put("agree", p.agrees());
            pauses.add(pm);
        }
        doc.put("pauses", pauses);
        doc.put("modelEdge", edge(c.modelEdge()));
        doc.put("realEdge", edge(c.realEdge()));
        doc.put("edgesAgree", c.edgesAgree());
        return doc;
    }

    private static Map<String, Object> side(List<Double> values, Calibration.Spread s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("values", values);
        m.put("count", s.count());
        m.put("min", json(s.min()));
        m.put("median", json(s.median()));
        m.put("p90", json(s.p90()));
        m.put("max", json(s.max()));
        return m;
    }

    private static Map<String, Object> edge(Calibration.Edge e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("longestSurvivedPauseSeconds", e.survived().orElse(null));
        m.put("shortestLostPauseSeconds", e.lost().orElse(null));
        m.put("words", e.words());
        return m;
    }

    private static Double json(double v) {
        return Double.isFinite(v) ? v : null;
    }
}

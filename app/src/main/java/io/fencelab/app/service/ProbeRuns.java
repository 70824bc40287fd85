package io.fencelab.app.service;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.Probe;
import io.fencelab.engine.probe.ProbeJson;
import io.fencelab.engine.probe.ProbeOptions;
import io.fencelab.engine.probe.ProbeReport;
import io.fencelab.report.ProbeHtml;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * {@code fencelab probe}'s work, for the command line and the console alike: the file's fences, the
 * database to try them on (embedded unless an external server is configured), the probe itself, and
 * its outputs ({@code probe.json}, {@code probe.html}) in one directory.
 */
public final class ProbeRuns {

    /** The JSON of the verdicts. */
    public static final String JSON = "probe.json";
    /** The page: the checklist first, each failure's witness beside it. */
    public static final String HTML = "probe.html";

    /** Connections: the items' sessions and the live race's twenty holders. */
    static final int POOL_SIZE = 40;

    private ProbeRuns() {
    }

    /**
     * The scenario of {@code fileOrName} (a file, else a catalog name), which must define user fences.
     *
     * @throws io.fencelab.scenarios.ScenarioException for a file that is not a valid scenario
     * @throws IllegalArgumentException                for one without a {@code targets:} section
     */
    public static Scenario load(String fileOrName) {
        Scenario sc = Catalog.shipped().resolve(fileOrName);
        if (sc.spec().userFences().isEmpty()) {
            throw new IllegalArgumentException(fileOrName + " defines no fence of your own to probe: add a targets: "
                    + "section with a SQL target (see docs/FENCES.md)");
        }
        return sc;
    }

    /** {@code probe-<file stem>} in the working directory: where the outputs go without {@code --out}. */
    public static Path defaultOut(String fileOrName) {
        String name = Path.of(fileOrName).getFileName().toString();
        int dot = name.lastIndexOf('.');
        return Path.of("probe-" + (dot > 0 ? name.substring(0, dot) : name));
    }

    /** The database a probe runs on. */
    public static Database open(DatabaseConfig config) {
        return Database.open(config, POOL_SIZE);
    }

    /** The probe of {@code scenario}'s fences on {@code database}; {@link Probe#run} starts it. */
    public static Probe probe(Database database, Scenario scenario, ProbeOptions options) {
        return new Probe(database, scenario.spec(), options);
    }

    /** Runs {@code probe} (its output directory made first) and writes its outputs there. */
    public static ProbeReport run(Probe probe, ProbeOptions options, Consumer<ItemVerdict> onEach) throws IOException {
        Files.createDirectories(options.outDir());
        ProbeReport report = probe.run(onEach);
        write(report, options.outDir());
        return report;
    }

    /** {@code probe.json} and {@code probe.html} in {@code dir}. */
    public static void write(ProbeReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        ProbeJson.write(dir.resolve(JSON), report);
        ProbeHtml.write(dir.resolve(HTML), report);
    }
}

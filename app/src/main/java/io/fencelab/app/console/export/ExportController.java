package io.fencelab.app.console.export;

import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.run.RunSessions;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.app.service.Handouts;
import io.fencelab.engine.db.Database;
import io.fencelab.report.Handout;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.Workshop;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Exports: the report bundle of the runs on show (one folder per run when comparing), the printable
 * handout of the lesson (or workshop) on show, and pictures
 * the view took. Files are written on the console's I/O thread; the outcome comes back as the
 * model's message (and to {@code done}, if given) on the FX thread.
 */
public final class ExportController {

    private final ConsoleModel model;
    private final RunSessions sessions;
    private final Exporter exporter;

    public ExportController(ConsoleModel model, RunSessions sessions) {
        this.model = model;
        this.sessions = sessions;
        this.exporter = new Exporter(model, sessions.io());
    }

    /** Writes the report bundle (as {@code fencelab run --report}) of the runs on show into {@code dir}. */
    public void exportReport(Path dir, Consumer<String> done) {
        Path replayFile = sessions.replayFile();
        if (model.compareProperty().get()) {
            Comparison c = model.comparisonProperty().get();
            exporter.export(dir.resolve(c.folder(true)), model.first(), sessions.spec(0), replayFile, done);
            exporter.export(dir.resolve(c.folder(false)), model.second(), sessions.spec(1), replayFile, done);
        } else {
            exporter.export(dir, model.main(), sessions.spec(0), replayFile, done);
        }
    }

    /**
     * Writes the printable handout (as {@code fencelab handout}) into {@code dir}: of every lesson of
     * the open workshop, else of the scenario on show as its file is written (parameters changed in the
     * console are not the lesson's). The lessons run on the I/O thread.
     */
    public void exportHandout(Path dir, Consumer<String> done) {
        Database db = sessions.database();
        Workshop workshop = model.lesson().workshopProperty().get();
        Scenario scenario = model.scenario();
        if (db == null) {
            exporter.finish("No handout yet: the database is still starting.", done);
            return;
        }
        if (workshop == null && (scenario == null || sessions.replayFile() != null)) {
            exporter.finish("A handout is written from a scenario or a workshop; a saved run has neither.", done);
            return;
        }
        String source = model.sourceProperty().get();
        String argument = workshop != null || "catalog".equals(source) ? (scenario == null ? "" : scenario.name()) : source;
        sessions.io().execute(() -> {
            String message;
            try {
                Handouts.Written written = workshop != null
                        ? Handouts.workshop(db, workshop, workshop.name(), dir, Handout.Options.STUDENT_A4)
                        : Handouts.scenario(db, argument, dir, Handout.Options.STUDENT_A4);
                message = "Handout written to " + written.first();
            } catch (ScenarioException e) {
                message = "No handout written: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                message = "The handout was not written: interrupted.";
            } catch (IOException | RuntimeException e) {
                message = Problems.describe("The handout could not be written to " + dir, e);
            }
            exporter.finish(message, done);
        });
    }

    /** Writes an image (taken from a view on the FX thread) as a PNG file. */
    public void savePng(BufferedImage image, Path file, Consumer<String> done) {
        sessions.io().execute(() -> {
            String message;
            try {
                Path parent = file.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                javax.imageio.ImageIO.write(image, "png", file.toFile());
                message = "Image saved to " + file;
            } catch (IOException | RuntimeException e) {
                message = Problems.describe("The image could not be saved", e);
            }
            exporter.finish(message, done);
        });
    }
}

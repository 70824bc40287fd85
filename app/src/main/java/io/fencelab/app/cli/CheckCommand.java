package io.fencelab.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.JudgementJson;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.report.ReportBundle;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab check events.jsonl}: judges a recorded run again from its log alone. With a
 * {@code summary.json} beside the log, the exit code says whether the new verdict agrees with the
 * recorded one; without, 0 means SAFE and 1 VIOLATED. A log cut short (no {@code RunEnded}) that
 * shows no violation exits 4; a torn last line is dropped with a warning on stderr.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Re-judge a recorded run offline from its events.jsonl.",
        footer = {"", "Exit codes: 0 SAFE (or the verdict recorded in summary.json beside the log), 1 VIOLATED "
                + "(or a different verdict), 2 bad input or usage (an empty log included), 4 the log ends "
                + "without RunEnded and shows no violation so far."})
public final class CheckCommand implements Callable<Integer> {

    @Parameters(paramLabel = "EVENTS", description = "An events.jsonl written by 'fencelab run --report'.")
    Path events;

    @Option(names = "--judgement", paramLabel = "FILE",
            description = "Also write the judgement (verdict, witnesses, every write's class) as JSON to FILE "
                    + "(not the log itself).")
    Path judgementFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (Files.isDirectory(events)) {
            throw new IllegalArgumentException(events + ": is a directory; give the event log file, such as "
                    + events.resolve(ReportBundle.EVENTS));
        }
        if (!Files.isRegularFile(events)) {
            throw new IllegalArgumentException(events + ": " + (Files.exists(events)
                    ? "is not a regular file; give an events.jsonl" : "no such file"));
        }
        refuseToOverwriteTheLog();
        EventLogReader.Contents contents = EventLogReader.readLog(events);
        contents.tornTail().ifPresent(torn -> spec.commandLine().getErr().println("fencelab: warning: " + torn.warning()));
        List<Event> log = contents.events();
        if (log.isEmpty()) {
            throw new IllegalArgumentException(events + ": no events to judge"
                    + (contents.tornTail().isPresent() ? " (its only line was cut off)" : " (the file is empty)")
                    + "; an event log holds one event per line, beginning with RunStarted");
        }
        Judgement judgement = SafetyChecker.judgement(log);
        Verdict verdict = judgement.verdict();
        out.printf("%s: %d events, verdict %s%s%n", events, log.size(), verdict.kind(),
                judgement.incomplete().map(cut -> " (incomplete: " + cut.describe() + ")").orElse(""));
        for (Witness w : verdict.witnesses()) {
            out.printf("  %s: %s (events %s)%n", w.invariant(), w.summary(), w.eventSeqs());
        }
        if (judgementFile != null) {
            JudgementJson.write(judgementFile, judgement);
            out.printf("judgement: %s%n", judgementFile);
        }
        Path summary = events.resolveSibling("summary.json");
        if (Files.isRegularFile(summary)) {
            JsonNode recorded = recorded(summary);
            String before = recorded.path("verdict").asText();
            boolean same = before.equals(verdict.kind().name());
            out.printf("recorded verdict in %s: %s; %s%n", summary.getFileName(), before,
                    same ? "the same" : "DIFFERENT");
            return !same ? ExitCodes.UNEXPECTED_VERDICT : exitIfAgreed(judgement);
        }
        return !verdict.isSafe() ? ExitCodes.UNEXPECTED_VERDICT : exitIfAgreed(judgement);
    }

    /**
     * The judgement is kept beside the history, never written over it: the same file reached through
     * another name (a link, a relative path) counts as the same, so real files are compared.
     */
    private void refuseToOverwriteTheLog() throws IOException {
        if (judgementFile != null && Files.exists(judgementFile) && Files.isSameFile(events, judgementFile)) {
            throw new IllegalArgumentException("--judgement " + judgementFile + ": is the event log being checked ("
                    + events + "); name another file for the judgement, such as judgement.json beside the log");
        }
    }

    /** The summary.json beside the log; a corrupt one is named, as bad input. */
    private static JsonNode recorded(Path summary) throws IOException {
        try {
            return new ObjectMapper().readTree(summary.toFile());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(FileProblem.of(summary, e)
                    + "; it should be the summary.json 'fencelab run --report' wrote beside the log", e);
        }
    }

    /** A cut log's SAFE is only "safe so far": its own code, so scripts cannot take it for a whole run's. */
    private static int exitIfAgreed(Judgement judgement) {
        return judgement.incomplete().isPresent() ? ExitCodes.LOG_INCOMPLETE : ExitCodes.OK;
    }
}

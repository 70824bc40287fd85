package io.fencelab.report;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.TeachingNotes;
import io.fencelab.scenarios.Workshop;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A lesson's printable handout as one self-contained HTML page (inline CSS and SVG, no scripts,
 * nothing fetched): the story as numbered steps with the room's questions, the run with fencing and
 * without it (timeline and verdict in words), the seed and the commands that reproduce both, and
 * the answers last, on a page of their own. {@link #index} is a workshop's table of lessons. The
 * same lessons always give the same bytes. {@link HandoutFiles} writes the files of lessons that have been run.
 */
public final class Handout {

    /** The paper a handout is laid out for when printed. */
    public enum Paper {
        A4("A4", "15mm"),
        LETTER("letter", "0.6in");

        final String cssSize;
        final String margin;

        Paper(String cssSize, String margin) {
            this.cssSize = cssSize;
            this.margin = margin;
        }
    }

    /** How handouts are written: the paper, and whether the teacher's notes are included. */
    public record Options(Paper paper, boolean teacher) {
        public static final Options STUDENT_A4 = new Options(Paper.A4, false);

        public Options {
            Objects.requireNonNull(paper, "paper");
        }
    }

    /** One run of a lesson's scenario: the spec it ran with, its result and its events. */
    public record Ran(RunSpec spec, RunResult result, List<Event> events) {
        public Ran {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(result, "result");
            events = List.copyOf(events);
        }
    }

    /**
     * A lesson ready to print: {@code number} its place in the workshop (0 for a scenario on its own,
     * {@code of} the workshop's length), {@code argument} what {@code fencelab run} is given to run it
     * again (a catalog name or a file), {@code fenced} and {@code unfenced} its runs (for a sweep
     * lesson only the scenario as written, as {@code fenced}, and {@code unfenced} null).
     */
    public record Lesson(Workshop.Lesson lesson, int number, int of, String argument, Ran fenced, Ran unfenced) {
        public Lesson {
            Objects.requireNonNull(lesson, "lesson");
            Objects.requireNonNull(argument, "argument");
            Objects.requireNonNull(fenced, "fenced");
            if (lesson.kind() == Workshop.Kind.STORY) {
                Objects.requireNonNull(unfenced, "unfenced");
            }
        }

        TeachingNotes notes() {
            return lesson.scenario().notes();
        }

        /** The run the scenario's story tells (its file as written). */
        Ran asWritten() {
            return unfenced != null && unfenced.spec().fencing() == lesson.scenario().spec().fencing() ? unfenced : fenced;
        }
    }

    /**
     * Witnesses a run's verdict lists on the page: a few, so the verdict, its heading and its
     * timeline fit one sheet (a live race's dozens filled a page of their own); the report lists all.
     */
    static final int WITNESSES_ON_PAGE = 3;

    private Handout() {
    }

    /**
     * The fencing mode of the other run a handout shows beside the scenario as written: the scenario
     * without fencing if it is fenced, else with it, so a page always compares "with" and "without".
     */
    public static FencingMode counterpart(FencingMode asWritten) {
        return asWritten == FencingMode.FENCED ? FencingMode.UNFENCED : FencingMode.FENCED;
    }

    public static String render(Lesson lesson, Options options) {
        return new Page(lesson, options).render();
    }

    /** A workshop's first page: its lessons in order, each with its minutes and a link to its handout. */
    public static String index(Workshop workshop, List<Lesson> lessons, List<String> files, Options options) {
        StringBuilder out = new StringBuilder(8_192);
        head(out, workshop.title() + " · Fencelab workshop", options);
        out.append("<header>\n<p class=\"eyebrow\">Fencelab workshop · ").append(workshop.lessons().size())
                .append(" lessons · about ").append(workshop.minutes()).append(" minutes</p>\n<h1>")
                .append(Html.esc(workshop.title())).append("</h1>\n");
        if (!workshop.summary().isBlank()) {
            out.append("<p class=\"summary\">").append(Html.esc(workshop.summary())).append("</p>\n");
        }
        out.append("</header>\n<section aria-label=\"Lessons\">\n<h2>Lessons</h2>\n<ol class=\"lessons\">");
        for (int i = 0; i < lessons.size(); i++) {
            Lesson l = lessons.get(i);
            out.append("<li><a href=\"").append(Html.esc(files.get(i))).append("\">").append(Html.esc(l.notes().title()))
                    .append("</a> <span class=\"minutes\">").append(l.lesson().minutes()).append(" min")
                    .append(l.lesson().kind() == Workshop.Kind.SWEEP ? " · tuning sweep" : "").append("</span><br><span class=\"note\">")
                    .append(Html.esc(l.notes().firstSentence())).append("</span>");
            if (options.teacher() && !l.lesson().notes().isBlank()) {
                out.append("<p class=\"teacher\"><strong>Teacher:</strong> ").append(Html.esc(l.lesson().notes())).append("</p>");
            }
            out.append("</li>");
        }
        out.append("</ol>\n</section>\n");
        foot(out);
        return out.toString();
    }

    private static void head(StringBuilder out, String title, Options options) {
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.esc(title)).append("</title>\n<style>").append(HtmlReport.CSS).append(CSS)
                .append("@page{size:").append(options.paper().cssSize).append(";margin:").append(options.paper().margin)
                .append("}\n</style>\n</head>\n<body>\n").append(TimelineSvg.defs()).append("\n<main class=\"handout\">\n");
    }

    private static void foot(StringBuilder out) {
        out.append("<footer class=\"note\">Written by Fencelab (<code>fencelab handout</code>). Every run here is "
                + "reproducible with the command given.</footer>\n</main>\n</body>\n</html>\n");
    }

    private static final class Page {
        private final Lesson l;
        private final Options options;
        private final StringBuilder out = new StringBuilder(1 << 16);

        Page(Lesson lesson, Options options) {
            this.l = lesson;
            this.options = options;
        }

        String render() {
            head(out, l.notes().title() + " · Fencelab handout", options);
            header();
            story();
            if (l.lesson().kind() == Workshop.Kind.SWEEP) {
                sweep();
                run("run", "The scenario as written", l.fenced(), true);
            } else {
                run("with", "With fencing", l.fenced(), l.fenced() == l.asWritten());
                run("without", "Without fencing", l.unfenced(), l.unfenced() == l.asWritten());
            }
            reproduce();
            answers();
            foot(out);
            return out.toString();
        }

        private void header() {
            out.append("<header>\n<p class=\"eyebrow\">Fencelab handout");
            if (l.number() > 0) {
                out.append(" · lesson ").append(l.number()).append(" of ").append(l.of());
            }
            if (l.lesson().minutes() > 0) {
                out.append(" · ").append(l.lesson().minutes()).append(" minutes");
            }
            out.append(" · scenario <code>").append(Html.esc(l.lesson().scenario().name())).append("</code></p>\n<h1>")
                    .append(Html.esc(l.notes().title())).append("</h1>\n<p class=\"summary\">")
                    .append(Html.esc(l.notes().summary())).append("</p>\n");
            if (options.teacher() && !l.lesson().notes().isBlank()) {
                out.append("<p class=\"teacher\"><strong>Teacher:</strong> ").append(Html.esc(l.lesson().notes())).append("</p>\n");
            }
            out.append("</header>\n");
        }

        private void story() {
            List<StoryStep> steps = l.notes().steps();
            boolean[] told = toldWithAnswers(steps);
            out.append("<section class=\"story\" aria-label=\"The story\">\n<h2>The story</h2>\n<ol class=\"steps\">");
            int q = 0;
            for (int s = 0; s < steps.size(); s++) {
                StoryStep step = steps.get(s);
                if (told[s]) {
                    out.append("<li class=\"step held\"><p class=\"note\">What happens next is on the answers page, "
                            + "after the answer.</p></li>");
                    continue;
                }
                out.append("<li class=\"step\"><p>").append(Html.esc(step.text())).append("</p>");
                if (step.asks()) {
                    q++;
                    Question question = step.question();
                    out.append("<div class=\"question\" id=\"q").append(q).append("\"><p class=\"ask\"><strong>Question ")
                            .append(q).append(":</strong> ").append(Html.esc(question.ask())).append("</p><ol class=\"choices\" type=\"A\">");
                    for (int c = 0; c < question.choices().size(); c++) {
                        out.append("<li><span class=\"box\" aria-hidden=\"true\"></span>").append(Html.esc(question.choices().get(c)))
                                .append("</li>");
                    }
                    out.append("</ol></div>");
                }
                teacher(step);
                out.append("</li>");
            }
            out.append("</ol>\n");
            if (q > 0) {
                out.append("<p class=\"note\">Answer each question before the run goes on; the answers, and the steps that "
                        + "tell them, are on the last page.</p>\n");
            }
            out.append("</section>\n");
        }

        private void teacher(StoryStep step) {
            if (options.teacher() && !step.notes().isBlank()) {
                out.append("<p class=\"teacher\"><strong>Teacher:</strong> ").append(Html.esc(step.notes())).append("</p>");
            }
        }

        private void sweep() {
            ScenarioSource.SuggestedSweep sweep = l.lesson().file().suggestedSweep().orElseThrow();
            out.append("<section class=\"sweep\" aria-label=\"The sweep\">\n<h2>The tuning sweep</h2>\n")
                    .append("<p>This lesson tunes the lease for the failure pattern below: the sweep varies ")
                    .append(Html.esc(String.join(" and ", sweep.vary()))).append(" over many runs and ");
            out.append(sweep.require().isEmpty() ? "compares the figures" : "keeps the settings that meet "
                    + Html.esc(String.join(" and ", sweep.require())));
            out.append(". Run it yourself (the Tune view of the console runs the same sweep):</p>\n<pre class=\"command\"><code>")
                    .append(Html.esc(sweep.command())).append("</code></pre>\n</section>\n");
        }

        private void run(String id, String heading, Ran ran, boolean asWritten) {
            RunSpec spec = ran.spec();
            Judgement judgement = ran.result().judgement();
            Verdict verdict = judgement.verdict();
            Timeline full = Timeline.from(ran.events(), judgement);
            out.append("<section class=\"run\" id=\"").append(id).append("\" aria-label=\"").append(heading)
                    .append("\">\n<div class=\"run-head\"><h2>")
                    .append(heading).append("</h2>\n<p class=\"meta\">")
                    .append(Html.esc(describe(spec) + (asWritten ? " · the scenario as written" : " · the scenario with fencing "
                            + spec.fencing() + " instead of " + l.lesson().scenario().spec().fencing())))
                    .append("</p>\n<div class=\"verdict ").append(verdict.isSafe() ? "safe" : "violated").append("\">")
                    .append(verdict.isSafe() ? "<span class=\"badge safe\">SAFE</span>" : "<span class=\"badge violated\">VIOLATED</span>");
            List<String> sentences = VerdictText.sentences(ran.events(), judgement, full);
            for (int i = 0; i < sentences.size(); i++) {
                out.append(i == 0 ? "<p class=\"lead\">" : "<p>").append(Html.esc(sentences.get(i))).append("</p>");
            }
            List<Witness> ws = verdict.witnesses();
            if (!ws.isEmpty()) {
                out.append("<ul class=\"witnesses\">");
                for (int i = 0; i < Math.min(ws.size(), WITNESSES_ON_PAGE); i++) {
                    out.append("<li><strong>").append(Html.esc(VerdictText.name(ws.get(i).invariant()))).append(":</strong> ")
                            .append(Html.esc(ws.get(i).summary())).append("</li>");
                }
                out.append("</ul>");
                if (ws.size() > WITNESSES_ON_PAGE) {
                    out.append("<p class=\"note\">and ").append(ws.size() - WITNESSES_ON_PAGE)
                            .append(" more (the report of the run lists them all).</p>");
                }
            }
            out.append("</div>\n</div>\n");
            TimelineFigure.forPage(full).appendTo(out);
            out.append("</section>\n");
        }

        private void reproduce() {
            // With answers to follow, the commands start their page: alone at the end of the runs
            // they made a near-empty page, and the flipped run's expected verdict would tell an answer.
            boolean answersFollow = l.notes().steps().stream().anyMatch(StoryStep::asks);
            out.append("<section class=\"reproduce").append(answersFollow ? " last-page" : "")
                    .append("\" aria-label=\"Reproduce\">\n<h2>Run it yourself</h2>\n<p>Seed <strong>")
                    .append(l.fenced().spec().seed()).append("</strong>. With Fencelab installed:</p>\n<pre class=\"command\"><code>");
            List<String> lines = new ArrayList<>();
            lines.add(command(l.asWritten()) + "    # as written");
            Ran other = null;
            if (l.unfenced() != null) {
                other = l.asWritten() == l.fenced() ? l.unfenced() : l.fenced();
                // The flipped run is not what the scenario expects: --expect says which verdict to
                // look for, so a VIOLATED run meant to show the bug exits 0, not 1 with "NOT met".
                lines.add(command(other) + " --expect " + other.result().judgement().verdict().kind());
            }
            out.append(Html.esc(String.join("\n", lines))).append("</code></pre>\n");
            if (other != null) {
                Verdict.Kind kind = other.result().judgement().verdict().kind();
                out.append("<p>The second command runs the scenario ")
                        .append(other.spec().fencing() == FencingMode.FENCED ? "with" : "without")
                        .append(" fencing. It reports <strong>").append(kind).append("</strong>")
                        .append(kind == Verdict.Kind.VIOLATED ? ", with the witnesses of what went wrong: that is what "
                                + "it is there to show, not a fault in your set-up" : "")
                        .append(". With <code>--expect ").append(kind).append("</code> it ends <code>expected: ")
                        .append(kind).append(" -&gt; met</code> with exit status 0.</p>\n");
            }
            if (l.asWritten().spec().executor() == ExecutorKind.LIVE) {
                out.append("<p class=\"note\">A live run: real threads racing in real time, so a run of your own may "
                        + "differ in detail from the one printed here.</p>\n");
            } else {
                out.append("<p class=\"note\">A simulated run: the same seed gives the same events, so your run "
                        + "matches the one printed here. Add <code>--report DIR</code> for the full report, or open the "
                        + "scenario in the console (<code>fencelab</code>) to watch it.</p>\n");
            }
            out.append("</section>\n");
        }

        private String command(Ran ran) {
            String cmd = "fencelab run " + quoted(l.argument()) + " --seed " + ran.spec().seed();
            if (ran.spec().fencing() != l.lesson().scenario().spec().fencing()) {
                cmd += " --fencing " + ran.spec().fencing();
            }
            return cmd;
        }

        private void answers() {
            List<StoryStep> steps = l.notes().steps();
            if (steps.stream().noneMatch(StoryStep::asks)) {
                return;
            }
            boolean[] told = toldWithAnswers(steps);
            out.append("<section class=\"answers\" aria-label=\"Answers\">\n<h2>Answers</h2>\n<ol class=\"answers\">");
            int q = 0;
            for (int s = 0; s < steps.size(); s++) {
                Question question = steps.get(s).question();
                if (question == null) {
                    continue;
                }
                q++;
                out.append("<li value=\"").append(q).append("\"><p><strong>Question ").append(q).append("</strong> (step ")
                        .append(s + 1).append("): ").append(Html.esc(question.ask())).append("</p><p class=\"right\">")
                        .append("<strong>").append(Question.letter(question.answer())).append("</strong>: ")
                        .append(Html.esc(question.rightChoice())).append("</p><p class=\"why\"><strong>Why:</strong> ")
                        .append(Html.esc(question.why())).append("</p>");
                int next = s + 1;
                if (next < steps.size() && told[next]) {
                    out.append("<p class=\"then\">What happens next:</p><ol class=\"steps\" start=\"").append(next + 1).append("\">");
                    for (int t = next; t < steps.size() && told[t]; t++) {
                        out.append("<li class=\"step\"><p>").append(Html.esc(steps.get(t).text())).append("</p>");
                        teacher(steps.get(t));
                        out.append("</li>");
                    }
                    out.append("</ol>");
                }
                out.append("</li>");
            }
            out.append("</ol>\n</section>\n");
        }
    }

    /**
     * Which steps the students' story leaves to the answers page because they tell an answer: the
     * step right after each question (it tells what the question asked about), and every step after
     * the last question (they tell how the run ends). The steps between an answer and the next
     * question stay, as that question's setting.
     */
    public static boolean[] toldWithAnswers(List<StoryStep> steps) {
        boolean[] told = new boolean[steps.size()];
        int last = -1;
        for (int s = 0; s < steps.size(); s++) {
            if (steps.get(s).asks()) {
                last = s;
                if (s + 1 < steps.size()) {
                    told[s + 1] = !steps.get(s + 1).asks();
                }
            }
        }
        for (int s = last + 1; last >= 0 && s < steps.size(); s++) {
            told[s] = true;
        }
        return told;
    }

    /** What a run is, in one line: fencing, tokens, seed, executor, store. */
    static String describe(RunSpec spec) {
        List<String> parts = new ArrayList<>();
        parts.add("fencing " + spec.fencing());
        if (spec.tokenScheme() != TokenScheme.MONOTONIC) {
            parts.add(spec.tokenScheme() + " tokens");
        }
        parts.add("seed " + spec.seed());
        parts.add(spec.executor().name().toLowerCase(Locale.ROOT));
        return String.join(" · ", parts);
    }

    /** An argument as a shell reads it: quoted only if it has to be. */
    static String quoted(String arg) {
        return arg.matches("[A-Za-z0-9_./:=+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }

    /**
     * The handout's own style on top of the report's (whose print rules keep each timeline whole on
     * one page, scaled to it): wider type for reading on paper, questions boxed, and print rules: the
     * runs follow the story without forced breaks (a break before each left near-empty pages), a
     * timeline at most 120 mm tall so a run's verdict and timeline share a page, the commands and
     * answers on a last page of their own, no step, question or verdict split across pages.
     */
    private static final String CSS = """
            main.handout{max-width:900px}
            .summary{font-size:16px}
            .figure svg.timeline{width:100%;height:auto}
            .steps>li{margin:6px 0 10px}
            .steps>li>p{margin:0}
            .question{border:2px solid #0072b2;border-radius:6px;padding:4px 14px 6px;margin:8px 0;background:#f3f8fc}
            .question .ask{margin:4px 0}
            .choices{margin:4px 0;padding-left:28px}
            .choices li{margin:3px 0}
            .box{display:inline-block;width:11px;height:11px;border:1.5px solid #333;margin-right:8px;vertical-align:-1px}
            .teacher{border-left:4px solid #9A6700;background:#fff7e6;padding:3px 10px;margin:6px 0;font-size:14px}
            .verdict .badge{margin:6px 0 2px}
            .witnesses{margin:4px 0;font-size:14px}
            .command{background:#f4f4f4;border:1px solid #ddd;padding:8px 12px;white-space:pre-wrap;overflow-wrap:anywhere}
            .answers .right{font-size:16px;margin:2px 0}
            .answers .why{margin:2px 0 4px}
            .answers .then{margin:4px 0 0;font-weight:600}
            .answers .steps{margin:0 0 10px}
            .held .note{font-style:italic}
            .lessons li{margin:8px 0}
            .minutes{color:#555;font-size:14px}
            @media print{
            body{font-size:11pt}
            main.handout{max-width:none;padding:0}
            .figure{overflow:visible}
            .note{font-size:9pt}
            section.reproduce.last-page{break-before:page}
            h2{break-after:avoid}
            .run-head{break-inside:avoid}
            .figure svg.timeline{max-height:120mm}
            .steps>li,.question,.verdict,.answers li,.reproduce{break-inside:avoid}
            a{color:inherit;text-decoration:none}
            footer{display:none}
            }
            """;
}

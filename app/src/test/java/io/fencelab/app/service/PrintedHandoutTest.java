package io.fencelab.app.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.report.Handout;
import io.fencelab.report.Printed;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.Workshop;
import io.fencelab.scenarios.WorkshopLoader;
import io.fencelab.testing.Browser;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The shipped workshop's handouts printed by a real headless Chromium to A4 and Letter and read back
 * with PDFBox: whole figures, no near-empty page, no answer on a question's page, small files. The
 * PDFs stay in target/printed for a person to look at.
 */
@ExtendWith(EmbeddedDatabase.class)
class PrintedHandoutTest {

    private static final Path KEPT = Path.of("target", "printed");
    private static final long MAX_BYTES = 5L * 1024 * 1024;
    /** A page other than the last whose text ends above a fifth of it is near-empty. */
    private static final double NEAR_EMPTY = 0.2;
    /** Story, two runs, commands and answers: a lesson needs no more (it was 10 to 13 before). */
    private static final int MAX_PAGES = 7;
    /** Enough of a sentence to know it, short enough to stay on one line break's side. */
    private static final int PREFIX = 40;

    @Test
    void everyShippedLessonPrintsWholeOnA4AndLetterWithTheAnswersOnlyAfterTheQuestions(Database db) throws Exception {
        Browser.assumeAvailable();
        Workshop workshop = WorkshopLoader.shipped();
        ChromeDriver browser = Browser.open();
        try {
            for (Handout.Paper paper : Handout.Paper.values()) {
                Path dir = KEPT.resolve("handouts-" + paper.name().toLowerCase(java.util.Locale.ROOT));
                Handouts.Written written = Handouts.workshop(db, workshop, "workshop.yaml", dir, new Handout.Options(paper, false));
                for (int i = 0; i < written.pages().size(); i++) {
                    Path html = written.pages().get(i);
                    String lesson = paper + " " + html.getFileName();
                    Path pdf = Browser.print(browser, html.toUri().toString(), paper == Handout.Paper.A4 ? Browser.Paper.A4
                            : Browser.Paper.LETTER, dir.resolve(html.getFileName().toString().replace(".html", ".pdf")));
                    Printed printed = Printed.read(pdf);

                    assertThat(printed.bytes()).as("%s: PDF size", lesson).isLessThan(MAX_BYTES);
                    assertThat(printed.pages()).as("%s: pages", lesson).hasSizeBetween(2, MAX_PAGES);
                    assertThat(printed.nearlyEmpty(NEAR_EMPTY)).as("%s: near-empty pages (text ending above %s of the page)",
                            lesson, NEAR_EMPTY).isEmpty();
                    var doc = Jsoup.parse(Files.readString(html));
                    assertThat(doc.select("div.timeline-figure")).as("%s: its timelines", lesson).isNotEmpty();
                    assertThat(printed.splitFigures(doc)).as("%s: figures cut or split across pages", lesson).isEmpty();
                    answersOnlyAfterTheQuestions(lesson, workshop.lessons().get(i), printed);
                }
            }
        } finally {
            browser.quit();
        }
    }

    /** No question's page carries a why or a step that tells an answer; the answers page carries them all. */
    private static void answersOnlyAfterTheQuestions(String lesson, Workshop.Lesson l, Printed printed) {
        List<StoryStep> steps = l.scenario().notes().steps();
        boolean[] told = Handout.toldWithAnswers(steps);
        List<String> answers = new ArrayList<>();
        int questions = 0;
        for (int s = 0; s < steps.size(); s++) {
            Question q = steps.get(s).question();
            if (q != null) {
                questions++;
                answers.add(prefix(q.why()));
            }
            if (told[s]) {
                answers.add(prefix(steps.get(s).text()));
            }
        }
        List<Printed.Page> asking = new ArrayList<>();
        for (int q = 1; q <= questions; q++) {
            String ask = "Question " + q + ":";
            printed.pages().stream().filter(p -> p.text().contains(ask)).forEach(asking::add);
        }
        assertThat(asking).as("%s: pages with its %d questions", lesson, questions).hasSizeGreaterThanOrEqualTo(questions > 0 ? 1 : 0);
        for (Printed.Page page : asking) {
            for (String answer : answers) {
                assertThat(page.text()).as("%s page %d asks a question: it must not say \"%s\"", lesson, page.number(), answer)
                        .doesNotContain(answer);
            }
        }
        String last = printed.pages().getLast().text();
        for (String answer : answers) {
            assertThat(last).as("%s: the answers page says \"%s\"", lesson, answer).contains(answer);
        }
    }

    private static String prefix(String sentence) {
        String words = Printed.words(sentence);
        return words.substring(0, Math.min(PREFIX, words.length()));
    }
}

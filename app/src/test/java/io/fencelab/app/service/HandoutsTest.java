package io.fencelab.app.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.report.Handout;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.Workshop;
import io.fencelab.scenarios.WorkshopLoader;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class HandoutsTest {

    /** Kept under target so a person can open and print them. */
    private static final Path KEPT = Path.of("target", "handouts");

    @Test
    void everyCatalogScenarioGetsAPrintableHandoutWithItsStoryQuestionsBothRunsAndTheCommand(Database db) throws Exception {
        for (String name : Catalog.shipped().names()) {
            Handouts.Written written = Handouts.scenario(db, name, KEPT.resolve("scenarios"), Handout.Options.STUDENT_A4);
            Path page = written.pages().getFirst();
            assertThat(page).hasFileName(name + ".html");
            Document doc = Jsoup.parse(Files.readString(page));
            var scenario = Catalog.shipped().load(name);
            List<StoryStep> steps = scenario.notes().steps();

            assertThat(doc.select("h1").text()).as(name).isEqualTo(scenario.notes().title());
            assertThat(doc.select("p.summary").text()).as(name).isEqualTo(scenario.notes().summary().strip());
            Elements shown = doc.select("section.story ol.steps > li.step");
            assertThat(shown).as("%s: one numbered step per story step", name).hasSize(steps.size());
            boolean[] told = Handout.toldWithAnswers(steps);
            String answersText = doc.select("section.answers").text();
            String storyText = doc.select("section.story").text();
            int q = 0;
            for (int i = 0; i < steps.size(); i++) {
                if (told[i]) {
                    // It tells an answer: held back from the story, told after the answer.
                    assertThat(shown.get(i).hasClass("held")).as("%s step %d held back", name, i + 1).isTrue();
                    assertThat(storyText).as("%s step %d is not in the story", name, i + 1).doesNotContain(steps.get(i).text());
                    assertThat(answersText).as("%s step %d is on the answers page", name, i + 1).contains(steps.get(i).text());
                    continue;
                }
                assertThat(shown.get(i).child(0).text()).as("%s step %d", name, i + 1).isEqualTo(steps.get(i).text());
                Question question = steps.get(i).question();
                if (question != null) {
                    q++;
                    Element box = shown.get(i).selectFirst("div.question");
                    assertThat(box).as("%s step %d asks", name, i + 1).isNotNull();
                    assertThat(box.select("ol.choices").attr("type")).isEqualTo("A");
                    assertThat(box.select("ol.choices > li").eachText()).as("%s step %d choices", name, i + 1)
                            .isEqualTo(question.choices());
                    assertThat(box.text()).as("the question does not give its answer away").doesNotContain(question.why());
                    if (i + 1 < steps.size() && !steps.get(i + 1).asks()) {
                        assertThat(told[i + 1]).as("%s: the step after question %d tells its answer: held back", name, q).isTrue();
                    }
                    Element answer = doc.select("section.answers ol.answers > li").get(q - 1);
                    assertThat(answer.select(".right").text()).as("%s answer %d", name, q)
                            .isEqualTo(Question.letter(question.answer()) + ": " + question.rightChoice());
                    assertThat(answer.select(".why").text()).isEqualTo("Why: " + question.why());
                }
            }
            assertThat(doc.select("section.answers")).as("%s: an Answers section exactly when it asks", name)
                    .hasSize(q > 0 ? 1 : 0);
            assertThat(doc.select(".teacher")).as("teacher's notes stay out of the student handout").isEmpty();

            for (String id : List.of("with", "without")) {
                Element run = doc.getElementById(id);
                assertThat(run).as("%s: section #%s", name, id).isNotNull();
                assertThat(run.select("svg.timeline")).as("%s #%s timeline", name, id).hasSize(1);
                assertThat(run.select(".verdict .badge").text()).as("%s #%s verdict", name, id).isIn("SAFE", "VIOLATED");
                assertThat(run.select(".verdict p.lead").text()).as("%s #%s verdict in words", name, id).isNotBlank();
            }
            assertThat(doc.getElementById("with").select("p.meta").text()).contains("fencing FENCED");
            assertThat(doc.getElementById("without").select("p.meta").text()).doesNotContain("fencing FENCED");
            String commands = doc.select("section.reproduce pre").text();
            assertThat(commands).as(name).contains("fencelab run " + name + " --seed " + scenario.spec().seed() + "    # as written")
                    .contains("--fencing " + Handout.counterpart(scenario.spec().fencing()) + " --expect ");

            String style = doc.select("style").html();
            assertThat(style).contains("@media print").contains("@page{size:A4");
            assertThat(doc.select("script")).isEmpty();
            assertThat(doc.select("[src], link[href]")).as("nothing fetched").isEmpty();
        }
    }

    @Test
    void theUnfencedStoryIsShownBesideItsFencedVariantAndLabelledAsWritten(Database db, @TempDir Path dir) throws Exception {
        Path page = Handouts.scenario(db, "paused-holder-unfenced", dir, Handout.Options.STUDENT_A4).pages().getFirst();
        Document doc = Jsoup.parse(Files.readString(page));

        assertThat(doc.getElementById("with").select("p.meta").text()).contains("fencing FENCED")
                .contains("with fencing FENCED instead of UNFENCED");
        assertThat(doc.getElementById("with").select(".badge").text()).isEqualTo("SAFE");
        assertThat(doc.getElementById("without").select("p.meta").text()).contains("the scenario as written");
        assertThat(doc.getElementById("without").select(".badge").text()).isEqualTo("VIOLATED");
        assertThat(doc.select("section.reproduce pre").text())
                .contains("fencelab run paused-holder-unfenced --seed 1    # as written")
                .contains("fencelab run paused-holder-unfenced --seed 1 --fencing FENCED --expect SAFE");
        Path fenced = Handouts.scenario(db, "paused-holder", dir, Handout.Options.STUDENT_A4).pages().getFirst();
        assertThat(Jsoup.parse(Files.readString(fenced)).select("section.reproduce").text())
                .as("the unfenced rerun says what students will see, and exits 0 on it")
                .contains("fencelab run paused-holder --seed 1 --fencing UNFENCED --expect VIOLATED")
                .contains("It reports VIOLATED").contains("exit status 0");
    }

    @Test
    void theShippedWorkshopGetsAnIndexInOrderWithMinutesAndAPagePerLesson(Database db) throws Exception {
        Workshop workshop = WorkshopLoader.shipped();
        Handouts.Written written = Handouts.workshop(db, workshop, "workshop.yaml", KEPT.resolve("workshop"),
                Handout.Options.STUDENT_A4);

        Document index = Jsoup.parse(Files.readString(written.index()));
        assertThat(index.select("h1").text()).isEqualTo(workshop.title());
        assertThat(index.select("ol.lessons > li > a").eachAttr("href")).containsExactlyElementsOf(
                written.pages().stream().map(p -> p.getFileName().toString()).toList());
        assertThat(index.select("ol.lessons > li > a").eachText())
                .containsExactlyElementsOf(workshop.lessons().stream().map(Workshop.Lesson::title).toList());
        assertThat(index.select(".minutes").eachText()).first().isEqualTo(workshop.lessons().getFirst().minutes() + " min");
        assertThat(index.select(".eyebrow").text()).contains("about " + workshop.minutes() + " minutes");
        assertThat(written.pages().getFirst()).hasFileName("01-paused-holder.html");

        Document sweep = Jsoup.parse(Files.readString(written.pages().getLast()));
        assertThat(sweep.select("section.sweep pre").text())
                .isEqualTo(workshop.lessons().getLast().file().suggestedSweep().orElseThrow().command());
        assertThat(sweep.select("svg.timeline")).as("the sweep lesson shows the scenario's run, not the sweep").hasSize(1);
        assertThat(sweep.select(".eyebrow").text()).contains("lesson 6 of 6");
    }

    @Test
    void theTeachersVersionCarriesTheNotesAndLetterPaperSaysSo(Database db, @TempDir Path dir) throws Exception {
        Path page = Handouts.scenario(db, "paused-holder", dir, new Handout.Options(Handout.Paper.LETTER, true))
                .pages().getFirst();
        Document doc = Jsoup.parse(Files.readString(page));

        assertThat(doc.select(".teacher").eachText()).anySatisfy(t -> assertThat(t).contains("The number 41"));
        assertThat(doc.select("style").html()).contains("@page{size:letter");
    }

    @Test
    void aStepTheRunNeverReachesIsALocatedErrorAndNothingIsWritten(Database db, @TempDir Path dir) throws Exception {
        String text = Catalog.shipped().source("paused-holder").text()
                .replace("on: {type: LeaseAcquired, holder: B}", "on: {type: LeaseAcquired, holder: Z}");
        Files.writeString(dir.resolve("never.yaml"), text);
        Files.writeString(dir.resolve("w.yaml"), "title: T\nlessons:\n  - scenario: paused-holder\n  - scenario: never.yaml\n");
        Path out = dir.resolve("out");

        assertThatThrownBy(() -> Handouts.workshop(db, WorkshopLoader.load(dir.resolve("w.yaml")), "w.yaml", out,
                Handout.Options.STUDENT_A4))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining("never.yaml:" + lineOf(text, "holder: Z") + ":1: story[3]: step 4 is never reached")
                .hasMessageContaining("LeaseAcquired holder=Z")
                .hasMessageContaining("(lesson 2 of w.yaml)");
        assertThat(out).doesNotExist();
    }

    @Test
    void theSameLessonGivesTheSameBytes(Database db, @TempDir Path dir) throws Exception {
        byte[] one = Files.readAllBytes(Handouts.scenario(db, "paused-holder", dir.resolve("1"), Handout.Options.STUDENT_A4)
                .pages().getFirst());
        byte[] two = Files.readAllBytes(Handouts.scenario(db, "paused-holder", dir.resolve("2"), Handout.Options.STUDENT_A4)
                .pages().getFirst());
        assertThat(two).isEqualTo(one);
        assertThat(Handout.counterpart(FencingMode.CHECK_THEN_WRITE)).isEqualTo(FencingMode.FENCED);
    }

    private static int lineOf(String text, String needle) {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) {
                return i; // the step's line is the `- text:` line just above its `on:`
            }
        }
        throw new AssertionError(needle);
    }
}

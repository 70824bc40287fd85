package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.votes.VoteTally;
import io.fencelab.scenarios.Question;
import io.fencelab.testing.Browser;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.image.ImageView;
import org.junit.jupiter.api.Test;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Votes from the room, end to end: the shipped workshop open in the console, its first lesson's
 * question asked, and 20 phones (four headless Chromiums at once, each voting as five phones with
 * fresh cookies) voting on the page the presenter view points them to; then the reveal's chart in the
 * presenter view, a show of hands from the teacher's window, refusals, and the server gone with the workshop.
 */
class VotesFromTheRoomTest extends ConsoleTestBase {

    private static final int BROWSERS = 4;
    private static final int PHONES_EACH = 5;
    private static final int PHONES = BROWSERS * PHONES_EACH;
    /** The step of the paused holder's story whose question is asked: step 2 (0-based 1), "What does A notice?". */
    private static final int STEP = 1;

    @Test
    void twentyPhonesVoteOnceEachAndThePresenterViewChartsTheirCountsAtTheReveal() throws Exception {
        waitForDatabase();
        ConsoleFx.openShippedWorkshopAt1280x720(console);
        waitUntil("the first lesson's story is loaded", 30, () -> console.model().lesson().steps().size() > STEP
                && console.model().lesson().steps().get(STEP).asks());
        String url = fx(() -> console.model().votes().addressProperty().get());
        InetAddress lan = InetAddress.getByName(URI.create(url).getHost());
        assertThat(url).as("the vote server runs while the workshop is open").startsWith("http://").endsWith("/");
        if (!io.fencelab.app.votes.LanAddress.find().isLoopbackAddress()) {
            assertThat(lan.isLoopbackAddress()).as("the address shown is the LAN's, not loopback: " + url).isFalse();
        }
        int port = fx(() -> console.votes().port());

        // What guided mode does at the step with the question (GuidedModeTest plays that part for real).
        fxRun(() -> {
            console.workshop().setPresenter(true);
            console.model().lesson().questionStepProperty().set(STEP);
            console.model().lesson().questionProperty().set(QuestionState.ASKING);
        });
        ConsoleFx.frames();
        Question question = fx(() -> console.model().lesson().shownQuestion());
        String id = fx(() -> console.votes().tally().ballot().id());
        Node panel = fx(() -> console.view().presenter().lookup("#votes"));
        assertThat(fx(panel::isVisible)).as("the vote panel while the question is asked").isTrue();
        assertThat(fx(() -> ((Label) panel.lookup("#votes-address")).getText())).isEqualTo(
                url.replaceFirst("^http://", "").replaceFirst("/$", ""));
        assertThat(fx(() -> ((ImageView) panel.lookup("#votes-qr")).getImage())).as("the QR code").isNotNull();
        assertThat(fx(() -> ((ImageView) panel.lookup("#votes-qr")).getImage().getWidth())).isGreaterThanOrEqualTo(90.0);
        ConsoleFx.screenshot(console.scene().getRoot(), "votes-asking");

        // Voter k picks the right answer for the first eleven, then the choices in turn.
        int n = question.choices().size();
        int[] plan = new int[PHONES];
        int[] expected = new int[n];
        for (int k = 0; k < PHONES; k++) {
            plan[k] = k < 11 ? question.answer() : k % n;
            expected[plan[k]]++;
        }
        List<ChromeDriver> browsers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(BROWSERS);
        try {
            List<Future<ChromeDriver>> opened = new ArrayList<>();
            for (int b = 0; b < BROWSERS; b++) {
                opened.add(pool.submit(Browser::open));
            }
            for (Future<ChromeDriver> f : opened) {
                browsers.add(f.get());
            }
            List<Future<List<String>>> voting = new ArrayList<>();
            for (int b = 0; b < BROWSERS; b++) {
                ChromeDriver browser = browsers.get(b);
                int first = b * PHONES_EACH;
                voting.add(pool.submit(() -> {
                    List<String> notes = new ArrayList<>();
                    for (int k = first; k < first + PHONES_EACH; k++) {
                        notes.add(voteAsANewPhone(browser, url, plan[k]));
                    }
                    return notes;
                }));
            }
            for (Future<List<String>> f : voting) {
                assertThat(f.get()).as("what each phone's page said after its vote")
                        .allSatisfy(note -> assertThat(note).isEqualTo("Your vote is counted. Watch the screen for the answer."));
            }
            waitUntil("the console counted all " + PHONES + " phones", 10, () -> {
                VoteTally.Counts c = console.model().votes().countsProperty().get();
                return c != null && c.phoneVotes() == PHONES;
            });
            VoteTally.Counts counted = fx(() -> console.model().votes().countsProperty().get());
            for (int c = 0; c < n; c++) {
                assertThat(counted.phones().get(c)).as("phones for choice " + Question.letter(c)).isEqualTo(expected[c]);
            }
            assertThat(fx(() -> ((Label) panel.lookup("#votes-note")).getText())).isEqualTo(PHONES + " votes so far");
            assertThat(fx(() -> panel.lookup("#votes-bars") == null || !panel.lookup("#votes-bars").isVisible()))
                    .as("no counts per choice while the room is still voting").isTrue();

            // The last phone of the first browser votes again, with the cookie it voted with.
            ChromeDriver again = browsers.getFirst();
            assertThat(post(again, id, (plan[PHONES_EACH - 1] + 1) % n))
                    .startsWith("409").contains("already voted");
            again.navigate().refresh();
            waitFor(again, "the page shows the vote is in", () -> note(again).contains("Your vote is counted"));
            assertThat(again.findElements(By.cssSelector("button.choice")))
                    .as("a phone that voted cannot press a choice again").allSatisfy(b -> assertThat(b.isEnabled()).isFalse());
            again.manage().window().setSize(new Dimension(412, 800));
            Path phone = Path.of("target", "screenshots", "votes-phone.png");
            Files.createDirectories(phone.getParent());
            Files.write(phone, again.getScreenshotAs(OutputType.BYTES));
            assertThat(fx(() -> console.model().votes().countsProperty().get().phones()))
                    .as("the refused second vote changed nothing").isEqualTo(counted.phones());

            // The reveal: the chart, and a show of hands keyed in the teacher's window added to it.
            fxRun(() -> {
                console.model().lesson().questionProperty().set(QuestionState.REVEALED);
                // Two screens, faked: the teacher's window (with the hands) is on the laptop, not over the question.
                console.model().lesson().screensProperty().set(2);
                console.workshop().setTeacher(true);
            });
            ConsoleFx.frames();
            int hands = 3;
            fxRun(() -> {
                @SuppressWarnings("unchecked")
                Spinner<Integer> spinner = (Spinner<Integer>) console.view().teacher().root()
                        .lookup("#hands-" + Question.letter(0));
                spinner.getValueFactory().setValue(hands);
            });
            ConsoleFx.frames();
            expected[0] += hands;
            // At the reveal the chart is the choices themselves: each has its bar and count under it.
            Node presenter = console.view().presenter();
            for (int c = 0; c < n; c++) {
                char letter = Question.letter(c);
                assertThat(fx(() -> ((Label) presenter.lookup("#vote-count-" + letter)).getText()))
                        .as("the chart's count for " + letter)
                        .isEqualTo(expected[c] == 1 ? "1 vote" : expected[c] + " votes");
            }
            char right = Question.letter(question.answer());
            assertThat(fx(() -> presenter.lookup("#vote-row-" + right).getStyleClass())).contains("votes-right");
            assertThat(fx(() -> presenter.lookup("#vote-row-" + right).getParent().getStyleClass()))
                    .as("the right answer's bar is under the choice marked right").contains("presenter-choice-right");
            assertThat(fx(() -> ((Label) presenter.lookup("#votes-total")).getText()))
                    .isEqualTo("The room: " + (PHONES + hands) + " votes (" + hands + " by show of hands)");
            assertThat(fx(panel::isVisible)).as("no QR code once the question is answered").isFalse();
            assertThat(fx(() -> ConsoleFx.textUnder18Px(console.view().presenter()))).as("text under 18 px in the presenter view")
                    .isEmpty();
            ConsoleFx.screenshot(console.scene().getRoot(), "votes-reveal");
            ConsoleFx.screenshot(console.view().teacher().root(), "votes-teacher-hands");

            assertThat(post(browsers.get(1), id, 0)).as("a vote after the reveal").startsWith("410").contains("closed");
            fxRun(() -> console.workshop().next());
            waitUntil("the next lesson dropped the votes", 10,
                    () -> console.model().votes().countsProperty().get() == null);
            assertThat(post(browsers.get(2), id, 0)).as("a vote for the last lesson's question")
                    .startsWith("410").contains("not being asked");
            assertThat(fx(panel::isVisible)).isFalse();
        } finally {
            browsers.forEach(ChromeDriver::quit);
            pool.shutdownNow();
        }

        fxRun(() -> console.workshop().close());
        assertThat(fx(() -> console.model().votes().addressProperty().get())).isEmpty();
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
                .as("the port is closed with the workshop").isInstanceOf(ConnectException.class);
    }

    /** Opens the page as a phone never seen before (its cookies cleared) and votes {@code choice}; returns the page's note. */
    private static String voteAsANewPhone(ChromeDriver browser, String url, int choice) {
        browser.get(url);
        browser.manage().deleteAllCookies();
        browser.get(url);
        By button = By.cssSelector("button.choice[data-choice='" + choice + "']");
        waitFor(browser, "choice " + choice + " on the page", () -> !browser.findElements(button).isEmpty()
                && browser.findElement(button).isEnabled());
        browser.findElement(button).click();
        waitFor(browser, "the page says whether the vote counted", () -> !note(browser).equals("Tap your answer."));
        return note(browser);
    }

    private static String note(ChromeDriver browser) {
        List<WebElement> note = browser.findElements(By.id("note"));
        return note.isEmpty() ? "" : note.getFirst().getText();
    }

    /** Posts a vote from the page as its script does; returns the status and the page's message. */
    private static String post(ChromeDriver browser, String question, int choice) {
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        return String.valueOf(browser.executeAsyncScript("""
                var done = arguments[arguments.length - 1];
                fetch('vote', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},
                    body: 'question=' + encodeURIComponent(arguments[0]) + '&choice=' + arguments[1]})
                  .then(function (r) { return r.json().then(function (j) { done(r.status + ' ' + j.message); }); })
                  .catch(function (e) { done('failed ' + e); });
                """, question, choice));
    }

    private static void waitFor(ChromeDriver browser, String what, Supplier<Boolean> condition) {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out waiting for " + what + "; page: " + browser.getPageSource());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}

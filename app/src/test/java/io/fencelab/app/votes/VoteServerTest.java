package io.fencelab.app.votes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.CookieManager;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The vote server over plain HTTP: what it answers, what it refuses, and that stopping it frees the port. */
class VoteServerTest {

    private final VoteTally tally = new VoteTally();
    private final VoteServer server = start();
    private final String base = server.url(InetAddress.getLoopbackAddress());

    private VoteServer start() {
        try {
            return VoteServer.start(tally, 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static HttpClient phone() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    private HttpResponse<String> get(HttpClient client, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(HttpClient client, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(base + "vote"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void thePageGivesAVoterCookieAndOnlyItsOwnScriptMayRun() throws Exception {
        HttpResponse<String> page = get(phone(), "");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("createElement('button')", "fetch('vote'").doesNotContain("http://", "https://");
        assertThat(page.headers().firstValue("Set-Cookie")).get().asString()
                .startsWith(VoteServer.COOKIE + "=").contains("HttpOnly").containsIgnoringCase("SameSite=Strict");
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString()
                .contains("default-src 'none'", "script-src 'sha256-");
        assertThat(page.headers().firstValue("Cache-Control")).contains("no-store");
    }

    @Test
    void theQuestionShowsItsChoicesButNeverTheAnswerAndSaysWhetherThisPhoneVoted() throws Exception {
        HttpClient phone = phone();
        assertThat(get(phone, "question").body()).isEqualTo("{\"id\":null}");
        String id = tally.open(1, "What does A notice?", List.of("Its lease ran out", "Nothing at all"));
        String asked = get(phone, "question").body();
        assertThat(asked).contains("\"id\":\"" + id + "\"", "What does A notice?", "Nothing at all", "\"voted\":false");
        assertThat(post(phone, "question=" + id + "&choice=1").statusCode()).isEqualTo(200);
        assertThat(get(phone, "question").body()).contains("\"voted\":true");
    }

    @Test
    void votesOutsideTheRulesAreRefusedWithAReasonAndNotCounted() throws Exception {
        String id = tally.open(0, "Which?", List.of("a", "b", "c"));
        HttpClient phone = phone();
        get(phone, "");

        HttpResponse<String> noCookie = post(HttpClient.newHttpClient(), "question=" + id + "&choice=0");
        assertThat(noCookie.statusCode()).isEqualTo(400);
        assertThat(noCookie.body()).contains("reload the page");
        HttpResponse<String> range = post(phone, "question=" + id + "&choice=3");
        assertThat(range.statusCode()).isEqualTo(400);
        assertThat(range.body()).contains("not one of the choices");
        assertThat(post(phone, "question=" + id + "&choice=one").statusCode()).isEqualTo(400);
        assertThat(post(phone, "choice=1").statusCode()).isEqualTo(400);
        HttpResponse<String> unknown = post(phone, "question=0123&choice=0");
        assertThat(unknown.statusCode()).isEqualTo(410);
        assertThat(unknown.body()).contains("not being asked");
        HttpResponse<String> big = post(phone, "question=" + id + "&choice=0&pad=" + "x".repeat(2000));
        assertThat(big.statusCode()).isEqualTo(413);
        assertThat(get(phone, "nothing-here").statusCode()).isEqualTo(404);
        assertThat(phone.send(HttpRequest.newBuilder(URI.create(base + "vote")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("GET /vote").isEqualTo(405);
        assertThat(tally.latest().total()).as("none of it counted").isZero();

        assertThat(post(phone, "question=" + id + "&choice=2").statusCode()).isEqualTo(200);
        HttpResponse<String> twice = post(phone, "question=" + id + "&choice=1");
        assertThat(twice.statusCode()).isEqualTo(409);
        assertThat(twice.body()).contains("already voted");
        tally.close();
        HttpResponse<String> late = post(phone(), "question=" + id + "&choice=1");
        assertThat(late.statusCode()).as("no cookie and closed: the cookie is checked first").isEqualTo(400);
        HttpClient latecomer = phone();
        get(latecomer, "");
        HttpResponse<String> closed = post(latecomer, "question=" + id + "&choice=1");
        assertThat(closed.statusCode()).isEqualTo(410);
        assertThat(closed.body()).contains("closed");
        assertThat(tally.latest().phones()).containsExactly(0, 0, 1);
    }

    @Test
    void closingTheServerFreesThePort() throws Exception {
        int port = server.port();
        assertThat(get(phone(), "").statusCode()).isEqualTo(200);
        server.close();
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
                .isInstanceOf(ConnectException.class);
    }
}

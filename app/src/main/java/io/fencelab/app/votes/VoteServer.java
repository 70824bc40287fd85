package io.fencelab.app.votes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The page phones vote on, served while a workshop is open (Jetty, plain handler, no servlets):
 * {@code GET /} the page, {@code GET /question} the open question as JSON, {@code POST /vote} a vote
 * ({@code question=ID&choice=N}, 0-based). A phone is known only by a random id in a cookie, set by
 * the page; the {@link VoteTally} decides what counts. Bodies over {@value #MAX_BODY} bytes are
 * refused, and nothing a phone sends is logged.
 */
public final class VoteServer implements AutoCloseable {

    /** The largest vote body read: a question id and a choice need a few dozen bytes. */
    static final int MAX_BODY = 512;
    static final String COOKIE = "fencelab-voter";
    private static final Pattern VOTER_ID = Pattern.compile("[0-9a-f]{32}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Server server;
    private final ServerConnector connector;

    private VoteServer(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    /**
     * Starts serving {@code tally} on every interface at {@code port} (0: any free port); when that
     * port is taken, at any free port.
     */
    public static VoteServer start(VoteTally tally, int port) throws IOException {
        try {
            return startAt(tally, port);
        } catch (IOException e) {
            // Jetty wraps the BindException of a taken port; any other failure will fail again at port 0.
            if (port == 0) {
                throw e;
            }
            return startAt(tally, 0);
        }
    }

    private static VoteServer startAt(VoteTally tally, int port) throws IOException {
        // A room is a few dozen phones asking every second and a half: a few threads are plenty.
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("fencelab-votes");
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(8 * 1024);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setPort(port);
        connector.setIdleTimeout(30_000);
        server.addConnector(connector);
        server.setHandler(new Votes(tally, new java.security.SecureRandom()));
        server.setStopTimeout(1_000);
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly(server);
            throw e;
        } catch (Exception e) {
            stopQuietly(server);
            throw new IOException("the vote server did not start: " + e.getMessage(), e);
        }
        return new VoteServer(server, connector);
    }

    /** The port it listens on. */
    public int port() {
        return connector.getLocalPort();
    }

    /** The address phones open: {@code http://ADDRESS:PORT/}. */
    public String url(InetAddress address) {
        return "http://" + address.getHostAddress() + ":" + port() + "/";
    }

    /** Stops serving and frees the port. */
    @Override
    public void close() {
        stopQuietly(server);
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            // Stopping a server that half started: its port is released with its connector either way.
        }
    }

    /** The three addresses; everything else is not found. */
    private static final class Votes extends Handler.Abstract {
        private final VoteTally tally;
        private final java.security.SecureRandom random;

        Votes(VoteTally tally, java.security.SecureRandom random) {
            this.tally = tally;
            this.random = random;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPath();
            String method = request.getMethod();
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
            response.getHeaders().put("X-Content-Type-Options", "nosniff");
            response.getHeaders().put("Referrer-Policy", "no-referrer");
            switch (path == null ? "" : path) {
                case "/" -> {
                    if (!method.equals("GET")) {
                        return refuseMethod(response, callback);
                    }
                    voter(request, response);
                    response.getHeaders().put("Content-Security-Policy", VotePage.POLICY);
                    write(response, callback, HttpStatus.OK_200, "text/html; charset=utf-8", VotePage.html());
                }
                case "/question" -> {
                    if (!method.equals("GET")) {
                        return refuseMethod(response, callback);
                    }
                    question(request, response, callback);
                }
                case "/vote" -> {
                    if (!method.equals("POST")) {
                        return refuseMethod(response, callback);
                    }
                    vote(request, response, callback);
                }
                default -> write(response, callback, HttpStatus.NOT_FOUND_404, "text/plain; charset=utf-8",
                        "Not found. Open the address on the screen.");
            }
            return true;
        }

        private void question(Request request, Response response, Callback callback) {
            String voter = voter(request, response);
            VoteTally.Ballot ballot = tally.ballot();
            Map<String, Object> body = new LinkedHashMap<>();
            if (ballot == null) {
                body.put("id", null);
            } else {
                body.put("id", ballot.id());
                body.put("ask", ballot.ask());
                body.put("choices", ballot.choices());
                body.put("voted", tally.hasVoted(ballot.id(), voter));
            }
            json(response, callback, HttpStatus.OK_200, body);
        }

        private void vote(Request request, Response response, Callback callback) {
            String voter = knownVoter(request);
            if (voter == null) {
                answer(response, callback, HttpStatus.BAD_REQUEST_400, false,
                        "Your phone has no voter cookie: reload the page (cookies must be allowed).");
                return;
            }
            long length = request.getLength();
            if (length > MAX_BODY) {
                answer(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, false, "That vote is too large.");
                return;
            }
            Map<String, String> form;
            try {
                form = readForm(request);
            } catch (IOException e) {
                answer(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, false, "That vote is too large.");
                return;
            }
            String id = form.get("question");
            int choice;
            try {
                choice = Integer.parseInt(form.getOrDefault("choice", ""));
            } catch (NumberFormatException e) {
                choice = Integer.MIN_VALUE;
            }
            if (id == null || choice == Integer.MIN_VALUE) {
                answer(response, callback, HttpStatus.BAD_REQUEST_400, false,
                        "A vote needs a question and a choice.");
                return;
            }
            switch (tally.vote(id, voter, choice)) {
                case COUNTED -> answer(response, callback, HttpStatus.OK_200, true,
                        "Your vote is counted. Watch the screen for the answer.");
                case ALREADY_VOTED -> answer(response, callback, HttpStatus.CONFLICT_409, false,
                        "You have already voted on this question: your first vote is the one counted.");
                case CLOSED -> answer(response, callback, HttpStatus.GONE_410, false,
                        "This question is closed: the answer is on the screen.");
                case UNKNOWN_QUESTION -> answer(response, callback, HttpStatus.GONE_410, false,
                        "That question is not being asked now. Wait for the next one.");
                case NO_SUCH_CHOICE -> answer(response, callback, HttpStatus.BAD_REQUEST_400, false,
                        "That is not one of the choices.");
            }
        }

        /** The form fields of a vote, read up to {@link #MAX_BODY} bytes (a longer body is an IOException). */
        private static Map<String, String> readForm(Request request) throws IOException {
            byte[] body;
            try (InputStream in = Content.Source.asInputStream(request)) {
                body = in.readNBytes(MAX_BODY + 1);
            }
            if (body.length > MAX_BODY) {
                throw new IOException("body over " + MAX_BODY + " bytes");
            }
            Map<String, String> form = new HashMap<>();
            for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    try {
                        form.putIfAbsent(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                                URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                    } catch (IllegalArgumentException e) {
                        // A malformed escape: the field is left out, and the vote refused for lack of it.
                    }
                }
            }
            return form;
        }

        /** The phone's voter id from its cookie, or null when it has none (or not one this server gives). */
        private static String knownVoter(Request request) {
            for (HttpCookie c : Request.getCookies(request)) {
                if (c.getName().equals(COOKIE) && VOTER_ID.matcher(c.getValue()).matches()) {
                    return c.getValue();
                }
            }
            return null;
        }

        /** The phone's voter id, given it in a cookie first when it has none. */
        private String voter(Request request, Response response) {
            String id = knownVoter(request);
            if (id == null) {
                byte[] b = new byte[16];
                random.nextBytes(b);
                id = java.util.HexFormat.of().formatHex(b);
                Response.addCookie(response, HttpCookie.build(COOKIE, id).path("/").httpOnly(true)
                        .sameSite(HttpCookie.SameSite.STRICT).build());
            }
            return id;
        }

        private static boolean refuseMethod(Response response, Callback callback) {
            write(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, "text/plain; charset=utf-8",
                    "Method not allowed.");
            return true;
        }

        private static void answer(Response response, Callback callback, int status, boolean ok, String message) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("ok", ok);
            body.put("message", message);
            json(response, callback, status, body);
        }

        private static void json(Response response, Callback callback, int status, Map<String, Object> body) {
            String text;
            try {
                text = JSON.writeValueAsString(body);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("strings, numbers and lists always write as JSON", e);
            }
            write(response, callback, status, "application/json; charset=utf-8", text);
        }

        private static void write(Response response, Callback callback, int status, String type, String text) {
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
            Content.Sink.write(response, true, text, callback);
        }
    }
}

package io.fencelab.app.votes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The page phones open: the open question and a large button per choice, nothing else. Plain HTML
 * with one small inline script (allowed by its hash in the Content-Security-Policy, nothing else may
 * run) that asks for the question every second and a half and sends the vote. No external assets:
 * the room's phones need only this machine.
 */
final class VotePage {

    private static final String SCRIPT = """
            (function () {
              var shown = null, sending = false;
              var ask = document.getElementById('ask');
              var choices = document.getElementById('choices');
              var note = document.getElementById('note');
              function say(text, kind) { note.textContent = text; note.className = kind || ''; }
              function draw(q) {
                var key = q.id ? q.id + (q.voted ? ':voted' : '') : '';
                if (key === shown) { return; }
                shown = key;
                choices.textContent = '';
                if (!q.id) {
                  ask.textContent = 'Waiting for the next question…';
                  say('');
                  return;
                }
                ask.textContent = q.ask;
                q.choices.forEach(function (text, i) {
                  var b = document.createElement('button');
                  b.type = 'button';
                  b.className = 'choice';
                  b.dataset.choice = String(i);
                  var letter = document.createElement('strong');
                  letter.textContent = String.fromCharCode(65 + i);
                  b.appendChild(letter);
                  b.appendChild(document.createTextNode('\u2002' + text));
                  b.disabled = q.voted;
                  b.addEventListener('click', function () { vote(q.id, i); });
                  choices.appendChild(b);
                });
                say(q.voted ? 'Your vote is counted. Watch the screen for the answer.' : 'Tap your answer.',
                    q.voted ? 'done' : '');
              }
              function poll() {
                fetch('question', {cache: 'no-store', credentials: 'same-origin'})
                  .then(function (r) { return r.json(); })
                  .then(draw)
                  .catch(function () { say('Cannot reach the presenter’s machine. Trying again…', 'refused'); });
              }
              function vote(id, choice) {
                if (sending) { return; }
                sending = true;
                fetch('vote', {method: 'POST', credentials: 'same-origin',
                    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
                    body: 'question=' + encodeURIComponent(id) + '&choice=' + choice})
                  .then(function (r) { return r.json(); })
                  .then(function (a) {
                    sending = false;
                    if (a.ok) { shown = null; poll(); }
                    say(a.message, a.ok ? 'done' : 'refused');
                  })
                  .catch(function () { sending = false; say('The vote did not arrive. Try again.', 'refused'); });
              }
              poll();
              setInterval(poll, 1500);
            })();
            """;

    private static final String HTML = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Fencelab: vote</title>
            <style>
              body { font-family: system-ui, sans-serif; margin: 0; padding: 1rem; background: #fff; color: #111;
                     font-size: 1.25rem; line-height: 1.4; }
              h1 { font-size: 1rem; color: #555; margin: 0 0 .75rem; font-weight: normal; }
              #ask { font-size: 1.4rem; font-weight: bold; margin: 0 0 1rem; }
              .choice { display: block; width: 100%; text-align: left; font-size: 1.25rem; padding: 1rem;
                        margin: 0 0 .75rem; border: 2px solid #1f5fa8; border-radius: .5rem; background: #eef4fb;
                        color: #111; }
              .choice:disabled { border-color: #bbb; background: #f2f2f2; color: #777; }
              #note { min-height: 1.5em; }
              #note.done { color: #176b2c; font-weight: bold; }
              #note.refused { color: #a8201a; font-weight: bold; }
            </style>
            </head>
            <body>
            <h1>Fencelab: the room’s vote</h1>
            <p id="ask">Waiting for the next question…</p>
            <div id="choices"></div>
            <p id="note" role="status"></p>
            <script>SCRIPT</script>
            </body>
            </html>
            """.replace("<script>SCRIPT</script>", "<script>" + SCRIPT + "</script>");

    /** The page's Content-Security-Policy: its own script and style only; requests to this server only. */
    static final String POLICY = "default-src 'none'; script-src 'sha256-" + sha256(SCRIPT) + "'; "
            + "style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'";

    private VotePage() {
    }

    static String html() {
        return HTML;
    }

    private static String sha256(String text) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}

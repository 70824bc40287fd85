package io.fencelab.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * Zoom and pan for the report's timeline: the buttons above it, the links that show it zoomed to a
 * window, and the small inline script that does it, declared by its hash in the page's
 * Content-Security-Policy (which allows nothing else to run or be fetched).
 *
 * <p>The script re-draws the time axis rather than stretching the picture: it maps every element of
 * the timeline's plot areas ({@code g.plot}, see {@link TimelineSvg}) from run time to the window,
 * keeps labels at their pixel offsets ({@code dx}), and draws the window's ticks by the same rule as
 * {@link TimeAxis#ticks(double, double, double)} (the one copy of that rule outside Java: keep the
 * two alike). "Whole run" puts back the picture as written. Without scripts the buttons stay hidden
 * and a zoom link is an ordinary link to the timeline.
 */
final class TimelineZoom {

    /** The element id of the timeline's section, which every zoom link points to. */
    static final String ANCHOR = "timeline";
    /** The narrowest window, as a fraction of the run: coordinates are written to 0.01 px, so 500 times is still exact to a pixel or two. */
    static final int MAX_ZOOM = 500;
    /** The narrowest window in a run long enough to allow it. */
    static final long MIN_WINDOW_MICROS = 1_000_000;

    private TimelineZoom() {
    }

    /** A stretch of run time the timeline is shown zoomed to. */
    record Window(long fromMicros, long toMicros) {

        /** {@code 447.8–477.9 s}: decimals enough to tell the ends apart (the script words its windows alike). */
        String words() {
            double width = (toMicros - fromMicros) / 1e6;
            int decimals = width >= 10 ? 1 : width >= 1 ? 2 : 3;
            return seconds(fromMicros, decimals) + "–" + seconds(toMicros, decimals) + " s";
        }

        private static String seconds(long micros, int decimals) {
            return String.format(Locale.ROOT, "%." + decimals + "f", micros / 1e6);
        }
    }

    /** The narrowest window the buttons and links go to in a run of {@code runMicros}. */
    static long minWindow(long runMicros) {
        return Math.min(Math.max(1, runMicros), Math.max(MIN_WINDOW_MICROS, runMicros / MAX_ZOOM));
    }

    /**
     * The window that shows {@code startMicros}–{@code endMicros} with a little before and after (a
     * fifth of its length each side), at least {@link #minWindow} wide, within the run.
     */
    static Window around(long startMicros, long endMicros, long runMicros) {
        long run = Math.max(1, runMicros);
        long start = Math.clamp(startMicros, 0, run);
        long end = Math.clamp(Math.max(endMicros, start), 0, run);
        long pad = (end - start) / 5;
        long from = start - pad;
        long to = end + pad;
        long min = minWindow(run);
        if (to - from < min) {
            long grow = min - (to - from);
            from -= grow / 2;
            to += grow - grow / 2;
        }
        if (from < 0) {
            to = Math.min(run, to - from);
            from = 0;
        }
        if (to > run) {
            from = Math.max(0, from - (to - run));
            to = run;
        }
        return new Window(from, to);
    }

    /**
     * A link that shows the timeline zoomed to the window around {@code startMicros}–{@code endMicros},
     * that stretch marked on it; its text names the window.
     */
    static void link(StringBuilder out, long startMicros, long endMicros, long runMicros) {
        Window w = around(startMicros, endMicros, runMicros);
        out.append("<a href=\"#").append(ANCHOR).append("\" data-zoom=\"").append(w.fromMicros()).append(' ')
                .append(w.toMicros()).append("\" data-mark=\"").append(Math.clamp(startMicros, 0, Math.max(1, runMicros)))
                .append(' ').append(Math.clamp(Math.max(endMicros, startMicros), 0, Math.max(1, runMicros)))
                .append("\" title=\"show the timeline zoomed to this window\">").append(Html.esc(w.words())).append("</a>");
    }

    /** The buttons above the timeline: hidden until the script shows them. */
    static void bar(StringBuilder out, long runMicros) {
        out.append("<div class=\"zoom\" id=\"timeline-zoom\" data-min=\"").append(minWindow(runMicros)).append("\" hidden>")
                .append("<button type=\"button\" data-act=\"earlier\">\u25C0 earlier</button>")
                .append("<button type=\"button\" data-act=\"in\">zoom in</button>")
                .append("<button type=\"button\" data-act=\"out\">zoom out</button>")
                .append("<button type=\"button\" data-act=\"later\">later \u25B6</button>")
                .append("<button type=\"button\" data-act=\"whole\">whole run</button>")
                .append(" <span class=\"zoom-status\" role=\"status\">whole run</span></div>\n");
    }

    /** The script element, to go at the end of the body. */
    static String scriptElement() {
        return "<script>" + SCRIPT + "</script>\n";
    }

    /**
     * The page's Content-Security-Policy: nothing fetched from anywhere, styles inline, and only this
     * script run (by its hash).
     */
    static String contentSecurityPolicy() {
        return "default-src 'none'; style-src 'unsafe-inline'; script-src '" + SCRIPT_HASH + "'";
    }

    static final String SCRIPT = """

            (function () {
              'use strict';
              var section = document.getElementById('timeline');
              var bar = document.getElementById('timeline-zoom');
              var svg = section && section.querySelector('svg.timeline');
              if (!svg || !bar) { return; }
              var NS = svg.namespaceURI;
              var run = +svg.dataset.run, left = +svg.dataset.left, plot = +svg.dataset.plot, min = +bar.dataset.min;
              var status = bar.querySelector('.zoom-status');
              var grids = Array.prototype.slice.call(svg.querySelectorAll('g.grid'));
              var MAPPED = {rect: ['x', 'width'], text: ['x'], use: ['x'], circle: ['cx'], line: ['x1', 'x2'], path: ['d']};
              var from = 0, to = run, mark = null, saved = null, band = null, clipped = [];

              function make(name, attrs) {
                var el = document.createElementNS(NS, name);
                for (var k in attrs) { el.setAttribute(k, attrs[k]); }
                return el;
              }
              function r2(v) { return Math.round(v * 100) / 100; }
              function xOf(t) { return left + (t - from) / (to - from) * plot; }
              function moved(x) { return xOf((x - left) / plot * run); }

              // The picture as written: what every zoom maps from, and what "whole run" puts back.
              function save() {
                saved = [];
                svg.querySelectorAll('g.plot').forEach(function (g) {
                  clipped.push(g);
                  g.querySelectorAll('*').forEach(function (el) {
                    var names = MAPPED[el.localName];
                    if (!names) { return; }
                    var o = {el: el};
                    names.forEach(function (n) { o[n] = el.getAttribute(n); });
                    saved.push(o);
                  });
                });
                grids.forEach(function (g) { g.written = Array.prototype.slice.call(g.childNodes); });
                var clip = make('clipPath', {id: 'timeline-zoom-clip'});
                clip.appendChild(make('rect', {x: left, y: 0, width: plot, height: svg.viewBox.baseVal.height}));
                var defs = make('defs', {});
                defs.appendChild(clip);
                svg.insertBefore(defs, svg.firstChild);
                band = make('rect', {'class': 'zoom-band', y: 0, height: svg.viewBox.baseVal.height});
              }

              function span(el, o) {
                var t = el.getAttribute('data-t');
                var x = +o.x, w = +o.width;
                if (!t) {
                  // A mark of fixed width (a pin, an instant fault): it moves, it does not grow.
                  el.setAttribute('x', r2(moved(x + w / 2) - w / 2));
                  return;
                }
                var se = t.split(' '), s = +se[0], e = +se[1];
                var gap = Math.max(0, (e - s) / run * plot - w);
                el.setAttribute('x', r2(xOf(s)));
                el.setAttribute('width', r2(Math.max(1.5, xOf(e) - xOf(s) - gap)));
              }

              // A span's label: at the span's start, or at the window's left edge while the span runs on past it.
              function sticky(el) {
                var se = el.getAttribute('data-t').split(' '), a = xOf(+se[0]), b = xOf(+se[1]);
                var room = el.textContent.length * 6.4 + 8;
                el.setAttribute('x', r2(a < left && b - left > room ? left : a));
              }

              function label(t) {
                var whole = Math.floor(t / 1e6), part = String(t % 1e6);
                if (part === '0') { return whole + 's'; }
                return whole + '.' + ('000000' + part).slice(-6).replace(/0+$/, '') + 's';
              }
              // TimeAxis.tickStep: 1, 2 or 5 times a power of ten, the smallest giving at most ten steps.
              function tickStep(span) {
                var least = span / 10, power = 1;
                for (;;) {
                  for (var f of [1, 2, 5]) { if (!(least > f * power)) { return f * power; } }
                  power *= 10;
                }
              }
              function ticks() {
                var step = tickStep(to - from);
                grids.forEach(function (g) {
                  while (g.firstChild) { g.removeChild(g.firstChild); }
                  var y = +g.dataset.labelY;
                  for (var k = Math.ceil(from / step); k * step <= to; k++) {
                    var x = r2(xOf(k * step));
                    g.appendChild(make('line', {x1: x, x2: x, y1: g.dataset.top, y2: g.dataset.bottom}));
                    if (y >= 0) {
                      var text = make('text', {'class': 'tick', x: x, y: y});
                      text.textContent = label(k * step);
                      g.appendChild(text);
                    }
                  }
                });
              }

              function words() {
                var width = (to - from) / 1e6, d = width >= 10 ? 1 : width >= 1 ? 2 : 3;
                return (from / 1e6).toFixed(d) + '–' + (to / 1e6).toFixed(d) + ' s';
              }

              function whole() {
                from = 0; to = run; mark = null;
                if (!saved) { return; }
                saved.forEach(function (o) {
                  for (var n in o) { if (n !== 'el' && o[n] !== null) { o.el.setAttribute(n, o[n]); } }
                });
                grids.forEach(function (g) {
                  while (g.firstChild) { g.removeChild(g.firstChild); }
                  g.written.forEach(function (node) { g.appendChild(node); });
                });
                clipped.forEach(function (g) { g.removeAttribute('clip-path'); });
                if (band.parentNode) { band.parentNode.removeChild(band); }
                svg.classList.remove('zoomed');
                status.textContent = 'whole run';
              }

              function show(f, t) {
                var width = Math.min(run, Math.max(min, t - f));
                from = Math.max(0, Math.min(run - width, f));
                to = from + width;
                if (from <= 0 && to >= run && !mark) { whole(); return; }
                if (!saved) { save(); }
                saved.forEach(function (o) {
                  var el = o.el;
                  if (el.localName === 'rect') {
                    span(el, o);
                  } else if (el.localName === 'text' && el.hasAttribute('data-t')) {
                    sticky(el);
                  } else if (el.localName === 'path') {
                    el.setAttribute('d', o.d.replace(/([MH])(-?[0-9.]+)/g, function (m, c, v) { return c + r2(moved(+v)); }));
                  } else {
                    for (var n in o) { if (n !== 'el' && o[n] !== null) { el.setAttribute(n, r2(moved(+o[n]))); } }
                  }
                });
                clipped.forEach(function (g) { g.setAttribute('clip-path', 'url(#timeline-zoom-clip)'); });
                ticks();
                if (mark) {
                  var x0 = Math.max(left - 2, xOf(mark[0])), x1 = Math.min(left + plot + 2, xOf(mark[1]));
                  band.setAttribute('x', r2(x0));
                  band.setAttribute('width', r2(Math.max(2, x1 - x0)));
                  svg.appendChild(band);
                } else if (band.parentNode) {
                  band.parentNode.removeChild(band);
                }
                svg.classList.add('zoomed');
                status.textContent = 'zoomed to ' + words() + (mark ? ' (the shaded stretch)' : '') + '; drag to pan';
              }

              bar.hidden = false;
              bar.addEventListener('click', function (e) {
                var act = e.target.getAttribute && e.target.getAttribute('data-act');
                var width = to - from, mid = (from + to) / 2;
                if (act === 'earlier') { show(from - width / 2, to - width / 2); }
                if (act === 'later') { show(from + width / 2, to + width / 2); }
                if (act === 'in') { show(mid - width / 4, mid + width / 4); }
                if (act === 'out') { show(mid - width, mid + width); }
                if (act === 'whole') { whole(); }
              });
              document.querySelectorAll('a[data-zoom]').forEach(function (a) {
                a.addEventListener('click', function (e) {
                  e.preventDefault();
                  var w = a.dataset.zoom.split(' ');
                  mark = a.dataset.mark.split(' ').map(Number);
                  show(+w[0], +w[1]);
                  section.scrollIntoView({block: 'start'});
                });
              });

              // Drag to pan a zoomed timeline.
              var dragX = null, dragFrom = 0, pending = false;
              svg.addEventListener('pointerdown', function (e) {
                if (!svg.classList.contains('zoomed')) { return; }
                dragX = e.clientX; dragFrom = from;
                svg.setPointerCapture(e.pointerId);
              });
              svg.addEventListener('pointermove', function (e) {
                if (dragX === null || pending) { return; }
                var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                var shift = (e.clientX - dragX) / scale / plot * (to - from);
                pending = true;
                requestAnimationFrame(function () {
                  pending = false;
                  if (dragX !== null) { var width = to - from; show(dragFrom - shift, dragFrom - shift + width); }
                });
              });
              svg.addEventListener('pointerup', function () { dragX = null; });
              svg.addEventListener('pointercancel', function () { dragX = null; });
            })();
            """;

    static final String SCRIPT_HASH = "sha256-" + sha256(SCRIPT);

    private static String sha256(String text) {
        try {
            return Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}

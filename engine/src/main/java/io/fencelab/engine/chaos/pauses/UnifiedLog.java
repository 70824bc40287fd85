package io.fencelab.engine.chaos.pauses;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a JDK unified log ({@code -Xlog}): its GC pause lines or its safepoint lines, never both, so
 * a pause is not counted twice (a GC pause is also a safepoint). The span comes from the lines' own
 * time decorations: uptime ({@code [12.345s]}, {@code [12345ms]}, {@code [12345ns]}) or, without
 * one, the wall-clock time ({@code [2024-05-01T12:00:00.123+0000]}); first line to last.
 */
final class UnifiedLog {

    /** {@code [0.172s][info][gc] }: the decorations before the message. */
    private static final Pattern DECORATED = Pattern.compile("^((?:\\[[^\\]]*\\])+)\\s?(.*)$");
    private static final Pattern DECORATION = Pattern.compile("\\[([^\\]]*)\\]");
    private static final Pattern UPTIME = Pattern.compile("(\\d+(?:\\.\\d+)?)(s|ms|ns)");
    private static final Pattern TAGS = Pattern.compile("[a-z][a-z0-9_]*(?:,[a-z][a-z0-9_]*)*");
    private static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warning", "error");
    private static final DateTimeFormatter WALL_CLOCK = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    /**
     * A GC pause: {@code GC(7) Pause Young (Normal) (G1 Evacuation Pause) 24M->8M(64M) 12.637ms};
     * ZGC's phases ({@code GC(3) Pause Mark Start 0.012ms}, generational: {@code GC(3) Y: Pause Mark
     * Start (Major) 0.012ms}), Shenandoah's {@code GC(2) Pause Init Mark 0.123ms}. Only lines that end
     * in the pause's duration: G1's {@code gc,start} line names the pause before it happened.
     */
    static final Pattern GC_PAUSE = Pattern.compile("GC\\(\\d+\\)\\s+(?:[A-Za-z]+:\\s+)?Pause\\b.*?\\s"
            + "(\\d+(?:\\.\\d+)?)(ms|s|us|ns)\\s*");
    /** JDK 13 and later: {@code Safepoint "G1CollectForAllocation", Time since last: …, Total: 14117537 ns…}. */
    static final Pattern SAFEPOINT_TOTAL = Pattern.compile("Safepoint \".*?\",.*?\\bTotal: (\\d+) ns\\b.*");
    /** JDK 9 to 12: {@code Total time for which application threads were stopped: 0.0141175 seconds, …}. */
    static final Pattern SAFEPOINT_STOPPED = Pattern.compile(
            "Total time for which application threads were stopped: (\\d+(?:\\.\\d+)?) seconds\\b.*");
    /** The tag sets pauses are logged under; {@code gc,stats} and the like repeat them in summaries. */
    private static final Set<String> GC_TAGS = Set.of("gc", "gc,phases");

    private UnifiedLog() {
    }

    /**
     * Whether {@code line} is a unified log's line: decorated with a time or a level (the defaults are
     * uptime, level and tags), or an undecorated pause line.
     */
    static boolean looksLike(String line) {
        Matcher m = DECORATED.matcher(line);
        if (m.matches()) {
            for (String d : decorations(m.group(1))) {
                if (time(d) != null || LEVELS.contains(d)) {
                    return true;
                }
            }
        }
        return source(line.strip()) != null;
    }

    static PauseSample read(String file, List<String> lines) {
        List<Duration> pauses = new ArrayList<>();
        Long first = null;
        Long last = null;
        int gcLine = 0;
        int safepointLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            int lineNumber = i + 1;
            String line = lines.get(i);
            Matcher m = DECORATED.matcher(line);
            String message = line.strip();
            String tags = null;
            if (m.matches()) {
                message = m.group(2).strip();
                for (String d : decorations(m.group(1))) {
                    Long t = time(d);
                    if (t != null) {
                        first = first == null ? t : first;
                        last = t;
                    } else if (!LEVELS.contains(d) && TAGS.matcher(d).matches()) {
                        tags = d; // tags are the last decoration
                    }
                }
            }
            Source source = source(message);
            if (source == null || !tagged(source, tags)) {
                continue;
            }
            if (source == Source.GC) {
                gcLine = gcLine == 0 ? lineNumber : gcLine;
            } else {
                safepointLine = safepointLine == 0 ? lineNumber : safepointLine;
            }
            if (gcLine > 0 && safepointLine > 0) {
                boolean gcFirst = gcLine < safepointLine;
                throw new PauseLogException(file, lineNumber, (gcFirst ? "a safepoint line" : "a GC pause line")
                        + " in a file whose line " + (gcFirst ? gcLine : safepointLine) + " is "
                        + (gcFirst ? "a GC pause line" : "a safepoint line") + ": a file gives one source of "
                        + "pauses, so that none is counted twice (every GC pause is also a safepoint); log "
                        + "-Xlog:gc or -Xlog:safepoint to separate files, or keep one kind of line "
                        + "(grep -v safepoint, or grep safepoint)");
            }
            pauses.add(source.duration(message));
        }
        if (pauses.isEmpty()) {
            throw new PauseLogException(file, 0, "a JDK unified log without pause lines (" + lines.size()
                    + " lines read): log GC pauses with -Xlog:gc (for ZGC, -Xlog:gc+phases, whose 'Pause Mark "
                    + "Start' lines are its pauses) or stops with -Xlog:safepoint");
        }
        Duration span = first == null ? null : Duration.ofNanos(Math.max(0, last - first) * 1_000);
        return new PauseSample(pauses, span, gcLine > 0 ? PauseFormat.GC_LOG : PauseFormat.SAFEPOINT_LOG, file);
    }

    private enum Source {
        GC, SAFEPOINT;

        Duration duration(String message) {
            Matcher m;
            if ((m = GC_PAUSE.matcher(message)).matches()) {
                return DurationText.of(m.group(1), m.group(2));
            }
            if ((m = SAFEPOINT_TOTAL.matcher(message)).matches()) {
                return DurationText.of(m.group(1), "ns");
            }
            m = SAFEPOINT_STOPPED.matcher(message);
            if (!m.matches()) {
                throw new IllegalStateException("not a pause line: " + message);
            }
            return DurationText.of(m.group(1), "s");
        }
    }

    private static Source source(String message) {
        if (GC_PAUSE.matcher(message).matches()) {
            return Source.GC;
        }
        if (SAFEPOINT_TOTAL.matcher(message).matches() || SAFEPOINT_STOPPED.matcher(message).matches()) {
            return Source.SAFEPOINT;
        }
        return null;
    }

    /** A line's tags, where it has them, must be those its source logs under. */
    private static boolean tagged(Source source, String tags) {
        return tags == null || switch (source) {
            case GC -> GC_TAGS.contains(tags);
            case SAFEPOINT -> tags.equals("safepoint");
        };
    }

    private static List<String> decorations(String all) {
        List<String> found = new ArrayList<>();
        Matcher d = DECORATION.matcher(all);
        while (d.find()) {
            found.add(d.group(1).strip());
        }
        return found;
    }

    /** A time decoration in microseconds (uptime, or wall clock since the epoch); null if {@code d} is none. */
    private static Long time(String d) {
        Matcher m = UPTIME.matcher(d);
        if (m.matches()) {
            return DurationText.of(m.group(1), m.group(2)).toNanos() / 1_000;
        }
        if (d.length() >= 24 && Character.isDigit(d.charAt(0)) && d.charAt(4) == '-') {
            try {
                OffsetDateTime t = OffsetDateTime.parse(d, WALL_CLOCK);
                return ChronoUnit.MICROS.between(OffsetDateTime.parse("1970-01-01T00:00:00.000+0000", WALL_CLOCK), t);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }
}

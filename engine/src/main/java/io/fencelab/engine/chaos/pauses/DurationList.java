package io.fencelab.engine.chaos.pauses;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads durations written by hand or exported from a monitoring tool: one duration with a unit a line
 * ({@code 12.5ms}), or a CSV file whose header names a {@code duration} column and, optionally, a
 * {@code time} column (when each pause happened, as a duration since any origin: {@code 12.345s}),
 * which gives the file its span. Blank lines and {@code #} comments are skipped.
 */
final class DurationList {

    private DurationList() {
    }

    /** Whether {@code line} (the file's first one that counts) starts a list of durations or a CSV file of them. */
    static boolean looksLike(String line) {
        return DurationText.parse(line) != null || header(line) != null;
    }

    static PauseSample read(String file, List<String> lines) {
        List<Duration> pauses = new ArrayList<>();
        int[] header = null;
        int columns = 0;
        Duration firstTime = null;
        Duration lastTime = null;
        for (int i = 0; i < lines.size(); i++) {
            int lineNumber = i + 1;
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (pauses.isEmpty() && header == null && DurationText.parse(line) == null) {
                header = header(line);
                if (header == null) {
                    throw new PauseLogException(file, lineNumber, notAHeader(line));
                }
                columns = cells(line).size();
                continue;
            }
            if (header == null) {
                Duration d = DurationText.parse(line);
                if (d == null) {
                    throw new PauseLogException(file, lineNumber, DurationText.why(line));
                }
                pauses.add(d);
                continue;
            }
            List<String> cells = cells(line);
            if (cells.size() != columns) {
                throw new PauseLogException(file, lineNumber, cells.size() + " columns where the header has "
                        + columns);
            }
            Duration d = DurationText.parse(cells.get(header[0]));
            if (d == null) {
                throw new PauseLogException(file, lineNumber, "duration: " + DurationText.why(cells.get(header[0])));
            }
            pauses.add(d);
            if (header[1] >= 0) {
                Duration t = DurationText.parse(cells.get(header[1]));
                if (t == null) {
                    throw new PauseLogException(file, lineNumber, "time: " + DurationText.why(cells.get(header[1])));
                }
                firstTime = firstTime == null || t.compareTo(firstTime) < 0 ? t : firstTime;
                lastTime = lastTime == null || t.compareTo(lastTime) > 0 ? t : lastTime;
            }
        }
        if (pauses.isEmpty()) {
            throw new PauseLogException(file, 0, header == null ? "has no durations" : "has a header but no rows");
        }
        return new PauseSample(pauses, firstTime == null ? null : lastTime.minus(firstTime),
                header == null ? PauseFormat.DURATIONS : PauseFormat.CSV, file);
    }

    /** The indexes of the duration and time (-1: none) columns a header line names; null if it is no such header. */
    private static int[] header(String line) {
        List<String> names = cells(line).stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        int duration = names.indexOf("duration");
        return duration < 0 ? null : new int[] {duration, names.indexOf("time")};
    }

    private static String notAHeader(String line) {
        if (line.contains(",")) {
            return "a CSV header without a duration column (" + PauseLogException.quote(line) + "); name the "
                    + "pauses' column duration, and their times' column time";
        }
        return DurationText.why(line);
    }

    private static List<String> cells(String line) {
        return Arrays.stream(line.split(",", -1)).map(c -> c.strip().replaceAll("^\"|\"$", "").strip()).toList();
    }
}

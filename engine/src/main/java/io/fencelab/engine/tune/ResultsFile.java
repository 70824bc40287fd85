package io.fencelab.engine.tune;

import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.metrics.TuningMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep's results as an append-only CSV ({@code sweep.csv}): a header, then one row per finished
 * run, appended and flushed as it finishes, so a sweep stopped at any moment keeps what it did and
 * resumes from it. Columns: {@code point, seed}, the varied parameters under their paths (durations
 * in seconds), every tuning metric ({@link TuningMetrics#NAMES}), the bound measures
 * ({@link Bounds#MEASURES}), {@code verdict}, {@code pastBound} (every bound the run went past and
 * why, {@link Bounds.PastBound#cell}; empty when none). A figure that does not exist is an empty cell.
 *
 * <p>Reopening keeps every complete row; a last line cut short by an interruption is dropped. When
 * the sweep ends, {@link #finish()} rewrites the rows sorted by point and seed, so a sweep gives the
 * same file however often it was interrupted and however its runs interleaved.
 */
public final class ResultsFile implements AutoCloseable {

    public static final String VERDICT = "verdict";
    public static final String PAST_BOUND = "pastBound";

    private final Path file;
    private final SweepPlan plan;
    private final List<String> header;
    private final List<Point> points;
    private final Map<Key, ResultRow> rows = new LinkedHashMap<>();
    private Writer out;

    private record Key(int point, long seed) {}

    private ResultsFile(Path file, SweepPlan plan) {
        this.file = file;
        this.plan = plan;
        this.header = header(plan);
        this.points = plan.points();
    }

    /** The columns of a plan's results file, in order. */
    public static List<String> header(SweepPlan plan) {
        List<String> h = new ArrayList<>(List.of("point", "seed"));
        h.addAll(plan.paths());
        h.addAll(figureNames());
        h.add(VERDICT);
        h.add(PAST_BOUND);
        return List.copyOf(h);
    }

    /** The figures of every row: the tuning metrics, then the bound measures. */
    public static List<String> figureNames() {
        List<String> names = new ArrayList<>(TuningMetrics.NAMES);
        names.addAll(Bounds.MEASURES);
        return List.copyOf(names);
    }

    /**
     * Opens {@code file} for {@code plan}, reading the rows already there.
     *
     * @throws IllegalArgumentException if the file holds results of another plan (other columns, or a
     *                                  point or seed the plan does not have)
     */
    public static ResultsFile open(Path file, SweepPlan plan) throws IOException {
        ResultsFile r = new ResultsFile(file, plan);
        r.load();
        r.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        if (Files.size(file) == 0) {
            r.out.write(String.join(",", r.header) + "\n");
            r.out.flush();
        }
        return r;
    }

    private void load() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n') + 1;
        if (end < text.length()) {
            // The last line was cut short when the sweep was stopped: drop it, its run is done again.
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(end);
            }
            text = text.substring(0, end);
        }
        List<String> lines = text.lines().toList();
        if (lines.isEmpty()) {
            return;
        }
        if (!lines.get(0).equals(String.join(",", header))) {
            throw new IllegalArgumentException(file + " holds results with other columns (" + lines.get(0)
                    + "); use another --out directory");
        }
        int points = plan.pointCount();
        for (int i = 1; i < lines.size(); i++) {
            ResultRow row = parse(lines.get(i), i + 1);
            if (row.point() < 0 || row.point() >= points || !plan.seeds().contains(row.seed())) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": point " + row.point() + " seed "
                        + row.seed() + " is not part of this sweep; use another --out directory");
            }
            rows.putIfAbsent(new Key(row.point(), row.seed()), row);
        }
    }

    private ResultRow parse(String line, int lineNumber) {
        String[] cells = line.split(",", -1);
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(file + ":" + lineNumber + ": expected " + header.size()
                    + " cells, found " + cells.length + "; use another --out directory");
        }
        try {
            Map<String, Double> values = new LinkedHashMap<>();
            int first = 2 + plan.axes().size();
            List<String> figures = figureNames();
            for (int f = 0; f < figures.size(); f++) {
                String cell = cells[first + f];
                values.put(figures.get(f), cell.isEmpty() ? Double.NaN : Double.parseDouble(cell));
            }
            return new ResultRow(Integer.parseInt(cells[0]), Long.parseLong(cells[1]), values,
                    cells[cells.length - 2], Bounds.PastBound.parse(cells[cells.length - 1]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ":" + lineNumber + ": not a results row (" + e.getMessage()
                    + "); use another --out directory");
        }
    }

    public boolean has(int point, long seed) {
        synchronized (rows) {
            return rows.containsKey(new Key(point, seed));
        }
    }

    /** Every row so far, in the order they were written. */
    public List<ResultRow> rows() {
        synchronized (rows) {
            return List.copyOf(rows.values());
        }
    }

    /** Appends a finished run's row and flushes it to the file at once. A row already there is kept, not doubled. */
    public void append(ResultRow row) {
        synchronized (rows) {
            if (rows.putIfAbsent(new Key(row.point(), row.seed()), row) != null) {
                return;
            }
            try {
                out.write(line(row) + "\n");
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the results: " + FileProblem.of(file, e), e);
            }
        }
    }

    /** Rewrites the file with its rows sorted by point and seed (atomically: a crash leaves the old file). */
    public void finish() throws IOException {
        synchronized (rows) {
            out.close();
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                w.write(String.join(",", header) + "\n");
                for (ResultRow row : rows.values().stream().sorted(Comparator.comparingInt(ResultRow::point)
                        .thenComparingLong(ResultRow::seed)).toList()) {
                    w.write(line(row) + "\n");
                }
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }
    }

    private String line(ResultRow row) {
        List<String> cells = new ArrayList<>();
        cells.add(Integer.toString(row.point()));
        cells.add(Long.toString(row.seed()));
        Point p = points.get(row.point());
        p.values().forEach(v -> cells.add(number(v.value())));
        figureNames().forEach(name -> cells.add(number(row.value(name))));
        cells.add(row.verdict());
        cells.add(Bounds.PastBound.cell(row.pastBounds()));
        return String.join(",", cells);
    }

    /** Seven significant digits, no exponent, no trailing zeros; NaN as an empty cell. */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(v).round(new MathContext(7)).stripTrailingZeros().toPlainString();
    }

    @Override
    public void close() throws IOException {
        synchronized (rows) {
            out.close();
        }
    }
}

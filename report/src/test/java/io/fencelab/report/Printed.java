package io.fencelab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/**
 * A PDF a browser printed, read back with PDFBox: each page's text (whitespace collapsed, as words
 * wrap differently on paper) and how far down the page its text reaches.
 */
public record Printed(Path file, long bytes, List<Page> pages) {

    /** One page: its number from 1, its text, and the lowest text on it as a fraction of its height. */
    public record Page(int number, String text, double reach) {

        /** How often {@code word} stands alone in the page's text. */
        int count(String word) {
            return (int) Arrays.stream(text.split(" ")).filter(word::equals).count();
        }

        /** How often {@code phrase} occurs in the page's text. */
        int occurrences(String phrase) {
            int n = 0;
            for (int i = text.indexOf(phrase); i >= 0; i = text.indexOf(phrase, i + 1)) {
                n++;
            }
            return n;
        }
    }

    public static Printed read(Path pdf) throws IOException {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            int n = doc.getNumberOfPages();
            float[] lowest = new float[n + 1];
            PDFTextStripper stripper = new PDFTextStripper() {
                @Override
                protected void writeString(String text, List<TextPosition> positions) throws IOException {
                    for (TextPosition p : positions) {
                        lowest[getCurrentPageNo()] = Math.max(lowest[getCurrentPageNo()], p.getYDirAdj());
                    }
                    super.writeString(text, positions);
                }
            };
            List<Page> pages = new ArrayList<>();
            for (int p = 1; p <= n; p++) {
                stripper.setStartPage(p);
                stripper.setEndPage(p);
                String text = words(stripper.getText(doc));
                pages.add(new Page(p, text, lowest[p] / doc.getPage(p - 1).getMediaBox().getHeight()));
            }
            return new Printed(pdf, Files.size(pdf), List.copyOf(pages));
        }
    }

    /** {@code text} with every run of whitespace made one space. */
    public static String words(String text) {
        return text.replaceAll("\\s+", " ").strip();
    }

    /** The page of the {@code k}-th (from 0) occurrence of {@code phrase}, or 0 if there are fewer. */
    public int pageOf(String phrase, int k) {
        int seen = 0;
        for (Page page : pages) {
            int here = page.occurrences(phrase);
            if (k < seen + here) {
                return page.number();
            }
            seen += here;
        }
        return 0;
    }

    /** The first words of a figure's legend, found once per printed figure (the SVG never says them). */
    static final String LEGEND_START = "gap: believes, not held";

    /**
     * The timeline figures of {@code html} (legend, SVG, notes: {@code div.timeline-figure}) that
     * were not printed whole: each figure's legend and both of its time axes, each axis ending in its
     * last tick label, must be on one page. A figure cut across a page leaves its lower axis on the
     * next one; a figure behind a scroll bar loses the ticks past the cut.
     */
    public List<String> splitFigures(org.jsoup.nodes.Document html) {
        List<String> problems = new ArrayList<>();
        var figures = html.select("div.timeline-figure");
        java.util.Map<Integer, java.util.Map<String, Integer>> needed = new java.util.TreeMap<>();
        for (int k = 0; k < figures.size(); k++) {
            var ticks = figures.get(k).select("svg.timeline text.tick");
            int page = pageOf(LEGEND_START, k);
            if (page == 0) {
                problems.add("figure " + (k + 1) + ": its legend is not in the PDF");
                continue;
            }
            // Both axes carry every tick: the first and last tick twice on the legend's page.
            for (String tick : List.of(ticks.first().text(), ticks.last().text())) {
                needed.computeIfAbsent(page, p -> new java.util.HashMap<>()).merge(tick, 2, Integer::sum);
            }
        }
        needed.forEach((page, ticks) -> ticks.forEach((tick, n) -> {
            int found = page(page).count(tick);
            if (found < n) {
                problems.add("page " + page + ": tick " + tick + " " + found + " times, not " + n
                        + " (a figure there is cut or split across pages)");
            }
        }));
        return problems;
    }

    /** Pages other than the last whose text ends above {@code fraction} of the page. */
    public List<Integer> nearlyEmpty(double fraction) {
        return pages.subList(0, pages.size() - 1).stream().filter(p -> p.reach() < fraction).map(Page::number).toList();
    }

    public Page page(int number) {
        return pages.get(number - 1);
    }
}

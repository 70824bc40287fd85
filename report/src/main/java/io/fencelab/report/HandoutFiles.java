package io.fencelab.report;

import io.fencelab.scenarios.Workshop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes handouts ({@link Handout}) of lessons that have been run: one page per lesson, and for a
 * workshop an {@code index.html} listing them in order, all moved into place together or none. It
 * runs nothing; the application's handout service runs the lessons and hands them here.
 */
public final class HandoutFiles {

    public static final String INDEX = "index.html";

    private HandoutFiles() {
    }

    /** One lesson's handout, written as {@code DIR/NAME.html} (the scenario's name); the page written. */
    public static Path scenario(Handout.Lesson lesson, Path dir, Handout.Options options) throws IOException {
        Path page = dir.resolve(lesson.lesson().scenario().name() + ".html");
        write(Map.of(page, Handout.render(lesson, options)), dir);
        return page;
    }

    /**
     * A workshop's handouts: {@code DIR/NN-NAME.html} per lesson and {@code DIR/index.html}
     * ({@link #INDEX}). Returns the lessons' pages in order.
     */
    public static List<Path> workshop(Workshop workshop, List<Handout.Lesson> lessons, Path dir, Handout.Options options)
            throws IOException {
        Map<Path, String> pages = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (Handout.Lesson l : lessons) {
            String name = String.format(Locale.ROOT, "%02d-%s.html", l.number(), l.lesson().scenario().name());
            names.add(name);
            pages.put(dir.resolve(name), Handout.render(l, options));
        }
        List<Path> written = List.copyOf(pages.keySet());
        pages.put(dir.resolve(INDEX), Handout.index(workshop, lessons, names, options));
        write(pages, dir);
        return written;
    }

    /** Writes every page, creating {@code dir}: all of them, moved in together, or none. */
    private static void write(Map<Path, String> pages, Path dir) throws IOException {
        List<String> names = pages.keySet().stream().map(p -> p.getFileName().toString()).toList();
        try (StagedDirectory staged = StagedDirectory.open(dir, names)) {
            try {
                for (Map.Entry<Path, String> page : pages.entrySet()) {
                    Files.writeString(staged.staged(page.getKey().getFileName().toString()), page.getValue(),
                            StandardCharsets.UTF_8);
                }
                staged.commit();
            } catch (IOException | RuntimeException e) {
                staged.discard();
                throw e;
            }
        }
    }
}

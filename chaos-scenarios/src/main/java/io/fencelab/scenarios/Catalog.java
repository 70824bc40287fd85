package io.fencelab.scenarios;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * The scenarios shipped with Fencelab, as class-path resources under {@value #RESOURCE_DIR}.
 * {@code index.txt} there lists the files in display order, because listing a class-path directory
 * does not work reliably inside a jar or a jlink image. The fence gallery ({@link #gallery()}, under
 * {@value #GALLERY_DIR}) is a second catalog of the same kind: classic broken fences of the user's own
 * SQL for {@code fencelab probe}, kept apart because they need PostgreSQL (not the memory backend) and
 * some are meant to fail. The shipped catalog resolves {@code fences/NAME} to a gallery file.
 */
public final class Catalog {

    public static final String RESOURCE_DIR = "io/fencelab/scenarios/catalog/";
    /** The fence gallery's files (docs/FENCES.md), with their own {@code index.txt}. */
    public static final String GALLERY_DIR = "io/fencelab/scenarios/fences/";
    /** How a command-line argument names a gallery file through the shipped catalog: {@code fences/correct}. */
    public static final String GALLERY_PREFIX = "fences/";

    /** File names from the index, in display order. */
    private final List<String> files;
    /** The class-path directory the files are in. */
    private final String dir;

    private Catalog(String dir, List<String> files) {
        this.dir = dir;
        this.files = List.copyOf(files);
    }

    /** The catalog on the class path. */
    public static Catalog shipped() {
        return fromIndex(RESOURCE_DIR, "scenario catalog");
    }

    /** The fence gallery on the class path: the correct fence and the classic broken ones, for {@code fencelab probe}. */
    public static Catalog gallery() {
        return fromIndex(GALLERY_DIR, "fence gallery");
    }

    private static Catalog fromIndex(String dir, String what) {
        String index = dir + "index.txt";
        try (InputStream in = Catalog.class.getClassLoader().getResourceAsStream(index)) {
            if (in == null) {
                throw new IllegalStateException("the " + what + " index " + index + " is missing from the build");
            }
            // Blank lines and # comments are allowed so the index can be annotated.
            return new Catalog(dir, new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the " + what + " index " + index, e);
        }
    }

    /** Scenario names in display order ({@code paused-holder}). */
    public List<String> names() {
        return files.stream().map(ScenarioLoader::scenarioName).toList();
    }

    /** Every scenario with its title and summary, in display order. Loads (and so validates) each file. */
    public List<CatalogEntry> entries() {
        return names().stream().map(this::load).map(s -> new CatalogEntry(s.name(), s.notes().title(),
                s.notes().summary(), s.expectation().describe())).toList();
    }

    /**
     * The catalog scenario called {@code name} ({@code paused-holder}; {@code paused-holder.yaml} works too).
     *
     * @throws ScenarioException if there is none, listing the names there are
     */
    public Scenario load(String name) {
        return sourceOf(name).compile();
    }

    /** The text of the catalog scenario called {@code name}, as {@link #load} finds it. */
    private ScenarioSource sourceOf(String name) {
        String wanted = name.strip();
        for (String file : files) {
            if (file.equals(wanted) || ScenarioLoader.scenarioName(file).equals(wanted)) {
                return ScenarioSource.ofResource(dir + file);
            }
        }
        throw new ScenarioException(Problem.ofFile(name, "no catalog scenario of that name (catalog: "
                + String.join(", ", names()) + ")"));
    }

    /**
     * What a command-line argument names: an existing file wins, else a catalog scenario.
     *
     * @throws ScenarioException if it is neither, or the file is not a valid scenario
     */
    public Scenario resolve(String nameOrPath) {
        return source(nameOrPath).compile();
    }

    /**
     * The text a command-line argument names, as {@link #resolve} finds it, not yet compiled (a sweep
     * varies it before compiling).
     *
     * @throws ScenarioException if it is neither a file nor a catalog name, or cannot be read
     */
    public ScenarioSource source(String nameOrPath) {
        Path path = null;
        try {
            path = Path.of(nameOrPath);
        } catch (InvalidPathException e) {
            // not a usable path: it can still be a catalog name
        }
        if (path != null && Files.isRegularFile(path)) {
            return ScenarioSource.ofFile(path);
        }
        if (names().contains(nameOrPath.strip()) || files.contains(nameOrPath.strip())) {
            return sourceOf(nameOrPath);
        }
        if (dir.equals(RESOURCE_DIR) && nameOrPath.strip().startsWith(GALLERY_PREFIX)) {
            return gallery().sourceOf(nameOrPath.strip().substring(GALLERY_PREFIX.length()));
        }
        String what = path != null && Files.isDirectory(path) ? "is a directory, not a scenario file" : "no such file";
        throw new ScenarioException(Problem.ofFile(nameOrPath, what + ", and no catalog scenario of that name "
                + "(catalog: " + String.join(", ", names()) + ")"));
    }
}

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
 * does not work reliably inside a jar or a jlink image.
 */
public final class Catalog {

    public static final String RESOURCE_DIR = "io/fencelab/scenarios/catalog/";
    private static final String INDEX = RESOURCE_DIR + "index.txt";

    /** File names from the index, in display order. */
    private final List<String> files;

    private Catalog(List<String> files) {
        this.files = List.copyOf(files);
    }

    /** The catalog on the class path. */
    public static Catalog shipped() {
        try (InputStream in = Catalog.class.getClassLoader().getResourceAsStream(INDEX)) {
            if (in == null) {
                throw new IllegalStateException("the scenario catalog index " + INDEX + " is missing from the build");
            }
            // Blank lines and # comments are allowed so the index can be annotated.
            return new Catalog(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the scenario catalog index " + INDEX, e);
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
                return ScenarioSource.ofResource(RESOURCE_DIR + file);
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
        String what = path != null && Files.isDirectory(path) ? "is a directory, not a scenario file" : "no such file";
        throw new ScenarioException(Problem.ofFile(nameOrPath, what + ", and no catalog scenario of that name "
                + "(catalog: " + String.join(", ", names()) + ")"));
    }
}

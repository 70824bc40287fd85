package io.fencelab.scenarios;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario file's text before it is compiled, with how messages name the file and the scenario's
 * name: what {@link ScenarioLoader} and {@link Catalog} read, and what a sweep varies.
 *
 * @param file how messages name the file (the path as given, or a resource's file name)
 * @param name the scenario's name: the file name without its extension
 * @param text the file's text (UTF-8 decoded)
 * @param dataFiles where the data files it names ({@code {empirical: gc.log}}) are found: beside the
 *                  file, or beside the resource on the class path
 */
public record ScenarioSource(String file, String name, String text, DataFiles dataFiles) {

    public ScenarioSource {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(dataFiles, "dataFiles");
    }

    /** Text with its data files relative to the working directory. */
    public ScenarioSource(String file, String name, String text) {
        this(file, name, text, new DataFiles.Directory(Path.of("")));
    }

    /** Reads a file. */
    public static ScenarioSource ofFile(Path path) {
        String label = path.toString();
        Path dir = path.toAbsolutePath().getParent();
        return new ScenarioSource(label, ScenarioLoader.scenarioName(label), ScenarioLoader.read(path, label),
                new DataFiles.Directory(dir == null ? Path.of("") : dir));
    }

    /** Reads a class-path resource such as {@code io/fencelab/scenarios/catalog/paused-holder.yaml}. */
    public static ScenarioSource ofResource(String resourcePath) {
        String path = resourcePath.startsWith("/") ? resourcePath.substring(1) : resourcePath;
        String fileName = path.substring(path.lastIndexOf('/') + 1);
        try (InputStream in = ScenarioSource.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new ScenarioException(Problem.ofFile(fileName, "no such scenario resource: " + path));
            }
            return new ScenarioSource(fileName, ScenarioLoader.scenarioName(fileName),
                    ScenarioLoader.decode(in.readAllBytes(), fileName),
                    new DataFiles.ClassPath(path.substring(0, path.length() - fileName.length())));
        } catch (IOException e) {
            throw new ScenarioException(Problem.ofFile(fileName, "cannot read the resource " + path));
        }
    }

    /**
     * The sweep the file suggests in a comment ({@code # fencelab tune NAME --vary … --seeds N
     * --require …}, as the tuning scenarios do): its {@code --vary}, {@code --require} and
     * {@code --seeds} options; empty if it suggests none.
     */
    public Optional<SuggestedSweep> suggestedSweep() {
        Matcher m = text.lines().map(SUGGESTED::matcher).filter(Matcher::matches).findFirst().orElse(null);
        if (m == null) {
            return Optional.empty();
        }
        List<String> vary = new ArrayList<>();
        List<String> require = new ArrayList<>();
        int seeds = 0;
        Matcher o = OPTION.matcher(m.group(2));
        while (o.find()) {
            switch (o.group(1)) {
                case "vary" -> vary.add(o.group(2));
                case "require" -> require.add(o.group(2).replace("'", ""));
                default -> seeds = Integer.parseInt(o.group(2));
            }
        }
        return Optional.of(new SuggestedSweep(m.group(0).replaceFirst("#\\s*", ""), vary, require, seeds));
    }

    /** A sweep a scenario file suggests; {@code seeds} 0 when it names none; {@code command} as written. */
    public record SuggestedSweep(String command, List<String> vary, List<String> require, int seeds) {
        public SuggestedSweep {
            vary = List.copyOf(vary);
            require = List.copyOf(require);
        }
    }

    private static final Pattern SUGGESTED = Pattern.compile("#\\s*fencelab tune\\s+(\\S+)\\s+(.*)");
    private static final Pattern OPTION = Pattern.compile("--(vary|seeds|require)\\s+(\\S+)");

    /** The scenario as written. @throws ScenarioException with every problem of the file */
    public Scenario compile() {
        return ScenarioCompiler.compile(file, name, text, dataFiles);
    }

    /** The first 16 hex digits of the SHA-256 of the text: tells a changed file from the one a sweep ran. */
    public String digest() {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

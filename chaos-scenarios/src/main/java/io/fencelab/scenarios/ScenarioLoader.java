package io.fencelab.scenarios;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Loads scenario files (YAML, or JSON, which is YAML too) into {@link Scenario}s. Every way a file
 * can be wrong ends in a {@link ScenarioException} whose message lists all its problems as
 * {@code file:line:column: field: problem} lines.
 */
public final class ScenarioLoader {

    private ScenarioLoader() {
    }

    /**
     * Loads a file; the scenario is named after the file, without its extension. Data files it names
     * ({@code {empirical: gc.log}}) are found relative to the file's directory.
     */
    public static Scenario load(Path file) {
        return ScenarioSource.ofFile(file).compile();
    }

    /**
     * Loads a scenario from text; data files it names are found relative to the working directory.
     *
     * @param name the file name messages use ({@code paused.yaml}); without extension, the scenario's name
     */
    public static Scenario load(String name, String yaml) {
        return load(name, yaml, Path.of(""));
    }

    /**
     * Loads a scenario from text as if it were a file in {@code dataDir}: data files it names
     * ({@code {empirical: gc.log}}) are found relative to that directory (a tool that rewrites a
     * scenario's text passes the original file's directory).
     *
     * @param name the file name messages use ({@code paused.yaml}); without extension, the scenario's name
     */
    public static Scenario load(String name, String yaml, Path dataDir) {
        return new ScenarioSource(name, scenarioName(name), yaml, new DataFiles.Directory(dataDir)).compile();
    }

    /**
     * Loads a scenario shipped on the class path, such as {@code io/fencelab/scenarios/catalog/paused-holder.yaml};
     * data files it names are resources relative to its directory ({@code data/g1-service.log}).
     */
    public static Scenario fromResource(String resourcePath) {
        return ScenarioSource.ofResource(resourcePath).compile();
    }

    /** Checks a file without running it: the scenario, or every problem found. Never throws for bad input. */
    public static ValidationResult validate(Path file) {
        try {
            return new ValidationResult(file.toString(), load(file), java.util.List.of());
        } catch (ScenarioException e) {
            return new ValidationResult(file.toString(), null, e.problems());
        }
    }

    /** {@code dir/paused-holder.yaml} → {@code paused-holder}. */
    static String scenarioName(String file) {
        String base = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
        int dot = base.lastIndexOf('.');
        return dot > 0 ? base.substring(0, dot) : base;
    }

    static String read(Path file, String label) {
        try {
            return decode(Files.readAllBytes(file), label);
        } catch (NoSuchFileException e) {
            throw new ScenarioException(Problem.ofFile(label, "no such file"));
        } catch (AccessDeniedException e) {
            throw new ScenarioException(Problem.ofFile(label, "permission denied"));
        } catch (IOException e) {
            throw new ScenarioException(Problem.ofFile(label, Files.isDirectory(file) ? "is a directory, not a file"
                    : "cannot be read"));
        }
    }

    /** Strict UTF-8, so a file saved in another encoding is named as such instead of read as garbage. */
    static String decode(byte[] bytes, String label) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw new ScenarioException(Problem.ofFile(label, "is not UTF-8 text; save it as UTF-8"));
        }
    }
}

package io.fencelab.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No main class over {@value #MAX_CLASS_LINES} lines and no method or constructor over
 * {@value #MAX_METHOD_LINES}, in every module's {@code src/main/java}: a unit that grows past them is
 * split along its seams, or earns a line in the allow-list below saying why it should not be.
 */
class UnitSizeTest {

    static final int MAX_CLASS_LINES = 600;
    static final int MAX_METHOD_LINES = 80;

    /**
     * Classes allowed to be longer, by path from the repository root, one a line, each with why it
     * earns it. Empty: none does today.
     */
    static final Map<String, String> LONG_CLASSES = Map.of();

    /**
     * Methods allowed to be longer, as {@code path#name}, one a line, each with why it earns it.
     * Empty: none does today.
     */
    static final Map<String, String> LONG_METHODS = Map.of();

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final List<Unit> UNITS = new ArrayList<>();

    /** A class (its file) or a method and its length in lines. */
    record Unit(String path, String method, int lines) {
        String key() {
            return method == null ? path : path + "#" + method;
        }
    }

    @BeforeAll
    static void measure() throws IOException {
        assertThat(ROOT.resolve("pom.xml")).as("dist's tests run in dist/, beside the other modules").exists();
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_21);
        for (Path file : mainSources()) {
            String path = ROOT.relativize(file).toString().replace('\\', '/');
            CompilationUnit unit = StaticJavaParser.parse(file);
            UNITS.add(new Unit(path, null, Files.readAllLines(file).size()));
            // Every method and constructor, those of nested, local and anonymous classes included,
            // named by the class around it.
            for (CallableDeclaration<?> callable : unit.findAll(CallableDeclaration.class)) {
                String owner = callable.findAncestor(TypeDeclaration.class).map(TypeDeclaration::getNameAsString)
                        .orElse("?");
                callable.getRange().ifPresent(r -> UNITS.add(new Unit(path,
                        owner + "." + callable.getNameAsString() + "@" + r.begin.line, r.end.line - r.begin.line + 1)));
            }
        }
    }

    @Test
    void everyModulesSourcesAreMeasured() {
        assertThat(UNITS.stream().map(u -> u.path().substring(0, u.path().indexOf('/'))).distinct())
                .as("each module's main sources are read")
                .contains("engine", "chaos-scenarios", "report", "app", "bench", "dist");
    }

    @Test
    void noClassIsLongerThanTheLimitUnlessAllowed() {
        Map<String, Integer> tooLong = over(MAX_CLASS_LINES, false, LONG_CLASSES);
        assertThat(tooLong).as("main classes over %d lines (path=lines): split them along their seams, or add "
                + "one to LONG_CLASSES with why it earns it", MAX_CLASS_LINES).isEmpty();
    }

    @Test
    void noMethodIsLongerThanTheLimitUnlessAllowed() {
        Map<String, Integer> tooLong = over(MAX_METHOD_LINES, true, LONG_METHODS);
        assertThat(tooLong).as("methods and constructors over %d lines (path#Type.name@line=lines): give their "
                + "parts names, or add one to LONG_METHODS with why it earns it", MAX_METHOD_LINES).isEmpty();
    }

    @Test
    void theAllowListsNameOnlyUnitsThatExistAndNeedIt() {
        List<String> stale = new ArrayList<>();
        for (String allowed : LONG_CLASSES.keySet()) {
            if (UNITS.stream().noneMatch(u -> u.method() == null && u.key().equals(allowed)
                    && u.lines() > MAX_CLASS_LINES)) {
                stale.add(allowed);
            }
        }
        for (String allowed : LONG_METHODS.keySet()) {
            if (UNITS.stream().noneMatch(u -> u.method() != null && withoutLine(u.key()).equals(allowed)
                    && u.lines() > MAX_METHOD_LINES)) {
                stale.add(allowed);
            }
        }
        assertThat(stale).as("allow-list entries for units that are gone or now within the limit: remove them")
                .isEmpty();
    }

    private static Map<String, Integer> over(int limit, boolean methods, Map<String, String> allowed) {
        Map<String, Integer> tooLong = new TreeMap<>();
        for (Unit u : UNITS) {
            if ((u.method() != null) == methods && u.lines() > limit
                    && !allowed.containsKey(methods ? withoutLine(u.key()) : u.key())) {
                tooLong.put(u.key(), u.lines());
            }
        }
        return tooLong;
    }

    /** {@code path#Type.name} without the {@code @line}, which moves with every edit above it. */
    private static String withoutLine(String key) {
        int at = key.lastIndexOf('@');
        return at < 0 ? key : key.substring(0, at);
    }

    private static List<Path> mainSources() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).sorted().toList()) {
                try (Stream<Path> tree = Files.walk(module.resolve("src/main/java"))) {
                    tree.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
                }
            }
        }
        return files;
    }
}

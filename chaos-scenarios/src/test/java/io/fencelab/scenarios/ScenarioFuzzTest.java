package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever a file contains, the loader either loads it or refuses it with located lines: never another
 * exception, never a stack trace or a library's class name in the message. The inputs are the catalog's
 * reference file, damaged the ways real files get damaged (and some ways they do not).
 */
class ScenarioFuzzTest {

    private static final Pattern LOCATED = Pattern.compile("^[^:]+:\\d+:\\d+: .*");

    private static final String EXAMPLE;

    static {
        try {
            EXAMPLE = PausedHolderScenarioTest.text();
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Characters that matter to YAML, to the duration syntax, or to a naive parser. */
    private static final String[] CHARACTERS = {":", "-", " ", "\t", "[", "]", "{", "}", "'", "\"", "#", "&",
            "*", "!", "|", ">", "%", "@", "`", ",", "?", "\n", "\r", "\\", "0", "9", ".", "s", "m", "h", "x", "A",
            "\u0000", "\u0007", "\u00e9", "\u2028", "\uFEFF", "\uD83D\uDE00", "\uD800", "~", "=", "<"};

    private static final String[] VALUES = {"", "~", "null", "true", "no", "0", "-1", "41", "\"41\"", "1.5",
            "-0.0", ".inf", ".nan", "0x1F", "012", "1_000", "1e309", "99999999999999999999999999", "9223372036854775807",
            "-9223372036854775808", "0s", "-5s", "1.5s", "250ms", "2m", "1h", "30", "30 sec", "0.0000001s",
            "99999999999h", "[]", "{}", "[1s, 3s]", "[3s, 1s]", "{exponential: 2s}", "{uniform: [1s]}",
            "{pareto: {scale: 0s, shape: -1, cap: 1ms}}", "{fixed: 1s, uniform: [1s, 2s]}", "ABANDONN", "FENCED",
            "UNFENCED", "live", "PAUSE", "DATABASE_RESTART", "all", "database", "A", "B", "C", "report", "'unclosed",
            "&anchor x", "*anchor", "!!binary aGk=", "!!int \"3\"", "|\n  block", "[[[[[[[[[[", "{a: {b: {c: 1}}}"};

    private static final String[] KEYS = {"title", "summary", "story", "executor", "seed", "duration", "timeScale",
            "lease", "ttl", "renewEvery", "fencing", "tokenScheme", "firstWrite", "scopes", "workers", "name", "count",
            "scope", "startAt", "stagger", "workTime", "idleTime", "jobs", "onStale", "checkDeadline", "writes",
            "target", "key", "faults", "kind", "at", "every", "amount", "expect", "verdict", "endReason", "min", "max",
            "events", "invariants", "staleRejections", "LeaseExhausted", "bogus", "Title", "- name", "? complex"};

    /** One change to a file; the ints pick where and what, so jqwik can shrink a failure to a small one. */
    record Mutation(int op, int where, int what) {}

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Mutation> one = Combinators.combine(Arbitraries.integers().between(0, 9),
                Arbitraries.integers().greaterOrEqual(0), Arbitraries.integers().greaterOrEqual(0)).as(Mutation::new);
        return one.list().ofMinSize(1).ofMaxSize(6);
    }

    @Property(tries = 3000)
    void aDamagedReferenceFileLoadsOrIsRefusedWithLocatedLines(@ForAll("mutations") List<Mutation> changes) {
        check(apply(EXAMPLE, changes));
    }

    @Property(tries = 1500)
    void aDamagedMinimalFileLoadsOrIsRefusedWithLocatedLines(@ForAll("mutations") List<Mutation> changes) {
        check(apply(ScenarioValidationTest.MINIMAL, changes));
    }

    @Property(tries = 1000)
    void anyTextAtAllLoadsOrIsRefusedWithLocatedLines(@ForAll String text) {
        check(text);
    }

    private static void check(String text) {
        try {
            ScenarioLoader.load("fuzz.yaml", text);
        } catch (ScenarioException e) {
            List<String> lines = e.getMessage().lines().toList();
            assertThat(lines).as("problems for:\n%s", text).isNotEmpty().allSatisfy(line -> assertThat(line)
                    .matches(LOCATED)
                    .doesNotContain("Exception", "at com.", "at org.", "org.yaml", "com.fasterxml"));
            assertThat(lines).hasSameSizeAs(e.problems());
        }
    }

    static String apply(String text, List<Mutation> changes) {
        String t = text;
        for (Mutation m : changes) {
            t = apply(t, m);
        }
        return t;
    }

    private static String apply(String t, Mutation m) {
        List<String> lines = new ArrayList<>(Arrays.asList(t.split("\n", -1)));
        int at = t.isEmpty() ? 0 : m.where() % t.length();
        int line = m.where() % lines.size();
        return switch (m.op()) {
            case 0 -> t.isEmpty() ? t : t.substring(0, at) + t.substring(at + 1);                  // delete a character
            case 1 -> t.isEmpty() ? t : t.substring(0, at) + t.charAt(at) + t.substring(at);       // duplicate one
            case 2 -> t.isEmpty() ? t : t.substring(0, at) + pick(CHARACTERS, m.what()) + t.substring(at + 1);
            case 3 -> {                                                                            // delete a line
                lines.remove(line);
                yield String.join("\n", lines);
            }
            case 4 -> {                                                                            // duplicate a line
                lines.add(line, lines.get(line));
                yield String.join("\n", lines);
            }
            case 5 -> {                                                                            // swap two lines
                int other = m.what() % lines.size();
                String swap = lines.get(line);
                lines.set(line, lines.get(other));
                lines.set(other, swap);
                yield String.join("\n", lines);
            }
            case 6 -> {                                                                            // replace a value
                String l = lines.get(line);
                int colon = l.indexOf(':');
                lines.set(line, (colon < 0 ? l + ":" : l.substring(0, colon + 1)) + " " + pick(VALUES, m.what()));
                yield String.join("\n", lines);
            }
            case 7 -> {                                                                            // add a key
                String indent = " ".repeat(m.what() % 4 * 2);
                lines.add(line, indent + pick(KEYS, m.what() / 4) + ": " + pick(VALUES, m.what() / 7));
                yield String.join("\n", lines);
            }
            case 8 -> t.substring(0, at);                                                          // truncate
            default -> t.substring(0, at) + pick(VALUES, m.what()) + t.substring(at);              // insert a value
        };
    }

    private static String pick(String[] from, int index) {
        return from[index % from.length];
    }
}

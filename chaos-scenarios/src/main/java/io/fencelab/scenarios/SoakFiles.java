package io.fencelab.scenarios;

import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.soak.Comparison;
import io.fencelab.engine.soak.Soak;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A soak's disagreement as a scenario file that {@code fencelab run FILE} replays: the schedule's
 * spec with its seed, the disagreement in the summary and story, and as the expectation the verdict
 * the database's record supports, so a replay that still disagrees ends with exit code 1.
 */
public final class SoakFiles {

    private SoakFiles() {
    }

    /** The file's name for schedule {@code index} of a soak seeded {@code seed}. */
    public static String fileName(long seed, int index) {
        return "soak-" + seed + "-" + index + ".yaml";
    }

    /** Writes {@code outcome} of a soak seeded {@code seed} into {@code dir} and returns the file. */
    public static Path save(Path dir, long seed, Soak.Outcome outcome) throws IOException {
        List<String> story = new ArrayList<>();
        Verdict.Kind expected;
        String what;
        if (outcome.error() != null) {
            story.add("The schedule could not be run or compared: " + outcome.error() + ".");
            // Nothing was compared, so nothing supports either verdict: SAFE is only the format's placeholder.
            expected = Verdict.Kind.SAFE;
            what = " that could not be run or compared (" + outcome.error() + "); expect.verdict is a placeholder.";
        } else {
            Comparison c = outcome.comparison();
            c.problems().forEach(p -> story.add(p + "."));
            // What the audit supports: its stale overwrites, or witnesses it cannot see (grant order, values).
            expected = c.auditUnsafe() || c.verdict() == Verdict.Kind.VIOLATED && c.witnessesOutside() > 0
                    ? Verdict.Kind.VIOLATED : Verdict.Kind.SAFE;
            what = " where the checker and the database's own record (fence_audit) disagreed: "
                    + c.problems().getFirst() + ". expect.verdict is what the audit supports.";
        }
        String kind = outcome.spec().executor().name().toLowerCase(Locale.ROOT);
        TeachingNotes notes = new TeachingNotes("Soak disagreement: schedule " + outcome.index() + " of seed " + seed,
                "A " + kind + " run (fencing " + outcome.spec().fencing() + ", tokens " + outcome.spec().tokenScheme()
                        + ")" + what + " Replay it with fencelab run on this file.",
                story.stream().map(StoryStep::plain).toList());
        Files.createDirectories(dir);
        Path file = dir.resolve(fileName(seed, outcome.index()));
        Files.writeString(file, ScenarioWriter.write(outcome.spec(), notes, expected));
        return file;
    }
}

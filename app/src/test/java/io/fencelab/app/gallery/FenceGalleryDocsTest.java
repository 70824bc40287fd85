package io.fencelab.app.gallery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The gallery's files, its index and docs/FENCES.md say the same thing, and every file is a valid scenario. */
class FenceGalleryDocsTest {

    private static final Path DOC = Path.of("..", "docs", "FENCES.md");
    private static final Path DIR = Path.of("..", "chaos-scenarios", "src", "main", "resources", Catalog.GALLERY_DIR);

    static Stream<String> gallery() {
        return FenceGallery.names().stream();
    }

    @Test
    void theIndexListsEveryFileOfTheGalleryCorrectFirst() throws IOException {
        List<String> files;
        try (Stream<Path> all = Files.list(DIR)) {
            files = all.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".yaml"))
                    .map(f -> f.substring(0, f.length() - ".yaml".length())).sorted().toList();
        }
        assertThat(FenceGallery.names()).as("index.txt against the files there").containsExactlyInAnyOrderElementsOf(files)
                .startsWith("correct").hasSize(10);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gallery")
    void eachFileIsAScenarioWithItsOwnFences(String name) {
        Scenario scenario = Catalog.gallery().load(name);

        assertThat(scenario.spec().userFences().fences()).as("%s's targets", name)
                .extracting(f -> f.name()).containsExactlyElementsOf(FenceGallery.expectedFailures(name).keySet());
        assertThat(Catalog.shipped().resolve(Catalog.GALLERY_PREFIX + name).name())
                .as("fencelab probe fences/%s finds it", name).isEqualTo(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gallery")
    void theDocsTableNamesTheItemsTheFileSaysItFails(String name) throws IOException {
        String row = galleryRow(name).orElseThrow(() -> new AssertionError("docs/FENCES.md's gallery has no row for `" + name + "`"));
        String items = row.substring(row.lastIndexOf('|', row.length() - 2) + 1, row.length() - 1).strip()
                .toLowerCase(Locale.ROOT);

        Set<ChecklistItem> named = EnumSet.noneOf(ChecklistItem.class);
        for (ChecklistItem item : ChecklistItem.values()) {
            if (items.contains(shortTitle(item))) {
                named.add(item);
            }
        }
        assertThat(named).as("the docs' row for %s: \"%s\"", name, items).isEqualTo(FenceGallery.expectedUnion(name));
        if (named.isEmpty()) {
            assertThat(items).isEqualTo("none");
        }
    }

    @Test
    void theDocsExampleIsAScenarioWithOneFenceOfItsOwn() throws IOException {
        Matcher m = Pattern.compile("```yaml\n(targets:.*?)```", Pattern.DOTALL).matcher(doc());
        assertThat(m.find()).as("docs/FENCES.md shows a file with a targets: section").isTrue();

        Scenario example = ScenarioLoader.load("my-fence.yaml", m.group(1));

        assertThat(example.spec().userFences().fences()).extracting(f -> f.name()).containsExactly("report");
        long targetLines = m.group(1).lines().takeWhile(l -> !l.isBlank()).count();
        assertThat(targetLines).as("the target itself is about ten lines").isLessThanOrEqualTo(12);
    }

    /** "stale holder rejected" for "stale holder rejected, newer state intact": how the docs' table names an item. */
    private static String shortTitle(ChecklistItem item) {
        String title = item.title();
        int comma = title.indexOf(',');
        return comma < 0 ? title : title.substring(0, comma);
    }

    private static Optional<String> galleryRow(String name) throws IOException {
        String doc = doc();
        String gallery = doc.substring(doc.indexOf("## The gallery"));
        return gallery.lines().filter(l -> l.startsWith("| `" + name + "` |")).findFirst();
    }

    private static String doc() throws IOException {
        return Files.readString(DOC, StandardCharsets.UTF_8);
    }
}

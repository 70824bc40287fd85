package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/TUNING.md's metric table, the reference for every figure, names exactly the figures there are. */
class TuningDocTest {

    private static final Path DOC = Path.of("..", "docs", "TUNING.md");
    private static final Pattern NAME = Pattern.compile("`([a-zA-Z0-9]+)`");

    @Test
    void theMetricTableNamesEveryFigureInOrderAndNoOther() throws Exception {
        String doc = Files.readString(DOC);
        String metrics = doc.substring(doc.indexOf("## Metrics"), doc.indexOf("**Per second**"));
        List<String> named = new ArrayList<>();
        for (String line : metrics.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| figure")).toList()) {
            String firstCell = line.substring(2, line.indexOf(" | "));
            Matcher m = NAME.matcher(firstCell);
            while (m.find()) {
                named.add(m.group(1));
            }
        }

        assertThat(named).as("the figures named in the first column of docs/TUNING.md's table, in order")
                .containsExactlyElementsOf(TuningMetrics.NAMES);
    }

    @Test
    void everyOldNameAcceptedIsDocumentedAsWhatItNowMeans() throws Exception {
        String doc = Files.readString(DOC);

        TuningMetrics.OLD_NAMES.forEach((old, now) -> assertThat(doc)
                .as("docs/TUNING.md says what %s means now", old).contains("`" + old + "`").contains("`" + now + "`"));
    }
}

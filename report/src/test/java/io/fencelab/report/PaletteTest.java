package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.WriteClass;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one table of write outcomes ({@link Palette#look}) names and colours every kind, each apart. */
class PaletteTest {

    @Test
    void everyWriteClassHasAColourWordsAndAMarkerOfItsOwn() {
        Set<String> words = new HashSet<>();
        Set<String> symbols = new HashSet<>();
        for (WriteClass kind : WriteClass.values()) {
            Palette.WriteLook look = Palette.look(kind);
            assertThat(look.colour()).as("%s's colour, a hex the console can read too", kind).matches("#[0-9A-F]{6}");
            assertThat(look.words()).as("%s's words", kind).isNotBlank();
            assertThat(words.add(look.words())).as("%s's words '%s' name no other kind", kind, look.words()).isTrue();
            assertThat(symbols.add(look.symbol())).as("%s's marker '%s' is its own", kind, look.symbol()).isTrue();
            assertThat(Palette.legend(kind)).as("the legend line reads the same words").endsWith(look.words());
        }
    }

    @Test
    void theTimelineDefinesTheMarkerOfEveryWriteClass() {
        String defs = TimelineSvg.defs();
        for (WriteClass kind : WriteClass.values()) {
            assertThat(defs).as("the timeline's <defs> draw %s's marker", kind)
                    .contains("<g id=\"" + Palette.symbol(kind) + "\">");
        }
    }
}

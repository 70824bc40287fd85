package io.fencelab.app.console.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.WriteClass;
import io.fencelab.report.Palette;
import java.util.EnumSet;
import java.util.Set;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;

/** The console draws each write outcome in the report's colour, read from the report's one table. */
class InkTest {

    @Test
    void everyWriteClassHasItsOwnInkInTheReportsColour() {
        Set<Ink> seen = EnumSet.noneOf(Ink.class);
        for (WriteClass kind : WriteClass.values()) {
            Ink ink = Ink.of(kind);
            assertThat(ink).as("the ink of %s", kind).isNotNull();
            assertThat(ink.color).as("%s drawn in the report's colour %s", kind, Palette.of(kind))
                    .isEqualTo(Color.web(Palette.of(kind)));
            assertThat(seen.add(ink)).as("%s's ink %s draws no other kind", kind, ink).isTrue();
        }
    }
}

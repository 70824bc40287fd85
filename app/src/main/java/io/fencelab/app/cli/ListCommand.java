package io.fencelab.app.cli;

import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.CatalogEntry;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fencelab list}: the scenario catalog. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the scenario catalog: name and one-line summary.")
public final class ListCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<CatalogEntry> entries = Catalog.shipped().entries();
        int width = entries.stream().mapToInt(e -> e.name().length()).max().orElse(10);
        for (CatalogEntry e : entries) {
            out.printf("%-" + width + "s  %s%n", e.name(), e.oneLine());
        }
        out.printf("%nRun one with: fencelab run <name> [--report DIR]%n");
        // The fence gallery: the correct fence and the classic broken ones (docs/FENCES.md).
        List<CatalogEntry> fences = Catalog.gallery().entries();
        int fenceWidth = fences.stream().mapToInt(e -> e.name().length()).max().orElse(10) + "fences/".length();
        out.printf("%nThe fence gallery (your own fence: docs/FENCES.md):%n");
        for (CatalogEntry e : fences) {
            out.printf("%-" + fenceWidth + "s  %s%n", "fences/" + e.name(), e.oneLine());
        }
        out.printf("%nProbe one with: fencelab probe fences/<name> [--out DIR]%n");
        return ExitCodes.OK;
    }
}

package io.fencelab.dist;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The shape of the code, as rules the build checks (in the manner of JabRef's MainArchitectureTests):
 * modules in layers, no package loop, report renders and never runs, views never reach controllers.
 * Read from the compiled main classes of every module (dist sees them all); docs/ARCHITECTURE.md says
 * the same in words.
 */
@AnalyzeClasses(packages = "io.fencelab", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String ENGINE = "io.fencelab.engine..";
    private static final String SERVICES = "io.fencelab.services..";
    private static final String SCENARIOS = "io.fencelab.scenarios..";
    private static final String REPORT = "io.fencelab.report..";
    private static final String APP = "io.fencelab.app..";
    private static final String BENCH = "io.fencelab.bench..";
    private static final String DIST = "io.fencelab.dist..";

    /**
     * Each module uses only those below it: engine <- scenarios <- report <- app <- bench <- dist, and
     * engine <- services <- app (the engine reaches the services only through its RealServices SPI).
     */
    @ArchTest
    static final ArchRule modulesAreLayered = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("engine").definedBy(ENGINE)
            .layer("services").definedBy(SERVICES)
            .layer("scenarios").definedBy(SCENARIOS)
            .layer("report").definedBy(REPORT)
            .layer("app").definedBy(APP)
            .layer("bench").definedBy(BENCH)
            .layer("dist").definedBy(DIST)
            .whereLayer("dist").mayNotBeAccessedByAnyLayer()
            .whereLayer("bench").mayOnlyBeAccessedByLayers("dist")
            .whereLayer("app").mayOnlyBeAccessedByLayers("bench", "dist")
            .whereLayer("report").mayOnlyBeAccessedByLayers("app", "bench", "dist")
            .whereLayer("scenarios").mayOnlyBeAccessedByLayers("report", "app", "bench", "dist")
            .whereLayer("services").mayOnlyBeAccessedByLayers("app", "bench", "dist");

    /** JavaFX is the console's: the engine, the scenarios and the reports run and render without it. */
    @ArchTest
    static final ArchRule onlyTheAppUsesJavaFx = noClasses()
            .that().resideInAnyPackage(ENGINE, SCENARIOS, REPORT)
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "com.sun.javafx..", "org.controlsfx..");

    /** Every package of every module: no two reach each other, directly or round a loop. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.fencelab.(**)")
            .as("packages of io.fencelab").should().beFreeOfCycles();

    /**
     * The report module renders what runs produced; starting a run (a Run, an executor, a sweep, a
     * soak, a backend check) belongs to the application's service layer, {@code io.fencelab.app.service}.
     */
    @ArchTest
    static final ArchRule reportDoesNotStartRuns = noClasses()
            .that().resideInAPackage(REPORT)
            .should().dependOnClassesThat(startsRuns())
            .orShould().callMethodWhere(backendCheckRun());

    /** The services serve the command line and the console alike, so they know neither. */
    @ArchTest
    static final ArchRule servicesKnowNeitherTheCommandLineNorTheConsole = noClasses()
            .that().resideInAPackage("io.fencelab.app.service..")
            .should().dependOnClassesThat().resideInAnyPackage("io.fencelab.app.cli..", "io.fencelab.app.console..");

    /** A view shows the model and hands on what the user asks for; it never reaches a controller. */
    @ArchTest
    static final ArchRule viewsDoNotReachControllers = noClasses()
            .that(areViews())
            .should().dependOnClassesThat().haveNameMatching(".*Controller(\\$.*)?");

    /**
     * The benchmarks drive the console only through its facade (classes of {@code app.console} itself),
     * never its feature packages.
     */
    @ArchTest
    static final ArchRule benchUsesTheConsolesFacadeOnly = noClasses()
            .that().resideInAPackage(BENCH)
            .should().dependOnClassesThat(insideAConsoleFeature());

    static DescribedPredicate<JavaClass> startsRuns() {
        return describe("start runs (Run, an executor, SweepRunner, Soak, Probe)", c ->
                c.getName().equals("io.fencelab.engine.run.Run")
                        || c.getName().startsWith("io.fencelab.engine.run.Run$")
                        || (c.getPackageName().startsWith("io.fencelab.engine.run")
                                && c.getSimpleName().endsWith("Executor"))
                        || c.getName().equals("io.fencelab.engine.tune.SweepRunner")
                        || c.getName().equals("io.fencelab.engine.soak.Soak")
                        || c.getName().equals("io.fencelab.engine.probe.Probe"));
    }

    static DescribedPredicate<JavaMethodCall> backendCheckRun() {
        return describe("BackendCheck.run (runs a setting again on PostgreSQL)", call ->
                call.getTargetOwner().getName().equals("io.fencelab.engine.tune.BackendCheck")
                        && call.getName().equals("run"));
    }

    static DescribedPredicate<JavaClass> areViews() {
        return describe("are console views (named *View, or in a view or ui package)", c ->
                c.getPackageName().startsWith("io.fencelab.app.console")
                        && (c.getName().matches(".*View(\\$.*)?")
                                || c.getPackageName().matches(".*\\.(view|ui)(\\..*)?")));
    }

    private static DescribedPredicate<JavaClass> insideAConsoleFeature() {
        return describe("are inside a package below io.fencelab.app.console", c ->
                c.getPackageName().startsWith("io.fencelab.app.console."));
    }
}

package io.fencelab.dist;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The predicates of {@link ArchitectureTest} see what they are meant to: a rule that finds nothing to
 * complain about only means something if it would complain about a class that does the forbidden thing.
 */
class ArchitectureRulesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.fencelab.app.service", "io.fencelab.app.console", "io.fencelab.report");
    }

    @Test
    void theHandoutServiceIsSeenStartingRuns() {
        var rule = noClasses().that().haveFullyQualifiedName("io.fencelab.app.service.Handouts")
                .should().dependOnClassesThat(ArchitectureTest.startsRuns());

        assertThat(rule.evaluate(classes).hasViolation())
                .as("Handouts prepares and runs each lesson's runs: what report may not do").isTrue();
    }

    @Test
    void theSweepSetupIsSeenRunningABackendCheck() {
        var rule = noClasses().that().haveFullyQualifiedName("io.fencelab.app.service.SweepSetup")
                .should().callMethodWhere(ArchitectureTest.backendCheckRun());

        assertThat(rule.evaluate(classes).hasViolation())
                .as("SweepSetup runs the recommended setting again on PostgreSQL").isTrue();
    }

    @Test
    void consoleViewsAreRecognised() {
        assertThat(classes.stream().filter(ArchitectureTest.areViews()::test).count())
                .as("the console has views for the rule about controllers to apply to").isGreaterThan(5);
    }
}

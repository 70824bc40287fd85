package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.run.ExecutorKind;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TabPane;
import org.controlsfx.control.PropertySheet;
import org.junit.jupiter.api.Test;

/**
 * The parameter sheet's lease service: the paused-holder story on a real Redis the console starts,
 * and a Redis address nobody answers, which is one line in the window and no crash.
 */
class ConsoleServiceTest extends ConsoleTestBase {

    private PropertySheet sheet() {
        return fx(() -> (PropertySheet) console.scene().lookup("#parameter-sheet"));
    }

    private Object knob(String name) {
        return fx(() -> sheet().getItems().stream().filter(i -> i.getName().equals(name)).findFirst()
                .orElseThrow().getValue());
    }

    private void setKnob(String name, Object value) {
        fxRun(() -> sheet().getItems().stream().filter(i -> i.getName().equals(name)).findFirst().orElseThrow()
                .setValue(value));
        ConsoleFx.frames();
    }

    private void openPausedHolderAndChooseRedis() {
        waitForDatabase();
        fxRun(() -> console.scenarios().select("paused-holder"));
        waitUntil("the simulated run is prepared", 30, () -> main().phase() == RunPhase.PAUSED);
        setKnob("lease service", ServiceKind.REDIS);
        assertThat(knob("executor")).as("a real service needs real time, and a frozen holder its whole process frozen")
                .isEqualTo(ExecutorKind.PROCESS);
        assertThat(knob("token")).as("Redis's default token").isEqualTo(ServiceKind.REDIS.defaultToken());
        assertThat(fx(() -> ((Label) console.scene().lookup("#parameter-note")).getText()))
                .contains("executor is now PROCESS");
    }

    private void apply() {
        fxRun(() -> ((Button) console.scene().lookup("#apply-parameters")).fire());
    }

    @Test
    void thePausedHolderOnARedisTheConsoleStartsIsFencedAndSafe() {
        openPausedHolderAndChooseRedis();
        apply();
        waitUntil("the process run on Redis is prepared", 90, () -> main().phase() == RunPhase.PAUSED
                && main().infoProperty().get().leases().startsWith("Redis"));
        assertThat(fx(() -> ((Label) console.scene().lookup("#status-leases")).getText()))
                .startsWith("Leases: Redis (Redisson");
        assertThat(fx(() -> main().infoProperty().get().executor())).isEqualTo("process");

        fxRun(() -> console.runs().play());
        waitUntil("the process run has ended", 150, () -> main().phase() == RunPhase.ENDED);
        ConsoleFx.frames();

        List<Event> events = fx(() -> List.copyOf(main().events().toList()));
        assertThat(events).filteredOn(Event.LeaseAcquired.class::isInstance).map(Event.LeaseAcquired.class::cast)
                .as("A and B each granted by Redis").extracting(Event.LeaseAcquired::holder).contains("A", "B");
        assertThat(fx(() -> main().verdict().isSafe())).as("fenced: safe").isTrue();
        assertThat(events).as("the story's end: A, frozen past its lock, wakes and is refused as stale")
                .anyMatch(e -> e instanceof Event.WriteRejectedStale s && s.holder().equals("A"));
        assertThat(fx(() -> main().infoProperty().get().fencing())).isEqualTo("FENCED");
        assertThat(fx(() -> main().timeline().holder("A").orElseThrow().held())).as("A's lane drawn").isNotEmpty();
        assertThat(fx(() -> main().timeline().holder("B").orElseThrow().held())).as("B's lane drawn").isNotEmpty();
        assertThat(fx(() -> ((Label) console.scene().lookup("#verdict-label")).getText())).isEqualTo("SAFE");
        screenshot("console-redis");
    }

    @Test
    void aRedisAddressNobodyAnswersIsOneLineAndTheConsoleGoesOn() {
        openPausedHolderAndChooseRedis();
        setKnob("service address", "redis://:s3cret@127.0.0.1:1");
        apply();
        waitUntil("the run could not start", 30, () -> main().phase() == RunPhase.FAILED);
        String problem = fx(() -> main().problemProperty().get());
        assertThat(problem).contains("redis at 127.0.0.1:1 does not answer").doesNotContain("s3cret")
                .doesNotContain("\tat ").doesNotContain("\n");
        assertThat(fx(() -> console.scene().getWindow().isShowing())).as("the window stays up").isTrue();
        fxRun(() -> {
            javafx.scene.Node n = sheet();
            while (!(n instanceof TabPane)) {
                n = n.getParent();
            }
            TabPane tabs = (TabPane) n;
            tabs.getTabs().stream().filter(t -> t.getText().equals("Parameters")).findFirst()
                    .ifPresent(t -> tabs.getSelectionModel().select(t));
        });
        ConsoleFx.frames();
        assertThat(fx(() -> ((PasswordField) console.scene().lookup("#parameter-sheet .password-field")).getText()))
                .as("the address is in a masked field").contains("s3cret");
        screenshot("console-redis-unreachable");

        setKnob("executor", ExecutorKind.SIMULATED);
        assertThat(knob("lease service")).as("a simulated run's leases are PostgreSQL's").isEqualTo(ServiceKind.POSTGRES);
        apply();
        waitUntil("the simulated run on PostgreSQL is prepared", 30, () -> main().phase() == RunPhase.PAUSED
                && "simulated".equals(main().infoProperty().get().executor()));
    }
}

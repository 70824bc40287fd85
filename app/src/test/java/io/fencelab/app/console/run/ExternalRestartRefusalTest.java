package io.fencelab.app.console.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.event.Event;
import io.fencelab.scenarios.Catalog;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The console on an external database: a restart fault it cannot carry out is one message, not a crash. */
@ExtendWith(EmbeddedDatabase.class)
class ExternalRestartRefusalTest {

    @Test
    void aRestartScenarioOnAnExternalDatabaseIsRefusedInOneMessageBeforeAnyEvent(Database shared, @TempDir Path dir)
            throws InterruptedException {
        List<String> problems = new ArrayList<>();
        List<Event> events = new ArrayList<>();
        EventFeed feed = new EventFeed();
        try (Database external = Database.open(DatabaseConfig.external(shared.jdbcUrl(), null, null), 4)) {
            SimulatedDriver driver = new SimulatedDriver(external, Catalog.shipped().resolve("db-restart").spec(),
                    dir.resolve("events.jsonl"), feed, 0);
            driver.start();
            assertThat(driver.awaitClosed(30_000)).as("the driver gives up at once").isTrue();
            feed.drain(new EventFeed.Target() {
                @Override
                public void events(List<Event> batch) {
                    events.addAll(batch);
                }

                @Override
                public void notice(Notice notice) {
                    if (notice instanceof Notice.Failed f) {
                        problems.add(f.message());
                    }
                }
            }, Long.MAX_VALUE);
        }

        assertThat(problems).as("one message").singleElement().asString()
                .startsWith("could not prepare the run: a DATABASE_RESTART fault needs a database Fencelab can restart")
                .doesNotContain("\n", "Exception");
        assertThat(events).as("the run never started").isEmpty();
    }
}

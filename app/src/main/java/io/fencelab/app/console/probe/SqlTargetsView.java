package io.fencelab.app.console.probe;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.engine.fence.OutcomeRule;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.scenarios.Scenario;
import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The scenario's own SQL fences as its file wrote them, beside the parameters and read-only: each
 * fence's schema (or what it copies), setup, write, how its answer reads, and read-back, each
 * statement with its {@code file:line}. Nothing here can be typed into: the user's file is where the
 * SQL is edited (then opened again), so what runs is always what the file says.
 */
public final class SqlTargetsView extends ScrollPane {

    final VBox content = new VBox(8);
    private final ConsoleModel model;

    public SqlTargetsView(ConsoleModel model) {
        this.model = model;
        setId("sql-targets");
        setFitToWidth(true);
        content.setPadding(new Insets(10));
        content.getStyleClass().add("notes");
        setContent(content);
        model.scenarioProperty().addListener(o -> show(model.scenario()));
        show(model.scenario());
    }

    /** Adds the view to {@code tabs} as its SQL tab while the scenario on show has fences of its own. */
    public Tab showIn(TabPane tabs) {
        Tab tab = new Tab("SQL", this);
        tab.setClosable(false);
        tab.setId("sql-tab");
        Runnable place = () -> {
            boolean wanted = model.probe().availableProperty().get();
            if (wanted && !tabs.getTabs().contains(tab)) {
                tabs.getTabs().add(tab);
            } else if (!wanted) {
                tabs.getTabs().remove(tab);
            }
        };
        model.probe().availableProperty().addListener(o -> place.run());
        place.run();
        return tab;
    }

    private void show(Scenario scenario) {
        content.getChildren().clear();
        List<SqlFence> fences = scenario == null ? List.of() : scenario.fences();
        if (fences.isEmpty()) {
            return;
        }
        Label head = new Label("Your own SQL fences, as the file wrote them. Read-only here: edit the file, "
                + "then open it again. Probe (in the controls) tries the checklist against them.");
        head.setWrapText(true);
        head.getStyleClass().add("notes-meta");
        content.getChildren().add(head);
        fences.forEach(this::fence);
    }

    private void fence(SqlFence f) {
        Label title = new Label(f.name() + "  (SQL)");
        title.getStyleClass().add("sql-fence-title");
        content.getChildren().add(title);
        if (f.schema() != null) {
            sql("schema", f.schema());
        } else {
            part("copyFrom (copied into the scratch schema)", String.join("\n", f.copyFrom()), null);
        }
        if (f.setup() != null) {
            sql("setup", f.setup());
        }
        for (int i = 0; i < f.write().size(); i++) {
            sql(f.write().size() == 1 ? "write" : "write, statement " + (i + 1) + " of " + f.write().size(),
                    f.write().get(i));
        }
        OutcomeRule rule = f.outcome();
        StringBuilder reads = new StringBuilder("accepted: " + rule.accepted());
        if (rule.stale() != null) {
            reads.append("\nstale: ").append(rule.stale());
        }
        if (rule.missing() != null) {
            reads.append("\nmissing: ").append(rule.missing());
        }
        reads.append("\nequalToken: ").append(f.equalToken().name().toLowerCase(java.util.Locale.ROOT))
                .append("\nfirstWrite: ").append(f.firstWrite().name().toLowerCase(java.util.Locale.ROOT));
        part("how the answer reads", reads.toString(), null);
        sql("read", f.read());
    }

    private void sql(String what, SqlText text) {
        part(what, text.sql().stripTrailing(), text.where());
    }

    /**
     * A part's heading (with where it stands in the file) and its text: a label, which nothing can
     * type into, wrapped to the column's width so the whole statement shows.
     */
    private void part(String what, String text, String where) {
        Label heading = new Label(where == null ? what : what + "  —  " + where);
        heading.getStyleClass().add("sql-part");
        Label sql = new Label(text);
        sql.getStyleClass().add("sql-text");
        sql.setWrapText(true);
        sql.setMaxWidth(Double.MAX_VALUE);
        sql.setMinHeight(Region.USE_PREF_SIZE);
        content.getChildren().addAll(heading, sql);
    }
}

package io.fencelab.app.console.model;

import io.fencelab.app.votes.VoteTally;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The room's votes as the console shows them: the address phones open (while a workshop is open),
 * why there is none when the vote server could not start, and the latest question's counts. State
 * only; the vote controller changes it once a frame and the vote panel and the hands input bind to it.
 */
public final class VoteModel {

    private final StringProperty address = new SimpleStringProperty(this, "address", "");
    private final StringProperty problem = new SimpleStringProperty(this, "problem", "");
    private final ObjectProperty<VoteTally.Counts> counts = new SimpleObjectProperty<>(this, "counts");

    /** The address phones open ({@code http://192.168.1.20:8020/}); empty while no vote server runs. */
    public StringProperty addressProperty() {
        return address;
    }

    /** Why phones cannot vote although a workshop is open (the port could not be bound); empty when they can. */
    public StringProperty problemProperty() {
        return problem;
    }

    /** The latest question's votes (phones and hands), or null when no question was asked in this lesson. */
    public ObjectProperty<VoteTally.Counts> countsProperty() {
        return counts;
    }
}

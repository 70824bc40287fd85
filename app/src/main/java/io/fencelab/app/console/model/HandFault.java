package io.fencelab.app.console.model;

import io.fencelab.engine.chaos.FaultKind;

/** A fault a user can add by hand, with the words on its button and the key that adds it. */
public enum HandFault {
    PAUSE(FaultKind.PAUSE, "pause now", "P"),
    DELAY(FaultKind.REQUEST_DELAY, "delay network", "D"),
    DROP_RENEWALS(FaultKind.RENEWAL_LOSS, "drop renewals", "R"),
    KILL_CONNECTION(FaultKind.CONNECTION_KILL, "kill connection", "K");

    public final FaultKind kind;
    public final String words;
    public final String key;

    HandFault(FaultKind kind, String words, String key) {
        this.kind = kind;
        this.words = words;
        this.key = key;
    }
}

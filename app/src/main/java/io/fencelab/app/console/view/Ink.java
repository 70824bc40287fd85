package io.fencelab.app.console.view;

import io.fencelab.engine.report.WriteKind;
import javafx.scene.paint.Color;

/**
 * The console's colours, the report's Okabe–Ito palette (readable with the common colour-vision
 * deficiencies), every meaning also carried by shape or text. The order is the drawing order:
 * shading first, then bars, then marks and highlights, then text on top.
 */
enum Ink {
    FUTURE(Color.web("#F4F4F4")),
    LANE_ALT(Color.web("#F7F9FB")),
    GRID(Color.web("#E3E3E3")),
    PAUSE(Color.web("#8C8C8C", 0.28)),
    FAULT(Color.web("#CC79A7", 0.30)),
    WITNESS_BAND(Color.web("#B00020", 0.05)),
    HELD(Color.web("#0072B2")),
    BELIEVED(Color.web("#56B4E9")),
    GAP(Color.web("#E69F00")),
    GAP_STRIPE(Color.web("#9A6700")),
    STEP(Color.web("#0072B2")),
    HALO(Color.WHITE),
    ACCEPTED(Color.web("#009E73")),
    REJECTED(Color.web("#222222")),
    OVERWROTE(Color.web("#D7191C")),
    MISSING(Color.web("#777777")),
    OUT_OF_ORDER(Color.web("#CC79A7")),
    WITNESS(Color.web("#B00020")),
    PINNED(Color.web("#6A3D9A")),
    PLAYHEAD(Color.web("#222222")),
    /** A setting changed during a live run (the report's colour for it). */
    CHANGE(Color.web("#3B4CC0")),
    SEPARATOR(Color.web("#9AA5B1")),
    TEXT(Color.web("#1B1F23")),
    TEXT_MUTED(Color.web("#555555")),
    TEXT_ON_DARK(Color.WHITE),
    TEXT_GAP(Color.web("#3D2800"));

    final Color color;

    Ink(Color color) {
        this.color = color;
    }

    static Ink of(WriteKind kind) {
        return switch (kind) {
            case ACCEPTED -> ACCEPTED;
            case REJECTED_STALE -> REJECTED;
            case MISSING -> MISSING;
            case OUT_OF_ORDER -> OUT_OF_ORDER;
            case OVERWROTE_NEWER -> OVERWROTE;
        };
    }

    /** How a legend and a tooltip name each kind of write outcome. */
    static String words(WriteKind kind) {
        return switch (kind) {
            case ACCEPTED -> "write accepted";
            case REJECTED_STALE -> "write rejected as stale";
            case MISSING -> "write to a missing resource";
            case OUT_OF_ORDER -> "write out of order";
            case OVERWROTE_NEWER -> "stale write accepted over a newer one";
        };
    }
}

package io.fencelab.app.console.ui;

import io.fencelab.engine.check.WriteClass;
import io.fencelab.report.Palette;
import java.util.EnumMap;
import java.util.Map;
import javafx.scene.paint.Color;

/**
 * The console's colours, the report's Okabe–Ito palette ({@link Palette}) (readable with the common colour-vision
 * deficiencies), every meaning also carried by shape or text. The order is the drawing order:
 * shading first, then bars, then marks and highlights, then text on top.
 */
public enum Ink {
    /** Laid over the lanes (the playhead layer), so translucent: #F4F4F4 on white. */
    FUTURE(Color.rgb(0, 0, 0, 0.045)),
    LANE_ALT(Color.web("#F7F9FB")),
    GRID(Color.web("#E3E3E3")),
    PAUSE(Color.web("#8C8C8C", 0.28)),
    FAULT(Color.web(Palette.FAULT, 0.30)),
    WITNESS_BAND(Color.web("#B00020", 0.05)),
    HELD(Color.web(Palette.HELD)),
    BELIEVED(Color.web(Palette.BELIEVED)),
    GAP(Color.web(Palette.GAP)),
    GAP_STRIPE(Color.web(Palette.GAP_DARK)),
    STEP(Color.web(Palette.HELD)),
    /** A process run's holder whose host stopped answering, from then on: a veil over its bars, under its marks. */
    HOST_LOST(Color.rgb(26, 26, 26, 0.22)),
    HALO(Color.WHITE),
    ACCEPTED(WriteClass.ACCEPTED),
    REJECTED(WriteClass.REJECTED_STALE),
    OVERWROTE(WriteClass.STALE_OVERWRITE),
    MISSING(WriteClass.MISSING),
    OUT_OF_ORDER(WriteClass.OUT_OF_ORDER),
    WITNESS(Color.web("#B00020")),
    PINNED(Color.web("#6A3D9A")),
    PLAYHEAD(Color.web("#222222")),
    /** A setting changed during a live run. */
    CHANGE(Color.web(Palette.CHANGE)),
    SEPARATOR(Color.web("#9AA5B1")),
    TEXT(Color.web("#1B1F23")),
    TEXT_MUTED(Color.web("#555555")),
    /** A user's own SQL fence: the band beside its lane's name and its kind word ({@link Palette#SQL_FENCE}). */
    SQL_FENCE(Color.web(Palette.SQL_FENCE)),
    TEXT_ON_DARK(Color.WHITE),
    TEXT_GAP(Color.web("#3D2800"));

    public final Color color;
    /** The write outcome this ink draws, or null: its colour is the report's ({@link Palette#look}). */
    private final WriteClass kind;

    Ink(Color color) {
        this.color = color;
        this.kind = null;
    }

    Ink(WriteClass kind) {
        this.color = Color.web(Palette.of(kind));
        this.kind = kind;
    }

    private static final Map<WriteClass, Ink> BY_KIND = new EnumMap<>(WriteClass.class);

    static {
        for (Ink ink : values()) {
            if (ink.kind != null) {
                BY_KIND.put(ink.kind, ink);
            }
        }
    }

    /** The ink of a kind of write outcome; every kind has one (InkTest). */
    public static Ink of(WriteClass kind) {
        return BY_KIND.get(kind);
    }
}

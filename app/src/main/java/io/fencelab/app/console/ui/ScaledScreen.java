package io.fencelab.app.console.ui;

import java.util.function.DoubleBinaryOperator;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.scene.layout.Region;
import javafx.scene.transform.Scale;

/**
 * Shows one view designed for a {@code designW} × {@code designH} screen on a screen of any size,
 * filling it edge to edge. On a larger screen (a projector at 1920 × 1080) the view is laid out at
 * the window's size divided by {@link #scaleProperty() a factor} (at least the design size in one
 * direction, more in the other if the aspect differs) and drawn that many times larger, so every
 * font, lane and margin grows together and nothing is letterboxed. On a smaller window the factor
 * stays 1: text never shrinks below what the view was designed to show. {@link #fixed} draws a view
 * a set number of times larger instead (the sweep's heatmap in the presenter view).
 */
public final class ScaledScreen extends Region {

    private final Region view;
    /** The factor for the width and height this region is given. */
    private final DoubleBinaryOperator factorOf;
    private final Scale scale = new Scale(1, 1, 0, 0);
    private final ReadOnlyDoubleWrapper factor = new ReadOnlyDoubleWrapper(this, "scale", 1);

    public ScaledScreen(Region view, double designW, double designH) {
        this(view, (w, h) -> factorFor(w, h, designW, designH));
    }

    private ScaledScreen(Region view, DoubleBinaryOperator factorOf) {
        this.view = view;
        this.factorOf = factorOf;
        view.getTransforms().add(scale);
        getChildren().add(view);
        setMinSize(0, 0);
    }

    /** {@code view} drawn {@code times} larger, whatever the size it is given. */
    public static ScaledScreen fixed(Region view, double times) {
        return new ScaledScreen(view, (w, h) -> times);
    }

    /** How many times larger than designed the view is drawn (1 at the design size or below). */
    public ReadOnlyDoubleProperty scaleProperty() {
        return factor.getReadOnlyProperty();
    }

    /** The factor for a {@code w} × {@code h} window: the smaller of its ratios to the design, never under 1. */
    static double factorFor(double w, double h, double designW, double designH) {
        return Math.max(1, Math.min(w / designW, h / designH));
    }

    @Override
    protected void layoutChildren() {
        double w = getWidth();
        double h = getHeight();
        double s = factorOf.applyAsDouble(w, h);
        scale.setX(s);
        scale.setY(s);
        factor.set(s);
        view.resizeRelocate(0, 0, w / s, h / s);
    }

    @Override
    protected double computePrefWidth(double height) {
        return view.prefWidth(-1);
    }

    @Override
    protected double computePrefHeight(double width) {
        return view.prefHeight(-1);
    }
}

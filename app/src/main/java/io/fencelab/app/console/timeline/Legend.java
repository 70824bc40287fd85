package io.fencelab.app.console.timeline;

import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.report.Palette;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;

/**
 * What the timeline's colours and marks mean, drawn with the same shapes; write outcomes are named
 * in the report legend's words ({@link Palette#legend}).
 */
public final class Legend extends FlowPane {

    public Legend() {
        super(14, 4);
        getStyleClass().add("legend");
        setPadding(new Insets(4, 10, 4, 10));
        setAlignment(Pos.CENTER_LEFT);
        add(bar(Ink.HELD), "lease held (service's view)");
        add(bar(Ink.BELIEVED), "holder believes it holds it");
        add(gap(), "GAP: believes, but the lease is gone");
        add(bar(Ink.PAUSE), "paused");
        add(bar(Ink.FAULT), "fault");
        add(mark(WriteClass.ACCEPTED, Batches.Shape.DOT), Palette.legend(WriteClass.ACCEPTED));
        add(mark(WriteClass.REJECTED_STALE, Batches.Shape.CROSS), Palette.legend(WriteClass.REJECTED_STALE));
        add(mark(WriteClass.STALE_OVERWRITE, Batches.Shape.TRIANGLE), Palette.legend(WriteClass.STALE_OVERWRITE));
        add(witness(), "witness of a violation");
        add(change(), "setting changed in a live run (\u0394)");
    }

    private void add(Canvas icon, String text) {
        Label l = new Label(text, icon);
        l.getStyleClass().add("legend-item");
        getChildren().add(l);
    }

    private static Canvas bar(Ink ink) {
        Canvas c = new Canvas(22, 14);
        GraphicsContext g = c.getGraphicsContext2D();
        g.setFill(ink.color);
        g.fillRect(1, 3, 20, 8);
        return c;
    }

    private static Canvas gap() {
        Canvas c = new Canvas(22, 14);
        GraphicsContext g = c.getGraphicsContext2D();
        g.setFill(Ink.GAP.color);
        g.fillRect(1, 1, 20, 12);
        g.setStroke(Ink.GAP_STRIPE.color);
        g.setLineWidth(1.2);
        for (int x = -10; x < 22; x += 6) {
            g.strokeLine(Math.max(1, x), 13 - Math.max(0, 1 - x), Math.min(21, x + 12), 13 - (Math.min(21, x + 12) - x));
        }
        g.setLineWidth(1.5);
        g.strokeRect(1, 1, 20, 12);
        return c;
    }

    private static Canvas mark(WriteClass kind, Batches.Shape shape) {
        Canvas c = new Canvas(18, 16);
        Batches b = new Batches();
        b.mark(Ink.of(kind), shape, 9, 8, 5);
        b.drawTo(c.getGraphicsContext2D());
        return c;
    }

    private static Canvas change() {
        Canvas c = new Canvas(12, 16);
        GraphicsContext g = c.getGraphicsContext2D();
        g.setStroke(Ink.CHANGE.color);
        g.setLineWidth(1.5);
        g.setLineDashes(4, 2);
        g.strokeLine(6, 0, 6, 16);
        return c;
    }

    private static Canvas witness() {
        Canvas c = new Canvas(20, 16);
        Batches b = new Batches();
        b.mark(Ink.OVERWROTE, Batches.Shape.TRIANGLE, 10, 8, 4);
        b.outline(Ink.WITNESS, 2, 1, 16, 14, 2.5);
        b.drawTo(c.getGraphicsContext2D());
        return c;
    }
}

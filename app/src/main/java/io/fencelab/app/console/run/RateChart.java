package io.fencelab.app.console.run;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.SecondCounts;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Span;
import io.fencelab.report.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.layout.Pane;
import javafx.scene.shape.Rectangle;

/**
 * Per-second rates (acquisitions, renewals, renewal failures, stale rejections, accepted writes)
 * over a rolling window of the last {@value #WINDOW} seconds of run time, with the seconds in which
 * a pause or fault was active shaded (darker the more holders it held). A built-in chart, so it is kept small: at most
 * {@value #WINDOW} points per series, updated a few times per second.
 */
public final class RateChart extends LineChart<Number, Number> {

    static final int WINDOW = 60;
    /** Upper bounds the rate axis takes, the smallest that holds the window's highest rate. */
    private static final long[] Y_STEPS = {5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000,
            100_000, 200_000, 500_000, 1_000_000};
    /** Wide enough for "100,000" at the axis' font, so the plot does not move as the labels grow. */
    private static final double Y_AXIS_WIDTH = 58;

    private record Series(String name, ToLongFunction<EventCounts> value) {}

    private static final List<Series> SERIES = List.of(
            new Series("acquisitions", EventCounts::acquisitions),
            new Series("renewals", EventCounts::renewals),
            new Series("renewal failures", EventCounts::renewalFailures),
            new Series("stale rejections", EventCounts::staleRejections),
            new Series("accepted writes", EventCounts::acceptedWrites));

    private final NumberAxis x;
    private final List<XYChart.Series<Number, Number>> series = new ArrayList<>();
    private final Pane shading = new Pane();
    private final List<double[]> faultSeconds = new ArrayList<>();
    private RunModel run;
    private final javafx.beans.InvalidationListener update = o -> refresh();
    /**
     * A new timeline only changes the shading; while a run plays, the metrics' next change (a few
     * times a second) picks it up, so the chart does not lay out again at every new timeline.
     */
    private final javafx.beans.InvalidationListener newTimeline = o -> {
        if (run.phase() != io.fencelab.app.console.model.RunPhase.PLAYING) {
            refresh();
        }
    };

    public RateChart() {
        super(new NumberAxis(), new NumberAxis());
        x = (NumberAxis) getXAxis();
        NumberAxis y = (NumberAxis) getYAxis();
        x.setLabel("run time (s)");
        y.setLabel("per second");
        x.setAutoRanging(false);
        x.setLowerBound(0);
        x.setUpperBound(WINDOW);
        x.setTickUnit(10);
        // A range that changes only when the rates cross a step (5, 10, 20, 50, ...) and labels of one
        // width: an axis re-ranged at every refresh re-made its labels and moved the whole plot.
        y.setAutoRanging(false);
        y.setLowerBound(0);
        y.setUpperBound(Y_STEPS[0]);
        y.setTickUnit(Y_STEPS[0] / 5.0);
        y.setMinWidth(Y_AXIS_WIDTH);
        y.setPrefWidth(Y_AXIS_WIDTH);
        y.setMinorTickVisible(false);
        setAnimated(false);
        setCreateSymbols(false);
        setLegendVisible(true);
        setId("rate-chart");
        getStyleClass().add("rate-chart");
        ObservableList<XYChart.Series<Number, Number>> data = FXCollections.observableArrayList();
        for (Series s : SERIES) {
            XYChart.Series<Number, Number> xy = new XYChart.Series<>();
            xy.setName(s.name());
            series.add(xy);
            data.add(xy);
        }
        setData(data);
        shading.setMouseTransparent(true);
        shading.setManaged(false);
        getPlotChildren().addFirst(shading);
    }

    /** Follows {@code model} (rebinding when the console focuses another run). */
    public void bind(RunModel model) {
        if (run != null) {
            run.metricsProperty().removeListener(update);
            run.timelineProperty().removeListener(newTimeline);
        }
        run = model;
        model.metricsProperty().addListener(update);
        model.timelineProperty().addListener(newTimeline);
        refresh();
    }

    private void refresh() {
        MetricsSnapshot m = run.metricsProperty().get();
        List<SecondCounts> perSecond = m == null ? List.of() : m.perSecond();
        long last = perSecond.isEmpty() ? 0 : perSecond.getLast().second();
        long first = Math.max(0, last - WINDOW);
        x.setLowerBound(first);
        x.setUpperBound(first + WINDOW);
        int from = 0;
        while (from < perSecond.size() && perSecond.get(from).second() < first) {
            from++;
        }
        long highest = 0;
        for (int i = 0; i < SERIES.size(); i++) {
            List<XYChart.Data<Number, Number>> points = new ArrayList<>(WINDOW);
            for (int k = from; k < perSecond.size(); k++) {
                SecondCounts c = perSecond.get(k);
                long value = SERIES.get(i).value().applyAsLong(c.counts());
                highest = Math.max(highest, value);
                points.add(new XYChart.Data<>(c.second(), value));
            }
            series.get(i).getData().setAll(points);
        }
        long upper = Y_STEPS[Y_STEPS.length - 1];
        for (long step : Y_STEPS) {
            if (highest <= step) {
                upper = step;
                break;
            }
        }
        NumberAxis y = (NumberAxis) getYAxis();
        if (y.getUpperBound() != upper) {
            y.setUpperBound(upper);
            y.setTickUnit(upper / 5.0);
        }
        faultSeconds.clear();
        Timeline t = run.timeline();
        if (t != null && !t.holders().isEmpty()) {
            // Per second of the window: the share of holders paused or under a fault (a database
            // fault counts for everyone), shown as the shading's strength.
            int seconds = WINDOW + 1;
            double[] share = new double[seconds];
            boolean[] everyone = new boolean[seconds];
            for (Span.Fault f : t.globalFaults()) {
                mark(everyone, f.startMicros(), f.endMicros(), first);
            }
            long windowStart = first * 1_000_000;
            double one = 1.0 / t.holders().size();
            boolean[] hit = new boolean[seconds];
            for (HolderLane lane : t.holders()) {
                System.arraycopy(everyone, 0, hit, 0, seconds);
                for (Span s : lane.spans()) {
                    if ((s instanceof Span.Pause || s instanceof Span.Fault) && s.endMicros() > windowStart) {
                        mark(hit, s.startMicros(), s.endMicros(), first);
                    }
                }
                for (int i = 0; i < seconds; i++) {
                    if (hit[i]) {
                        share[i] += one;
                    }
                }
            }
            for (int i = 0; i < seconds; i++) {
                if (share[i] > 0) {
                    faultSeconds.add(new double[] {first + i, first + i + 1, share[i]});
                }
            }
        }
        requestChartLayout();
    }

    /** Marks the seconds of the window that {@code [from, to)} (run micros) touches. */
    private static void mark(boolean[] hit, long from, long to, long firstSecond) {
        long a = Math.max(0, from / 1_000_000 - firstSecond);
        long b = Math.min(hit.length - 1, (Math.max(to - 1, from)) / 1_000_000 - firstSecond);
        for (long i = a; i <= b; i++) {
            hit[(int) i] = true;
        }
    }

    @Override
    protected void layoutPlotChildren() {
        super.layoutPlotChildren();
        List<Node> rects = new ArrayList<>();
        NumberAxis y = (NumberAxis) getYAxis();
        double top = y.getDisplayPosition(y.getUpperBound());
        double bottom = y.getDisplayPosition(y.getLowerBound());
        for (double[] s : faultSeconds) {
            double a = x.getDisplayPosition(Math.max(s[0], x.getLowerBound()));
            double b = x.getDisplayPosition(Math.min(s[1], x.getUpperBound()));
            if (b - a < 1) {
                b = a + 1;
            }
            Rectangle r = new Rectangle(a, top, b - a, bottom - top);
            r.getStyleClass().add("fault-window");
            r.setOpacity(0.25 + 0.75 * s[2]);
            rects.add(r);
        }
        shading.getChildren().setAll(rects);
        shading.toBack();
    }
}

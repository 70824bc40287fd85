/**
 * The Tune view: the sweep form, running and resuming a sweep, and its heatmap and trade-off plot.
 */
package io.fencelab.app.console.tune;

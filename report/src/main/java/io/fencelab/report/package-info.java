/**
 * A run's report, from its events alone: the {@link io.fencelab.report.Timeline} model (the
 * same one the console draws), and the bundle a finished run leaves
 * ({@link io.fencelab.report.ReportBundle}): a self-contained {@code report.html}
 * ({@link io.fencelab.report.HtmlReport}), {@code summary.json}
 * ({@link io.fencelab.report.SummaryJson}), {@code metrics.csv}
 * ({@link io.fencelab.report.MetricsCsv}) and the event log as {@code events.jsonl}.
 *
 * <p>Every writer is deterministic: the same input gives the same bytes (no clock, no locale, no
 * hash order). Scenario text arrives as plain strings in {@link io.fencelab.report.ReportInput},
 * since scenarios live in a module above the engine.
 */
package io.fencelab.report;

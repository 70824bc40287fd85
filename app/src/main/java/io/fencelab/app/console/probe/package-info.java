/**
 * The user's own SQL fences in the console: their SQL shown read-only beside the parameters, and
 * {@code probe} (the design note's checklist, as {@code fencelab probe} runs it) started from the
 * console with its checklist filling in as the verdicts arrive.
 */
package io.fencelab.app.console.probe;

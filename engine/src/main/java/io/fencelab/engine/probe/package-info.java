/**
 * {@code fencelab probe}: the design note's checklist tried against the user's own SQL fences, each
 * item a directed sequence of writes (or runs, for races) with a witness for every failure. Imports
 * {@code fence}, {@code lease}, {@code db}, {@code run}, {@code check} and below; never the console.
 */
package io.fencelab.engine.probe;

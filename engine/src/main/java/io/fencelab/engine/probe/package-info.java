/**
 * {@code fencelab probe}: the design note's checklist tried against the user's own SQL fences, each
 * item a directed sequence of writes on a fresh scratch schema ({@code Trial}), or judged runs for
 * the races, with a witness for every failure. Imports {@code fence}, {@code lease}, {@code db},
 * {@code run}, {@code check}, {@code chaos}, {@code worker}, {@code clock}, {@code event} (for the
 * JSON writer) and below; never the console.
 */
package io.fencelab.engine.probe;

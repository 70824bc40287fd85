/**
 * The safety checker and the {@link io.fencelab.engine.check.Judgement} it produces from a run's
 * events (and, offline, the final state). Reads facts only: imports {@code event}, {@code resource}
 * and {@code clock.RunTimes} (how a time is printed), never the database or a store.
 */
package io.fencelab.engine.check;

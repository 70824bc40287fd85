/**
 * The failpoint seam: the statement boundaries ({@link io.fencelab.engine.failpoint.Failpoint}) at
 * which a test makes something go wrong, and the one hook a store reaches them through. Generic in
 * the store's session type, so it imports nothing of the engine.
 */
package io.fencelab.engine.failpoint;

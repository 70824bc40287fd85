/**
 * Fenced writes: {@link io.fencelab.engine.fence.FencedTarget}, the SQL that writes a row, object
 * or pointer under a token in each {@link io.fencelab.engine.fence.FencingMode}, its outcomes, the
 * token schemes and the audit trail; and the user's own fences ({@link io.fencelab.engine.fence.SqlFence}):
 * their scratch schema ({@link io.fencelab.engine.fence.ScratchSchema}) and their writes
 * ({@link io.fencelab.engine.fence.SqlTarget}), whose statements run with {@code search_path} set to the
 * scratch schema alone. Imports {@code db}, {@code lease}, {@code resource} and {@code check.ValueDigest}
 * (the one digest of a value), never a store.
 */
package io.fencelab.engine.fence;

/**
 * Fenced writes: {@link io.fencelab.engine.fence.FencedTarget}, the SQL that writes a row, object
 * or pointer under a token in each {@link io.fencelab.engine.fence.FencingMode}, its outcomes, the
 * token schemes and the audit trail. Imports {@code db}, {@code lease} and {@code resource}, never a
 * store.
 */
package io.fencelab.engine.fence;

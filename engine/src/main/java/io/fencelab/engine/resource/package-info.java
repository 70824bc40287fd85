/**
 * What a fenced resource is: its kind ({@link io.fencelab.engine.resource.TargetKind}: row, object,
 * pointer, with the table each lives in), its identity and its state as stored at the end of a run.
 * The bottom of the engine: the events, the checker, the database code and the stores all name
 * resources this way. Imports nothing of the engine.
 */
package io.fencelab.engine.resource;

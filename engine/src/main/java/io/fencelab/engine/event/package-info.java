/**
 * The facts of a run: the sealed {@link io.fencelab.engine.event.Event} records, the bus that numbers
 * and delivers them, and their JSON Lines log, written and read back. Imports only {@code resource},
 * {@code clock} (time read through a ticker) and {@code files} (the wording of a file error).
 */
package io.fencelab.engine.event;

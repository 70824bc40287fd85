/**
 * The hand-over from a run's threads to the FX thread: drivers put events and notices into an
 * {@code EventFeed} without waiting, and the run's updater drains it once per frame.
 */
package io.fencelab.app.console.feed;

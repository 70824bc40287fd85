/**
 * The timeline: drawing the lanes on a canvas ({@code TimelineRenderer}, its playhead layer and
 * legend), the view that paces its redraws, rebuilding the timeline model off the FX thread as events
 * arrive, and navigation (zoom, pan, fit, pinning an event).
 */
package io.fencelab.app.console.timeline;

/**
 * Choosing and running a scenario: the drivers that move a run forward (simulated, live, replay), the
 * sessions and their frame updater, the scenario, run and fault controllers, and the views of a run
 * (catalog and story, parameter sheet, controls, verdict, events table, rate charts, status bar).
 */
package io.fencelab.app.console.run;

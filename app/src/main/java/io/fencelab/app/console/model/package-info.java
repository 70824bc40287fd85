/**
 * The console's state, shared by every feature: {@code ConsoleModel} (database, scenario, controls)
 * and the state it holds for each feature (the runs on show, the time window, the lesson, votes, the
 * sweep). State only, no logic: controllers change it, views bind to it. Depends on no other console package.
 */
package io.fencelab.app.console.model;

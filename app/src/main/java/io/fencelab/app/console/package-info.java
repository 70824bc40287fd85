/**
 * The console put together: {@code Console} builds the shared model, one controller per feature and
 * the main window ({@code ConsoleView}) and wires the views' intents to the controllers, the one place
 * views meet controllers; {@code ConsoleLauncher} starts it, and {@code ConsoleProbe} is what the
 * benchmarks may use of it. Nothing below this package reaches up into it.
 */
package io.fencelab.app.console;

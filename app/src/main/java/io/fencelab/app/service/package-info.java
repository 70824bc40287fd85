/**
 * The application's services, shared by the command line and the console: they run what the report
 * module only renders (a lesson's runs for its handout, a sweep and its PostgreSQL check, a workshop's
 * stories). They may use the engine, the scenarios and the report; never {@code app.cli} or
 * {@code app.console}.
 */
package io.fencelab.app.service;

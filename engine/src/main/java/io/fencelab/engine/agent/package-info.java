/**
 * Workers as processes: what a process run, its agents and agent hosts say to each other through the
 * run's database ({@link io.fencelab.engine.agent.AgentTables}: plans, events, orders, heartbeats,
 * with LISTEN/NOTIFY to wake the listener), how a host's clock is measured against the database's
 * ({@link io.fencelab.engine.agent.ClockOffset}), and how a local process is frozen, thawed and killed
 * ({@link io.fencelab.engine.agent.ProcessSignals}). PostgreSQL is the one coordinator.
 */
package io.fencelab.engine.agent;

-- Fencelab schema, version 4: the tables through which a process run, its agents (one JVM per
-- worker) and the agent hosts talk. PostgreSQL is the one coordinator: plans, events, orders and
-- heartbeats are rows, and NOTIFY fencelab_orders wakes whoever waits for an order. Every time is
-- the database's clock_timestamp(): the database's clock is the one reference for all hosts.

-- A process run: the scenario text its agents compile, and run time zero once every agent is up.
CREATE TABLE agent_run (
    run_id     bigint      PRIMARY KEY,
    plan       text        NOT NULL,
    started_at timestamptz,
    ended_at   timestamptz
);

-- One row per agent (worker) of a process run; host NULL = the run's own machine. pid and up_at
-- are set when the agent says it is up.
CREATE TABLE agent (
    run_id bigint NOT NULL REFERENCES agent_run ON DELETE CASCADE,
    name   text   NOT NULL,
    host   text,
    pid    bigint,
    up_at  timestamptz,
    PRIMARY KEY (run_id, name)
);

-- Events on their way from an agent to the run's log: the run takes them with DELETE ... RETURNING.
-- local_seq is the agent's own numbering (a gap shows a lost event); at_micros its corrected time.
CREATE TABLE agent_event (
    run_id    bigint NOT NULL REFERENCES agent_run ON DELETE CASCADE,
    agent     text   NOT NULL,
    local_seq bigint NOT NULL,
    at_micros bigint NOT NULL,
    body      text   NOT NULL,
    PRIMARY KEY (run_id, agent, local_seq)
);

-- Instructions to an agent (host NULL) or to an agent host (host set; agent = the agent it is
-- about). Whoever carries one out writes its result: done_at, ok, the pid, and when a signal was
-- delivered and its effect confirmed. A body holds arguments as data, never a command to run.
CREATE TABLE agent_order (
    id           bigserial   PRIMARY KEY,
    run_id       bigint      NOT NULL,
    host         text,
    agent        text,
    kind         text        NOT NULL,
    body         text,
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    done_at      timestamptz,
    ok           boolean,
    pid          bigint,
    delivered_at timestamptz,
    confirmed_at timestamptz,
    detail       text,
    CHECK (host IS NOT NULL OR agent IS NOT NULL)
);
-- The two questions asked all the time, each about pending orders only.
CREATE INDEX agent_order_pending_for_agent ON agent_order (run_id, agent, id) WHERE done_at IS NULL;
CREATE INDEX agent_order_pending_for_host ON agent_order (host, id) WHERE done_at IS NULL;

-- Agent hosts that joined: heartbeats (last_seen) with their latest clock measurement against the
-- database (offset = database time - host time, true offset within +/- uncertainty).
CREATE TABLE agent_host (
    name                 text        PRIMARY KEY,
    machine              text        NOT NULL,
    pid                  bigint      NOT NULL,
    joined_at            timestamptz NOT NULL DEFAULT clock_timestamp(),
    last_seen            timestamptz NOT NULL DEFAULT clock_timestamp(),
    clock_offset_us      bigint      NOT NULL DEFAULT 0,
    clock_uncertainty_us bigint      NOT NULL DEFAULT 0,
    left_at              timestamptz
);

-- A process run's rows go with its run. Added only where the run table exists: a database Flyway
-- baselined over an older data directory (an older Fencelab's, with data of its own) has none.
DO $$
BEGIN
    IF to_regclass('run') IS NOT NULL THEN
        ALTER TABLE agent_run ADD FOREIGN KEY (run_id) REFERENCES run ON DELETE CASCADE;
        ALTER TABLE agent_order ADD FOREIGN KEY (run_id) REFERENCES run ON DELETE CASCADE;
    END IF;
END $$;

-- Fencelab schema, version 1: runs, leases with per-scope token counters, the three fenced
-- targets of the protected boundary (row, object, pointer) and a database-side audit of every
-- accepted write. Every table is keyed by run_id so runs are isolated from each other.

CREATE TABLE run (
    run_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    label      text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per (run, scope). token is the last token issued in the scope: the counter. The row is
-- never deleted, so a token is never issued twice, not after release and not after a restart.
-- holder/expires_at are NULL while nobody holds the lease.
CREATE TABLE lease (
    run_id      bigint      NOT NULL REFERENCES run ON DELETE CASCADE,
    scope       text        NOT NULL,
    token       bigint      NOT NULL CHECK (token >= 0),
    holder      text,
    acquired_at timestamptz,
    expires_at  timestamptz,
    PRIMARY KEY (run_id, scope),
    CHECK ((holder IS NULL) = (expires_at IS NULL))
);

-- Row target: the design note's report_state, one row per protected record.
CREATE TABLE fenced_row (
    run_id        bigint NOT NULL REFERENCES run ON DELETE CASCADE,
    scope         text   NOT NULL,
    res_key       text   NOT NULL,
    body          text   NOT NULL,
    fencing_token bigint NOT NULL,
    op_seq        bigint,
    PRIMARY KEY (run_id, scope, res_key)
);

-- Object target: a blob store keyed by object key; each object carries its fencing token.
CREATE TABLE fenced_object (
    run_id        bigint NOT NULL REFERENCES run ON DELETE CASCADE,
    scope         text   NOT NULL,
    res_key       text   NOT NULL,
    content       bytea  NOT NULL,
    fencing_token bigint NOT NULL,
    op_seq        bigint,
    PRIMARY KEY (run_id, scope, res_key)
);

-- Pointer target: a named pointer publishing which object version is current.
CREATE TABLE fenced_pointer (
    run_id        bigint NOT NULL REFERENCES run ON DELETE CASCADE,
    scope         text   NOT NULL,
    res_key       text   NOT NULL,
    target_key    text   NOT NULL,
    fencing_token bigint NOT NULL,
    op_seq        bigint,
    PRIMARY KEY (run_id, scope, res_key)
);

-- Every change to a fenced resource, in the order the database applied it, whoever made it and
-- however (fenced, unfenced, check-then-write, or by hand). The safety checks read this, not the
-- writers' own beliefs. audit_id order is apply order per resource: the row lock serializes
-- writers and the trigger runs while the lock is held.
CREATE TABLE fence_audit (
    audit_id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id         bigint NOT NULL REFERENCES run ON DELETE CASCADE,
    scope          text   NOT NULL,
    target         text   NOT NULL,
    res_key        text   NOT NULL,
    previous_token bigint,
    token          bigint NOT NULL,
    op_seq         bigint
);
CREATE INDEX fence_audit_by_resource ON fence_audit (run_id, target, scope, res_key, audit_id);

CREATE FUNCTION fence_audit_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO fence_audit (run_id, scope, target, res_key, previous_token, token, op_seq)
    VALUES (NEW.run_id, NEW.scope, TG_ARGV[0], NEW.res_key,
            CASE WHEN TG_OP = 'UPDATE' THEN OLD.fencing_token END, NEW.fencing_token, NEW.op_seq);
    RETURN NULL;
END $$;

CREATE TRIGGER fenced_row_audit AFTER INSERT OR UPDATE ON fenced_row
    FOR EACH ROW EXECUTE FUNCTION fence_audit_record('ROW');
CREATE TRIGGER fenced_object_audit AFTER INSERT OR UPDATE ON fenced_object
    FOR EACH ROW EXECUTE FUNCTION fence_audit_record('OBJECT');
CREATE TRIGGER fenced_pointer_audit AFTER INSERT OR UPDATE ON fenced_pointer
    FOR EACH ROW EXECUTE FUNCTION fence_audit_record('POINTER');

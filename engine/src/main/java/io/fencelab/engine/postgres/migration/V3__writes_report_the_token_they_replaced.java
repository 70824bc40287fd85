package io.fencelab.engine.postgres.migration;

import io.fencelab.engine.resource.TargetKind;
import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Every accepted write reports the token the resource held just before it, as the database applied
 * it. A live run's threads can publish two accepted writes in the other order from the one the
 * database applied them in; the token each write replaced is the database's own word on that
 * order, so a checker can tell a reordered report from a stale overwrite.
 *
 * <p>The audit trigger, which runs under the row lock, puts the replaced token in a
 * transaction-local setting; the fenced write functions (recreated from V2's template with one more
 * column) and new {@code blind_write_*} functions for the broken modes read it back right after
 * their own change, in the same statement.
 */
@SuppressWarnings("checkstyle:TypeName") // Flyway reads the version from the class name
public class V3__writes_report_the_token_they_replaced extends BaseJavaMigration {

    /** The token the write just made replaced: null when it created the resource. */
    static final String REPLACED = "NULLIF(current_setting('fencelab.replaced_token', true), '')::bigint";

    static final String AUDIT_TRIGGER = """
            CREATE OR REPLACE FUNCTION fence_audit_record() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO fence_audit (run_id, scope, target, res_key, previous_token, token, op_seq)
                VALUES (NEW.run_id, NEW.scope, TG_ARGV[0], NEW.res_key,
                        CASE WHEN TG_OP = 'UPDATE' THEN OLD.fencing_token END, NEW.fencing_token, NEW.op_seq);
                PERFORM set_config('fencelab.replaced_token',
                        COALESCE(CASE WHEN TG_OP = 'UPDATE' THEN OLD.fencing_token::text END, ''), true);
                RETURN NULL;
            END $$
            """;

    /**
     * The broken modes' write: no comparison at all. %1$s table, %2$s value column, %3$s value type,
     * %4$s function name, %5$s {@link #REPLACED}.
     */
    static final String BLIND_TEMPLATE = """
            CREATE FUNCTION %4$s(p_run bigint, p_scope text, p_key text, p_token bigint, p_seq bigint,
                                 p_create boolean, p_value %3$s)
            RETURNS TABLE (outcome text, replaced bigint)
            LANGUAGE plpgsql AS $fn$
            BEGIN
                IF p_create THEN
                    INSERT INTO %1$s (run_id, scope, res_key, fencing_token, op_seq, %2$s)
                    VALUES (p_run, p_scope, p_key, p_token, p_seq, p_value)
                    ON CONFLICT (run_id, scope, res_key) DO UPDATE
                       SET %2$s = EXCLUDED.%2$s, fencing_token = EXCLUDED.fencing_token, op_seq = EXCLUDED.op_seq;
                ELSE
                    UPDATE %1$s SET %2$s = p_value, fencing_token = p_token, op_seq = p_seq
                     WHERE run_id = p_run AND scope = p_scope AND res_key = p_key;
                    IF NOT FOUND THEN
                        RETURN QUERY SELECT 'MISSING'::text, NULL::bigint;
                        RETURN;
                    END IF;
                END IF;
                RETURN QUERY SELECT 'ACCEPTED'::text, %5$s;
            END $fn$
            """;

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement statement = context.getConnection().createStatement()) {
            statement.execute(AUDIT_TRIGGER);
            for (TargetKind kind : TargetKind.BUILT_IN) {
                statement.execute("DROP FUNCTION IF EXISTS " + kind.writeFunction()
                        + "(bigint, text, text, bigint, bigint, boolean, " + kind.valueType() + ")");
                statement.execute(V2__fenced_write_functions.sqlFor(kind));
                statement.execute(BLIND_TEMPLATE.formatted(kind.table(), kind.valueColumn(), kind.valueType(),
                        kind.blindWriteFunction(), REPLACED));
            }
        }
    }
}

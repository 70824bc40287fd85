package io.fencelab.engine.postgres.migration;

import io.fencelab.engine.resource.TargetKind;
import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Creates {@code fenced_write_row}, {@code fenced_write_object} and {@code fenced_write_pointer}
 * from one template, so the three targets can never disagree about what "stale" means. The template
 * is the current one: V3 drops and recreates the functions from it in databases that ran an older V2.
 */
@SuppressWarnings("checkstyle:TypeName") // Flyway reads the version from the class name
public class V2__fenced_write_functions extends BaseJavaMigration {

    /**
     * %1$s table, %2$s value column, %3$s value type, %4$s function name, %5$s the expression for the
     * token an accepted write replaced ({@link V3__writes_report_the_token_they_replaced#REPLACED}).
     *
     * <p>Fast path: the design note's conditional UPDATE, compare and mutate in one statement. When it
     * changes nothing, the row is locked and read (each PL/pgSQL statement sees the latest committed
     * data) to say exactly why: stale (with the highest token), out of order, or missing. A missing
     * row is created only when p_create is set. The loop only repeats if the row changed between the
     * two statements in a way that now allows the write (possible only if an unfenced writer lowered
     * the token) or a concurrent first write created the row.
     */
    static final String TEMPLATE = """
            CREATE FUNCTION %4$s(p_run bigint, p_scope text, p_key text, p_token bigint, p_seq bigint,
                                 p_create boolean, p_value %3$s)
            RETURNS TABLE (outcome text, highest bigint, highest_seq bigint, replaced bigint)
            LANGUAGE plpgsql AS $fn$
            DECLARE
                cur_token bigint;
                cur_seq   bigint;
            BEGIN
                LOOP
                    UPDATE %1$s SET %2$s = p_value, fencing_token = p_token, op_seq = p_seq
                     WHERE run_id = p_run AND scope = p_scope AND res_key = p_key
                       AND (fencing_token < p_token
                            OR (fencing_token = p_token
                                AND (p_seq IS NULL OR op_seq IS NULL OR op_seq < p_seq)));
                    IF FOUND THEN
                        RETURN QUERY SELECT 'ACCEPTED'::text, p_token, p_seq, %5$s;
                        RETURN;
                    END IF;

                    SELECT r.fencing_token, r.op_seq INTO cur_token, cur_seq
                      FROM %1$s r
                     WHERE r.run_id = p_run AND r.scope = p_scope AND r.res_key = p_key
                       FOR UPDATE;
                    IF FOUND THEN
                        IF cur_token > p_token THEN
                            RETURN QUERY SELECT 'STALE'::text, cur_token, cur_seq, NULL::bigint;
                            RETURN;
                        ELSIF cur_token = p_token AND p_seq IS NOT NULL AND cur_seq IS NOT NULL
                              AND cur_seq >= p_seq THEN
                            RETURN QUERY SELECT 'OUT_OF_ORDER'::text, cur_token, cur_seq, NULL::bigint;
                            RETURN;
                        END IF;
                    ELSIF NOT p_create THEN
                        RETURN QUERY SELECT 'MISSING'::text, NULL::bigint, NULL::bigint, NULL::bigint;
                        RETURN;
                    ELSE
                        INSERT INTO %1$s (run_id, scope, res_key, %2$s, fencing_token, op_seq)
                        VALUES (p_run, p_scope, p_key, p_value, p_token, p_seq)
                        ON CONFLICT DO NOTHING;
                        IF FOUND THEN
                            RETURN QUERY SELECT 'ACCEPTED'::text, p_token, p_seq, %5$s;
                            RETURN;
                        END IF;
                    END IF;
                END LOOP;
            END $fn$
            """;

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement statement = context.getConnection().createStatement()) {
            for (TargetKind kind : TargetKind.BUILT_IN) {
                statement.execute(sqlFor(kind));
            }
        }
    }

    static String sqlFor(TargetKind kind) {
        return TEMPLATE.formatted(kind.table(), kind.valueColumn(), kind.valueType(), kind.writeFunction(),
                V3__writes_report_the_token_they_replaced.REPLACED);
    }
}

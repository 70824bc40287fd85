package io.fencelab.engine.fence;

import java.util.List;
import java.util.Objects;

/**
 * A fenced resource the user defines in SQL (a scenario's {@code targets:} entry of {@code kind: SQL}):
 * the statement under test, how its answer reads, and how to read the row back. Its objects live in
 * a scratch schema made for the run ({@link ScratchSchema}), created from {@code schema} DDL or copied
 * from the user's own definitions ({@code copyFrom}).
 *
 * @param name       the name writes refer to ({@code {target: report, key: 17}})
 * @param schema     DDL run in the scratch schema; null when {@code copyFrom} is given
 * @param copyFrom   existing objects to copy: {@code public.report_state} (a table) or
 *                   {@code public.fence_write(bigint, bigint, text)} (a function); empty when {@code schema} is given
 * @param setup      statements run once after the schema (rows before the run); null for none
 * @param write      the write: one statement, or several run in order each in its own transaction
 *                   (check-then-write); every one but the last must return a row for the write to go on
 * @param outcome    how the last statement's answer reads
 * @param read       the read-back: returns columns {@code token} and {@code body} for {@code :key} (and {@code :scope})
 * @param equalToken the rule the user declares for an equal token
 * @param firstWrite whether a write to a key with no row creates it ({@code firstWrite: create}) or not
 */
public record SqlFence(String name, SqlText schema, List<String> copyFrom, SqlText setup, List<SqlText> write,
                       OutcomeRule outcome, SqlText read, EqualToken equalToken, FirstWritePolicy firstWrite) {

    /** The parameters a statement may use; each is bound as text of unknown type, so PostgreSQL infers it. */
    public static final List<String> PARAMETERS = List.of("token", "key", "scope", "body", "seq");

    public SqlFence {
        Objects.requireNonNull(name, "name");
        copyFrom = copyFrom == null ? List.of() : List.copyOf(copyFrom);
        write = List.copyOf(write);
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(read, "read");
        equalToken = equalToken == null ? EqualToken.ACCEPT : equalToken;
        firstWrite = firstWrite == null ? FirstWritePolicy.MISSING : firstWrite;
    }
}

package io.fencelab.services.etcd;

import io.etcd.jetcd.common.exception.EtcdException;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.DatabaseFailure;
import io.grpc.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for one jetcd call within an operation's deadline, and what its failure means to a run: the
 * one place where etcd's errors become {@link DatabaseException}s. jetcd's calls carry no deadline of
 * their own (a frozen server would keep them waiting forever), so every wait here is bounded.
 */
final class EtcdCalls {

    private EtcdCalls() {
    }

    /**
     * The result of {@code call}, waited for until {@code deadlineNanos} ({@link System#nanoTime()}).
     *
     * @param where the server, for a message: {@code etcd at http://127.0.0.1:2379}
     * @param what  the call in words: {@code acquire scope a (txn)}
     * @throws DatabaseException of kind {@code CONNECTION_LOST} when it did not answer in time or the connection failed;
     *                           another kind when etcd refused the call itself
     */
    static <T> T await(CompletableFuture<T> call, long deadlineNanos, String where, String what) {
        long left = deadlineNanos - System.nanoTime();
        try {
            return call.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            call.cancel(true); // jetcd still gets the answer, if any, and drops it
            String reason = where + " did not answer " + what + " in time";
            throw new DatabaseException(DatabaseFailure.CONNECTION_LOST, reason, reason, e);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            String reason = "interrupted while waiting for " + where + " to answer " + what;
            throw new DatabaseException(DatabaseFailure.CONNECTION_LOST, reason, reason, e);
        } catch (ExecutionException e) {
            throw failure(e.getCause() == null ? e : e.getCause(), where, what);
        }
    }

    /** {@code cause} of a failed call as a run takes it. */
    static DatabaseException failure(Throwable cause, String where, String what) {
        Status.Code code = code(cause);
        String reason = where + " failed " + what + ": " + code + " " + firstLine(cause);
        return new DatabaseException(kind(code), reason, reason, cause);
    }

    /** Whether etcd answered that the lease named in the call does not exist (expired or revoked). */
    static boolean leaseNotFound(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // jetcd gives a keep-alive's failure as an EtcdException, a call's as gRPC's StatusRuntimeException
            if (code(t) == Status.Code.NOT_FOUND && String.valueOf(t.getMessage()).contains("lease not found")) {
                return true;
            }
        }
        return false;
    }

    /**
     * gRPC's code of a failure: lost connections and timeouts are UNAVAILABLE, DEADLINE_EXCEEDED or
     * CANCELLED; etcd's own refusals (a missing lease, a full database) have their own.
     */
    static Status.Code code(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof EtcdException e) {
                return Status.Code.valueOf(e.getErrorCode().name());
            }
        }
        return Status.fromThrowable(failure).getCode();
    }

    /** How a run takes a call that failed with {@code code}. */
    static DatabaseFailure kind(Status.Code code) {
        return switch (code) {
            case PERMISSION_DENIED, UNAUTHENTICATED -> DatabaseFailure.PERMISSION_DENIED;
            // etcd says "database space exceeded" or "too many requests" with this code
            case RESOURCE_EXHAUSTED -> DatabaseFailure.OUT_OF_RESOURCES;
            case INTERNAL, DATA_LOSS -> DatabaseFailure.SERVER_ERROR;
            case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE, UNIMPLEMENTED, ALREADY_EXISTS, NOT_FOUND ->
                    DatabaseFailure.REFUSED;
            // UNAVAILABLE (no connection, no leader), DEADLINE_EXCEEDED, CANCELLED, ABORTED, UNKNOWN: the connection
            default -> DatabaseFailure.CONNECTION_LOST;
        };
    }

    private static String firstLine(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root && root.getMessage() == null) {
            root = root.getCause();
        }
        String m = String.valueOf(root.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}

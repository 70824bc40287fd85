package io.fencelab.engine.fence;

/**
 * The user's fence cannot be used as written: a located, one-line message ({@code file:line:column:
 * what is wrong}) for the user, raised before any worker starts. Never carries the user's data.
 */
public final class SqlFenceException extends RuntimeException {

    public SqlFenceException(String message) {
        super(message);
    }
}

package io.fencelab.engine.worker;

/** What a worker does when a resource answers that its token is stale. */
public enum StalePolicy {
    /** Give the job up: another holder has newer authority. */
    ABANDON,
    /** Acquire a new lease (a new token) and redo the job from the start, recomputing its result. */
    REACQUIRE,
    /** Broken: resend the same write with the same token. It can never become current again. */
    BLIND_RETRY
}

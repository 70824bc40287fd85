package io.fencelab.engine.metrics;

/**
 * A holder whose writes a resource refused: {@code staleRejections} (a newer token had written) and
 * {@code outOfOrderRejections} (same token, sequence number not increasing).
 */
public record HolderRejections(String holder, long staleRejections, long outOfOrderRejections) {

    public long total() {
        return staleRejections + outOfOrderRejections;
    }
}

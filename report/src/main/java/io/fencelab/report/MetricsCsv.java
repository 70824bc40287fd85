package io.fencelab.report;

import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.SecondCounts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * metrics.csv: one row per second of run time (quiet seconds included), as RFC 4180 has it: a header
 * row, comma-separated fields, CRLF line ends. Every field is a column name or an integer, so none
 * needs quoting.
 */
public final class MetricsCsv {

    public static final String HEADER = "second,acquisitions,renewals,renewal_failures,stale_rejections,accepted_writes";
    private static final String CRLF = "\r\n";

    private MetricsCsv() {
    }

    public static void write(Path file, List<SecondCounts> perSecond) throws IOException {
        Files.writeString(file, render(perSecond), StandardCharsets.UTF_8);
    }

    public static String render(List<SecondCounts> perSecond) {
        StringBuilder out = new StringBuilder(HEADER.length() + 2 + perSecond.size() * 24);
        out.append(HEADER).append(CRLF);
        for (SecondCounts s : perSecond) {
            EventCounts c = s.counts();
            out.append(s.second()).append(',').append(c.acquisitions()).append(',').append(c.renewals()).append(',')
                    .append(c.renewalFailures()).append(',').append(c.staleRejections()).append(',')
                    .append(c.acceptedWrites()).append(CRLF);
        }
        return out.toString();
    }
}

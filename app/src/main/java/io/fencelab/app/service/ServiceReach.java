package io.fencelab.app.service;

import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether the user's own lease service answers at the address given, asked before a run counts on it:
 * a run on an address nobody answers would otherwise go its whole length with every lease request
 * failing. Only a connection is tried; the service's own client says anything else (a wrong password)
 * at the run's first request. Messages name {@code host:port}, never a password.
 */
public final class ServiceReach {

    /** How long one address may take to accept a connection. */
    static final Duration CONNECT_LIMIT = Duration.ofSeconds(2);

    private ServiceReach() {
    }

    /**
     * Why {@code service} cannot be reached, in one line, or empty: one of its addresses accepts a
     * connection (a client needs only one), or Fencelab starts the server itself, or the leases are
     * PostgreSQL's.
     */
    public static Optional<String> problem(LeaseServiceSpec service) {
        if (!service.real() || service.needsServer()) {
            return Optional.empty();
        }
        List<InetSocketAddress> addresses;
        try {
            addresses = addresses(service.kind(), service.endpoints());
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        String last = "";
        for (InetSocketAddress a : addresses) {
            try (Socket s = new Socket()) {
                s.connect(a, (int) CONNECT_LIMIT.toMillis());
                return Optional.empty();
            } catch (IOException e) {
                last = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            }
        }
        List<String> named = addresses.stream().map(a -> a.getHostString() + ":" + a.getPort()).toList();
        return Optional.of(service.kind().key() + " at " + String.join(", ", named) + " does not answer (" + last
                + "): check the service address, or leave it empty for Fencelab to start a server for the run");
    }

    /**
     * The addresses in {@code endpoints} as {@code kind}'s client reads them: etcd's URLs, ZooKeeper's
     * {@code host:port} list (a chroot after it ignored), one Redis URL.
     *
     * @throws IllegalArgumentException naming what is expected, never repeating the text (it may hold a password)
     */
    static List<InetSocketAddress> addresses(ServiceKind kind, String endpoints) {
        List<InetSocketAddress> out = new ArrayList<>();
        switch (kind) {
            case ETCD -> {
                for (String url : endpoints.split(",")) {
                    out.add(ofUri(url.strip(), 2379, "etcd endpoints are URLs: http://host:2379,http://host2:2379"));
                }
            }
            case ZOOKEEPER -> {
                int chroot = endpoints.indexOf('/');
                for (String hostPort : (chroot < 0 ? endpoints : endpoints.substring(0, chroot)).split(",")) {
                    out.add(ofUri("zk://" + hostPort.strip(), 2181, "a ZooKeeper address is host:2181,host2:2181"));
                }
            }
            case REDIS -> out.add(ofUri(endpoints, 6379, "a Redis address is redis://[:password@]host:6379"));
            case POSTGRES -> throw new IllegalArgumentException("PostgreSQL's leases are the run's own database's");
        }
        return out;
    }

    private static InetSocketAddress ofUri(String text, int defaultPort, String expected) {
        try {
            URI uri = new URI(text);
            if (uri.getHost() == null) {
                throw new IllegalArgumentException(expected);
            }
            return new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? defaultPort : uri.getPort());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(expected);
        }
    }
}

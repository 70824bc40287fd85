package io.fencelab.app.votes;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The address phones in the room can reach this machine at: an IPv4 address of a network interface
 * that is up, a private (site-local) one first, never a loopback one while another exists. Bridges
 * and tunnels of containers, virtual machines and VPNs come last: phones are not on them.
 */
public final class LanAddress {

    /** One address of one interface, as {@link #choose} weighs it. */
    public record Candidate(String interfaceName, InetAddress address, boolean up, boolean loopback,
                            boolean virtual, boolean pointToPoint) {
    }

    private static final List<String> VIRTUAL_PREFIXES = List.of("docker", "br-", "veth", "virbr", "vmnet",
            "vboxnet", "tun", "tap", "wg", "utun", "zt", "tailscale", "lxc", "lxd", "cni", "flannel", "podman");

    private LanAddress() {
    }

    /** This machine's address for the room, or 127.0.0.1 when it has no other. */
    public static InetAddress find() {
        List<Candidate> candidates = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                boolean up = ni.isUp();
                boolean loopback = ni.isLoopback();
                boolean virtual = ni.isVirtual();
                boolean p2p = ni.isPointToPoint();
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    candidates.add(new Candidate(ni.getName(), a, up, loopback, virtual, p2p));
                }
            }
        } catch (SocketException e) {
            // Interfaces cannot be listed: the loopback address below still lets this machine vote.
        }
        return choose(candidates).orElse(InetAddress.getLoopbackAddress());
    }

    /** The best of {@code candidates} for phones in the room, if any is usable at all. */
    public static Optional<InetAddress> choose(List<Candidate> candidates) {
        return candidates.stream()
                .filter(c -> c.up() && c.address() instanceof Inet4Address && !c.address().isAnyLocalAddress()
                        && !c.address().isLinkLocalAddress())
                .min(Comparator.comparingInt(LanAddress::rank))
                .map(Candidate::address);
    }

    /** Lower is better: a real interface's private address, then its public one, then virtual ones, loopback last. */
    private static int rank(Candidate c) {
        if (c.loopback() || c.address().isLoopbackAddress()) {
            return 9;
        }
        String name = c.interfaceName() == null ? "" : c.interfaceName().toLowerCase(Locale.ROOT);
        boolean virtual = c.virtual() || c.pointToPoint() || VIRTUAL_PREFIXES.stream().anyMatch(name::startsWith);
        return (virtual ? 4 : 0) + (c.address().isSiteLocalAddress() ? 0 : 1);
    }
}

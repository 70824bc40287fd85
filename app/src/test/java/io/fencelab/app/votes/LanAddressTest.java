package io.fencelab.app.votes;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LanAddressTest {

    private static LanAddress.Candidate nic(String name, String address, boolean loopback) throws UnknownHostException {
        return new LanAddress.Candidate(name, InetAddress.getByName(address), true, loopback, false, false);
    }

    @Test
    void aRealInterfacesPrivateAddressWinsOverLoopbackContainerBridgesAndIpv6() throws UnknownHostException {
        List<LanAddress.Candidate> all = List.of(
                nic("lo", "127.0.0.1", true),
                nic("docker0", "172.17.0.1", false),
                nic("wlan0", "fe80::1", false),
                nic("wlan0", "2001:db8::5", false),
                nic("wlan0", "192.168.1.23", false));
        assertThat(LanAddress.choose(all)).contains(InetAddress.getByName("192.168.1.23"));
    }

    @Test
    void loopbackOnlyWhenThereIsNothingElseAndInterfacesThatAreDownAreSkipped() throws UnknownHostException {
        LanAddress.Candidate down = new LanAddress.Candidate("eth0", InetAddress.getByName("10.0.0.5"), false, false,
                false, false);
        assertThat(LanAddress.choose(List.of(nic("lo", "127.0.0.1", true), down)))
                .contains(InetAddress.getByName("127.0.0.1"));
        assertThat(LanAddress.choose(List.of())).isEmpty();
    }

    @Test
    void aVpnTunnelComesAfterTheWifi() throws UnknownHostException {
        LanAddress.Candidate vpn = new LanAddress.Candidate("tun0", InetAddress.getByName("10.8.0.2"), true, false,
                false, true);
        assertThat(LanAddress.choose(List.of(vpn, nic("en0", "192.168.0.7", false))))
                .contains(InetAddress.getByName("192.168.0.7"));
    }
}

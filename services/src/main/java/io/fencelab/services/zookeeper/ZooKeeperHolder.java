package io.fencelab.services.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * One holder's ZooKeeper session and the lock nodes it holds: its own {@link CuratorFramework}, whose
 * own threads keep the session alive, and per scope one grant of Curator's one-lease semaphore
 * ({@link InterProcessSemaphoreV2} with one lease, the recipe {@code InterProcessSemaphoreMutex} wraps;
 * unlike {@code InterProcessMutex} it is not bound to the thread that acquired it).
 *
 * <p>The semaphore makes an ephemeral sequential node {@code <scope>/leases/_c_<uuid>-lease-NNNNNNNNNN}
 * holding the holder's name and keeps it only if it is the only one; the oldest lease node is the
 * holder. Calls block on the network: {@link ZooKeeperLeases} bounds them.
 */
final class ZooKeeperHolder implements AutoCloseable {

    /** A lock node: its path, the holder named in it, and its czxid, sequence and session. */
    record LockNode(String path, String holder, long czxid, long sequence, long session) {
    }

    /** A granted lease: the semaphore lease that deletes the node, and the node. */
    record Grant(Lease lease, LockNode node) {
    }

    private static final Comparator<String> BY_SEQUENCE = Comparator.comparingLong(ZooKeeperHolder::sequence);

    private final String name;
    private final CuratorFramework client;
    private final Map<String, Grant> grants = new ConcurrentHashMap<>();

    private ZooKeeperHolder(String name, CuratorFramework client) {
        this.name = name;
        this.client = client;
    }

    /**
     * Opens {@code name}'s session on {@code connectString} and waits up to {@code connectLimit} for it.
     *
     * @return empty if it did not connect in time (its client is closed)
     */
    static Optional<ZooKeeperHolder> open(String name, String connectString, Duration sessionTimeout,
                                          Duration connectLimit) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(Math.toIntExact(sessionTimeout.toMillis()))
                // Curator wants the connection timeout no longer than the session's
                .connectionTimeoutMs(Math.toIntExact(Math.min(connectLimit.toMillis(), sessionTimeout.toMillis())))
                // one retry, 100 ms later: an operation fails within about two connection timeouts
                .retryPolicy(new RetryNTimes(1, 100)).build();
        client.start();
        if (!client.blockUntilConnected(Math.toIntExact(connectLimit.toMillis()), TimeUnit.MILLISECONDS)) {
            client.close();
            return Optional.empty();
        }
        return Optional.of(new ZooKeeperHolder(name, client));
    }

    String name() {
        return name;
    }

    Optional<Grant> grant(String scope) {
        return Optional.ofNullable(grants.get(scope));
    }

    void forget(String scope) {
        grants.remove(scope);
    }

    /** The session timeout the server agreed to (it may clamp what was asked to its limits). */
    Duration negotiatedTimeout() {
        return Duration.ofMillis(client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
    }

    /** The id of this holder's current session (a new one once an expired session was replaced). */
    long sessionId() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    /**
     * Makes {@code scopePath/leases} a persistent node if it is not there. Curator would make it a
     * container node, which the server deletes once it has been empty for a check interval; its
     * children's sequence numbers would then start again at 0.
     */
    void ensureParent(String leasesPath) throws Exception {
        if (client.checkExists().forPath(leasesPath) == null) {
            try {
                client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(leasesPath);
            } catch (KeeperException.NodeExistsException e) {
                // another holder made it first
            }
        }
    }

    /** The oldest lock node under {@code leasesPath}: the holder's; empty if nobody holds it. */
    Optional<LockNode> owner(String leasesPath) throws Exception {
        List<String> children;
        try {
            children = client.getChildren().forPath(leasesPath).stream().sorted(BY_SEQUENCE).toList();
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
        for (String child : children) {
            Optional<LockNode> node = read(ZKPaths.makePath(leasesPath, child));
            if (node.isPresent()) {
                return node;
            }
        }
        return Optional.empty();
    }

    /** The lock node at {@code path} as it is now; empty if it is gone. */
    Optional<LockNode> read(String path) throws Exception {
        Stat stat = new Stat();
        try {
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            String holder = data == null ? "" : new String(data, StandardCharsets.UTF_8);
            return Optional.of(new LockNode(path, holder, stat.getCzxid(), sequence(path), stat.getEphemeralOwner()));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    /**
     * Tries the one-lease semaphore on {@code scopePath}, waiting at most {@code wait} (only for the
     * semaphore's own short internal lock, which another acquiring holder may have for a moment).
     *
     * @return the grant, or empty if another holder has the lease
     */
    Optional<Grant> tryAcquire(String scopePath, Duration wait) throws Exception {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, scopePath, 1);
        semaphore.setNodeData(name.getBytes(StandardCharsets.UTF_8));
        Lease lease = semaphore.acquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        if (lease == null) {
            return Optional.empty();
        }
        Optional<LockNode> node = read(ZKPaths.makePath(scopePath, "leases", lease.getNodeName()));
        if (node.isEmpty()) {
            return Optional.empty(); // the session ended in between: the node went with it
        }
        return Optional.of(new Grant(lease, node.get()));
    }

    /**
     * Notes {@code grant} as this holder's, once its caller has it: a grant made by a call that ran out of
     * time is never noted, and its node is deleted as an orphan at the holder's next acquire.
     */
    void keep(String scope, Grant grant) {
        grants.put(scope, grant);
    }

    /** Whether {@code node} still exists as this holder's, in its current session. */
    boolean stillHolds(LockNode node) throws Exception {
        Stat stat = client.checkExists().forPath(node.path());
        return stat != null && stat.getCzxid() == node.czxid() && stat.getEphemeralOwner() == sessionId();
    }

    /** Deletes a lock node of this holder's that it no longer tracks (left by a call that was abandoned). */
    void deleteOrphan(LockNode node) throws Exception {
        try {
            client.delete().withVersion(-1).forPath(node.path());
        } catch (KeeperException.NoNodeException e) {
            // gone already
        }
    }

    /** Deletes the run's tree (every scope's nodes) from the server. */
    void deleteTree(String path) throws Exception {
        client.delete().quietly().deletingChildrenIfNeeded().forPath(path);
    }

    /** A lock node's sequence number: the ten digits ZooKeeper appended to its name. */
    static long sequence(String path) {
        String digits = path.substring(Math.max(0, path.length() - 10));
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // not a sequential node: sorts last, never an owner before a real one
        }
    }

    /** Ends the session: the server deletes its ephemeral lock nodes at once. */
    @Override
    public void close() {
        client.close();
    }
}

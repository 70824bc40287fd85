#!/bin/sh
# restart-postgres.sh DATADIR LOG: restarts the PostgreSQL serving DATADIR as an operator's script
# would: a fast shutdown (SIGINT to the postmaster), then the same command line again
# (postmaster.opts), in the background. Fencelab waits until the server answers.
set -eu
data="$1"
log="$2"
pid=$(head -n 1 "$data/postmaster.pid")
opts=$(cat "$data/postmaster.opts")
kill -INT "$pid"
while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
echo "stopped $pid"
# PostgreSQL refuses to run as root; as root, start it as the embedded launcher does: in a user
# namespace, where it is not root.
userns=""
[ "$(id -u)" = 0 ] && userns="unshare -U"
eval "nohup $userns $opts" >"$log" 2>&1 </dev/null &
echo "started $!"

#!/bin/sh
# retry-refused COMMAND [ARGS...]: runs a client tool again while it fails only because its server
# is not listening yet (rdma-core's and perftest's "Couldn't connect to", or an RDMA CM reject),
# at most RETRY_TRIES times (default 120), RETRY_PAUSE seconds apart (default 1). Such a failure
# happens before anything reached the server, so trying again is safe. Output streams through.
tries=${RETRY_TRIES:-120}
pause=${RETRY_PAUSE:-1}
n=1
while :; do
    rm -f /tmp/retry-refused.rc
    { "$@"; echo $? > /tmp/retry-refused.rc; } 2>&1 | tee /tmp/retry-refused.out
    rc=$(cat /tmp/retry-refused.rc)
    [ "$rc" -ne 0 ] || exit 0
    grep -q -e "Couldn't connect to" -e 'Unable to connect' -e 'RDMA_CM_EVENT_REJECTED' \
        /tmp/retry-refused.out || exit "$rc"
    [ "$n" -lt "$tries" ] || { echo "retry-refused: still refused after $n tries"; exit "$rc"; }
    n=$(( n + 1 ))
    echo "retry-refused: the server is not listening yet; try $n of $tries"
    sleep "$pause"
done

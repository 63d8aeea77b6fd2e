#!/bin/sh
# /init of the rxe guest (busybox): loads the modules, takes the network settings the container
# passed on the kernel command line (rxe.ip4, rxe.gw4, rxe.ip6, rxe.gw6, rxe.mtu, rxe.timeout and
# the command as rxe.cmd, base64), adds rxe0 on eth0, runs the command, prints its exit status on
# the console and powers off. With rxe.keep=1 it runs no command of its own: it reads commands
# from its second serial port (ttyS1) until the container stops it or rxe.timeout seconds have
# passed. Markers: see entrypoint.sh.
export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts

finish() { # STATUS: print the marker, power off (QEMU then exits)
    echo "RXE-PEER-EXIT $1"
    sync
    poweroff -f
    sleep 10
}
fail() { echo "RXE-PEER-ERROR $*"; finish 125; }

# wait_for SECONDS CONDITION...: polls a condition every 0.1 s; false when it never held.
wait_for() {
    n=$(( $1 * 10 )); shift
    while ! "$@"; do
        n=$(( n - 1 )); [ "$n" -gt 0 ] || return 1
        sleep 0.1
    done
}

kver=$(cat /etc/rxe-kernel)
while read -r module; do
    insmod "/lib/modules/$kver/$module" || fail "cannot load $module"
done < /etc/rxe-modules
grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs configfs /sys/kernel/config

ip4='' gw4='' ip6='' gw6='' mtu=1500 timeout=0 cmd64='' keep=0
# shellcheck disable=SC2013 # the command line is a list of words
for word in $(cat /proc/cmdline); do
    case $word in
        rxe.ip4=*) ip4=${word#*=} ;;
        rxe.gw4=*) gw4=${word#*=} ;;
        rxe.ip6=*) ip6=${word#*=} ;;
        rxe.gw6=*) gw6=${word#*=} ;;
        rxe.mtu=*) mtu=${word#*=} ;;
        rxe.timeout=*) timeout=${word#*=} ;;
        rxe.cmd=*) cmd64=${word#*=} ;;
        rxe.keep=*) keep=${word#*=} ;;
    esac
done
# Busybox's sh runs its own applets before anything on PATH: iproute2's ip is called as /bin/ip.
# --- network: the container's addresses, no duplicate address detection (the container gave
# its addresses up), no autoconfiguration (only the addresses we were given) ------------------
/bin/ip link set lo up
wait_for 10 test -e /sys/class/net/eth0 || fail "no eth0 (virtio_net)"
for opt in accept_dad=0 autoconf=0 accept_ra=0 dad_transmits=0; do
    echo "${opt#*=}" > "/proc/sys/net/ipv6/conf/eth0/${opt%=*}"
done
/bin/ip link set dev eth0 mtu "$mtu" || fail "cannot set MTU $mtu"
/bin/ip link set dev eth0 up
/bin/ip addr add "$ip4" dev eth0 || fail "cannot add $ip4"
[ -z "$gw4" ] || /bin/ip route add default via "$gw4" dev eth0
if [ -n "$ip6" ]; then
    /bin/ip -6 addr add "$ip6" dev eth0 nodad || fail "cannot add $ip6"
    [ -z "$gw6" ] || /bin/ip -6 route add default via "$gw6" dev eth0
fi
has_link_local() { /bin/ip -6 addr show dev eth0 scope link | grep -q 'inet6 fe80'; }
wait_for 10 has_link_local || fail "eth0 got no IPv6 link-local address"

# --- rxe -----------------------------------------------------------------------------------
rdma link add rxe0 type rxe netdev eth0 || fail "rdma link add rxe0 type rxe netdev eth0 failed"
gids=/sys/class/infiniband/rxe0/ports/1/gids
zero=0000:0000:0000:0000:0000:0000:0000:0000
# The GID table fills in the background: wait for the IPv4 entry (and the global IPv6 one).
gid_set() { [ -r "$gids/$1" ] && [ "$(cat "$gids/$1")" != "$zero" ]; }
wait_for 10 gid_set 1 || fail "rxe0 has no IPv4 GID"
[ -z "$ip6" ] || wait_for 10 gid_set 2 || fail "rxe0 has no GID for $ip6"
i=0
while gid_set $i; do
    echo "RXE-PEER-GID $i $(cat "$gids/$i")"
    i=$(( i + 1 ))
done
echo "RXE-PEER-READY"

cd /root || fail "no /root"
# In the command too, "ip" is iproute2's (a shell function goes before busybox's applet).
prelude='ip() { /bin/ip "$@"; }
'
if [ "$keep" = 1 ]; then
    # A kept guest: each line on ttyS1 is "<id> <command, base64>"; the command runs in the
    # background (several may run at once), its output on the console between
    # RXE-PEER-START <id> and RXE-PEER-DONE <id> <status>. Nothing is written back to ttyS1.
    if [ "$timeout" -gt 0 ]; then
        ( sleep "$timeout"; echo "RXE-PEER-ERROR the kept guest reached its lifetime of $timeout s"; finish 124 ) &
    fi
    stty -F /dev/ttyS1 raw -echo || fail "no second serial port for commands"
    exec 3< /dev/ttyS1
    while read -r id line <&3; do
        case $id in *[!0-9]*|'') echo "rxe-peer: ignored an unreadable command line on ttyS1"; continue ;; esac
        (
            c=$(echo "$line" | base64 -d) || { echo "RXE-PEER-DONE $id 125"; exit; }
            echo "RXE-PEER-START $id"
            sh -c "$prelude$c" < /dev/null
            echo "RXE-PEER-DONE $id $?"
        ) &
    done
    fail "the command port ttyS1 closed"
fi

cmd=$(echo "$cmd64" | base64 -d) || fail "cannot decode the command"
if [ "$timeout" -gt 0 ]; then
    timeout -s KILL "$timeout" sh -c "$prelude$cmd"
else
    sh -c "$prelude$cmd"
fi
finish $?

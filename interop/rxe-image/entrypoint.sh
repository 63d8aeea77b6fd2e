#!/bin/sh
# Entrypoint of jroce/rxe-peer: boots a QEMU guest (TCG) with Soft-RoCE and runs one command in it.
#
#   docker run --rm --cap-add NET_ADMIN --device /dev/net/tun jroce/rxe-peer:TAG ibv_rc_pingpong -g 1
#
# The container hands its network identity to the guest: eth0 and a tap device are bridged, the
# guest's NIC takes eth0's MAC address, IPv4 address, IPv6 addresses (link-local by the same MAC,
# global if the network has one), routes and MTU, so that the guest answers at the container's
# address. In the guest, "rdma link add rxe0 type rxe netdev eth0" runs, then the command (all
# arguments, joined by spaces, given to sh -c). The serial console is this container's output:
#   RXE-PEER-GID <index> <gid>   the GID table of rxe0 (0: fe80:: link-local, 1: IPv4, 2..: IPv6)
#   RXE-PEER-READY               rxe0 is up; the command's output follows
#   RXE-PEER-EXIT <status>       the command ended with that status; the guest powers off
#   RXE-PEER-ERROR <text>        the guest could not be set up (followed by RXE-PEER-EXIT 125)
# The container's exit status is the command's. Environment: RXE_MEM (guest MiB, default 320),
# RXE_MTU (guest MTU, default eth0's; with a 9000-byte MTU rxe allows path MTU 4096),
# RXE_TIMEOUT (seconds; the command is killed after it, default none).
#
# RXE_KEEP=1 keeps the guest: it runs no command of its own (the arguments are ignored) but each
# one given to /rxe/guest-run (docker exec CONTAINER /rxe/guest-run ID COMMAND...), in the
# background, printing
#   RXE-PEER-START <id>          before the command's output
#   RXE-PEER-DONE <id> <status>  after it, with its exit status
# until the container is stopped or RXE_TIMEOUT seconds have passed (then RXE-PEER-ERROR and
# RXE-PEER-EXIT 124). Files under /rxe/guest/ when the container starts (docker cp, or
# Testcontainers' copy-to-container) appear in the guest at the same path below / (for example
# /rxe/guest/usr/local/bin/my_peer as /usr/local/bin/my_peer).
set -eu

say() { echo "rxe-peer: $*"; }
fail() { say "$*"; echo "RXE-PEER-ERROR $*"; echo "RXE-PEER-EXIT 125"; exit 125; }

[ $# -gt 0 ] || set -- ibv_devinfo
cmd=$*
keep=${RXE_KEEP:-0}
[ "$keep" = 1 ] && cmd='(kept guest: commands through /rxe/guest-run)'

[ -e /sys/class/net/eth0 ] || fail "no eth0 in the container (run it on a Docker network)"
[ -c /dev/net/tun ] || fail "no /dev/net/tun (docker run --device /dev/net/tun)"

# Busybox's sh runs its own applets before anything on PATH: iproute2's ip is called as /bin/ip.
# --- what the container owns ---------------------------------------------------------------
mac=$(cat /sys/class/net/eth0/address)
mtu=${RXE_MTU:-$(cat /sys/class/net/eth0/mtu)}
ip4=$(/bin/ip -4 -o addr show dev eth0 scope global | awk '{ print $4; exit }')
gw4=$(/bin/ip -4 route show default | awk '{ print $3; exit }')
ip6=$(/bin/ip -6 -o addr show dev eth0 scope global | awk '{ print $4; exit }')
gw6=$(/bin/ip -6 route show default | awk '{ print $3; exit }')
[ -n "$ip4" ] || fail "eth0 has no IPv4 address"

# --- hand it to the guest ------------------------------------------------------------------
# eth0 becomes a bridge port under another MAC, so that the bridge forwards frames for the
# original MAC to the tap (a port's own MAC would be delivered to the container instead).
first=${mac%%:*}
rest=${mac#*:}
port_mac=$(printf '%02x' $(( 0x$first ^ 0x04 ))):$rest
/bin/ip tuntap add dev tap0 mode tap || fail "cannot create tap0 (docker run --cap-add NET_ADMIN)"
/bin/ip link add br0 type bridge
for dev in br0 tap0 eth0; do
    /bin/ip link set dev "$dev" addrgenmode none 2>/dev/null || true
done
/bin/ip addr flush dev eth0
/bin/ip link set dev eth0 address "$port_mac"
/bin/ip link set dev br0 address "$port_mac"
for dev in eth0 tap0 br0; do /bin/ip link set dev "$dev" mtu "$mtu"; done
/bin/ip link set dev eth0 master br0
/bin/ip link set dev tap0 master br0
for dev in tap0 br0; do /bin/ip link set dev "$dev" up; done

args="rxe.ip4=$ip4"
[ -z "$gw4" ] || args="$args rxe.gw4=$gw4"
[ -z "$ip6" ] || args="$args rxe.ip6=$ip6"
[ -z "$gw6" ] || args="$args rxe.gw6=$gw6"
args="$args rxe.mtu=$mtu rxe.timeout=${RXE_TIMEOUT:-0}"
serial2=''
if [ "$keep" = 1 ]; then
    # The guest's ttyS1 reads what /rxe/guest-run writes into the FIFO /run/rxe/cmd.in.
    mkdir -p /run/rxe
    mkfifo /run/rxe/cmd.in /run/rxe/cmd.out
    serial2='-serial pipe:/run/rxe/cmd'
    args="$args rxe.keep=1"
else
    cmd64=$(printf '%s' "$cmd" | base64 | tr -d '\n')
    [ ${#cmd64} -le 1400 ] || fail "the command is too long for the kernel command line (${#cmd64} base64 characters, at most 1400)"
    args="$args rxe.cmd=$cmd64"
fi
initrd=/rxe/initrd.cpio
if [ -n "$(ls -A /rxe/guest 2>/dev/null)" ]; then
    # The kernel unpacks concatenated cpio archives in turn: the second adds the user's files.
    initrd=/tmp/initrd.cpio
    { cat /rxe/initrd.cpio; (cd /rxe/guest && find . | sort | cpio -o -H newc 2>/dev/null); } > "$initrd"
    say "guest files: $(cd /rxe/guest && find . -type f | sed 's|^\.||' | tr '\n' ' ')"
fi
say "guest: $ip4${ip6:+ $ip6} mac $mac mtu $mtu; command: $cmd"

# quiet + loglevel: only the guest's own lines reach the console; panic=-1 with -no-reboot makes
# QEMU exit on a kernel panic instead of hanging. event_idx=off: with virtio's event index the
# guest's transmits stopped for good now and then (13 times, after 5 to 263 ping-pong runs of 1000
# round trips: nothing left eth0 any more, a ping of the host included); with the older
# notification flags, none in 1,200 runs. docs/interop-lab.md, "When a run against rxe stalls".
qemu-system-x86_64 -nodefaults -no-user-config -machine pc,accel=tcg -smp 1 \
    -m "${RXE_MEM:-320}" -display none -vga none -serial stdio -monitor none -no-reboot \
    -kernel /rxe/kernel -initrd "$initrd" $serial2 \
    -append "console=ttyS0 quiet loglevel=2 panic=-1 $args" \
    -netdev tap,id=n0,ifname=tap0,script=no,downscript=no \
    -device virtio-net-pci,netdev=n0,mac="$mac",romfile=,event_idx=off \
    2>&1 | tr -d '\r' | tee /tmp/console.log

status=$(sed -n 's/^RXE-PEER-EXIT \([0-9][0-9]*\).*/\1/p' /tmp/console.log | tail -n 1)
[ -n "$status" ] || { say "the guest stopped without reporting an exit status"; exit 125; }
exit "$status"

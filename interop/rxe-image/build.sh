#!/usr/bin/env bash
# Builds the local Docker image jroce/rxe-peer:<hash>: a QEMU guest running Debian's kernel with
# Soft-RoCE (rdma_rxe) and rdma-core's tools, wrapped in a container that hands its own network
# address to the guest. Everything comes from Debian packages, fetched at build time through the
# apt sources configured on this machine; nothing is downloaded from anywhere else.
#
#   interop/rxe-image/build.sh             build the image unless it exists; prints its name last
#   interop/rxe-image/build.sh --tag       print the image name only (no Docker, no build)
#   interop/rxe-image/build.sh --force     rebuild even if the image exists
#   interop/rxe-image/build.sh --rootfs DIR  write the image's file system to DIR, no Docker (the
#                                          Dockerfile route runs this in a Debian build stage)
#
# The tag is a hash of the files in this directory and below (what RxePeer computes too), so the
# image is rebuilt exactly when one of them changed. Package downloads are cached in $JROCE_RXE_CACHE
# (default /var/cache/jroce/rxe-peer); older jroce/rxe-peer tags are removed after a build.
# Needs: root (or rights to docker and the cache), apt-get, dpkg-deb, ldconfig, a Docker engine
# (not for --rootfs).
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
repo=jroce/rxe-peer

# The image tag: sha256 over "<sha256 of file>  <path>" lines (sha256sum's format) of every file
# in this directory and below except Markdown, the path relative to this directory (peer/x.c),
# sorted, cut to 12 hex digits. RxePeer mirrors this.
image_tag() {
    (cd "$here" && find . -type f ! -name '*.md' -printf '%P\n' | sort \
        | while IFS= read -r f; do sha256sum "$f"; done) | sha256sum | cut -c1-12
}
image="$repo:$(image_tag)"

force=false
rootfs_out=''
case "${1:-}" in
    --tag) echo "$image"; exit 0 ;;
    --force) force=true ;;
    --rootfs) [ -n "${2:-}" ] || { echo "usage: $0 --rootfs DIR" >&2; exit 2; }; rootfs_out=$2; force=true ;;
    "") ;;
    *) echo "usage: $0 [--tag|--force|--rootfs DIR]" >&2; exit 2 ;;
esac

say() { echo "rxe-image: $*" >&2; }
die() { say "$*"; exit 1; }
trap 'say "failed: line $LINENO: $BASH_COMMAND"' ERR

tools="apt-get apt-cache dpkg-deb ldconfig tar sha256sum"
[ -n "$rootfs_out" ] || tools="$tools docker"
for tool in $tools; do
    command -v "$tool" >/dev/null 2>&1 || die "missing tool: $tool"
done
[ -n "$rootfs_out" ] || docker info >/dev/null 2>&1 || die "no Docker engine answers (start dockerd, see docs/interop-lab.md)"

if ! $force && docker image inspect "$image" >/dev/null 2>&1; then
    say "$image is up to date"
    echo "$image"
    exit 0
fi

cache=${JROCE_RXE_CACHE:-/var/cache/jroce/rxe-peer}
mkdir -p "$cache"
# One build at a time per cache (a second caller waits, then finds the image built).
if command -v flock >/dev/null 2>&1; then
    exec 9>"$cache/.lock"
    flock 9
    if [ -z "$rootfs_out" ] && ! $force && docker image inspect "$image" >/dev/null 2>&1; then
        say "$image was built meanwhile"; echo "$image"; exit 0
    fi
fi
start=$(date +%s)

# --- 1. packages -------------------------------------------------------------------------
# apt with a private state: its own package lists (from this machine's configured sources and
# keys) and an empty dpkg status, so that "install --download-only" fetches the whole dependency
# closure without touching the host's package database.
apt_dir="$cache/apt"
mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial"
: > "$apt_dir/status"
apt_opts=(-o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/status"
          -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=true -o APT::Sandbox::User=root
          -o Acquire::Retries=3 -q)
say "updating the package lists (apt sources of this machine)"
apt-get "${apt_opts[@]}" update >"$cache/apt-update.log" 2>&1 || { cat "$cache/apt-update.log" >&2; die "apt-get update failed"; }

# Userspace of the container (QEMU, iproute2, busybox) and of the guest (rdma-core tools); xz
# unpacks the kernel at build time; the -dev packages' headers go into the image's /rxe/sysroot,
# against which programs for the guest are compiled on the host (see docs/interop-lab.md).
user_pkgs=(busybox-static iproute2 qemu-system-x86 ibverbs-providers ibverbs-utils perftest rdmacm-utils xz-utils
           libibverbs-dev librdmacm-dev libgcc-s1)
say "downloading ${user_pkgs[*]} and their dependencies"
apt-get "${apt_opts[@]}" install -y --download-only --no-install-recommends "${user_pkgs[@]}" \
    >"$cache/apt-download.log" 2>&1 || { cat "$cache/apt-download.log" >&2; die "download failed"; }

# The kernel: linux-image-amd64 is a metapackage naming the current linux-image-<abi>-amd64.
kernel_pkg=$(apt-cache "${apt_opts[@]}" depends linux-image-amd64 \
    | awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }')
[ -n "$kernel_pkg" ] || die "cannot tell which kernel package linux-image-amd64 names"
kernel_dir="$cache/kernel"
mkdir -p "$kernel_dir"
if ! ls "$kernel_dir/${kernel_pkg}"_*.deb >/dev/null 2>&1; then
    say "downloading $kernel_pkg"
    rm -f "$kernel_dir"/*.deb
    (cd "$kernel_dir" && apt-get "${apt_opts[@]}" download "$kernel_pkg" >"$cache/apt-kernel.log" 2>&1) \
        || { cat "$cache/apt-kernel.log" >&2; die "download of $kernel_pkg failed"; }
fi
kernel_deb=$(find "$kernel_dir" -maxdepth 1 -name "${kernel_pkg}_*.deb" | sort | tail -n 1)

# --- 2. unpack -----------------------------------------------------------------------------
work="$cache/work"
rm -rf "$work"
stage="$work/stage"      # every userspace package, unpacked side by side (no maintainer scripts)
kstage="$work/kernel"    # the kernel package
rootfs="$work/rootfs"    # the container's file system
initrd="$work/initrd"    # the guest's initramfs
mkdir -p "$stage" "$kstage" "$rootfs" "$initrd"

# The archive directory keeps older versions too: unpack exactly the versions apt would install
# now, named as apt stores them (name_version_arch.deb, the epoch's colon as %3a).
debs=()
while IFS= read -r f; do
    debs+=("$apt_dir/cache/archives/$f")
done < <(apt-get "${apt_opts[@]}" install -s -y --no-install-recommends "${user_pkgs[@]}" 2>/dev/null \
           | awk '$1 == "Inst" { v = $3; sub(/^\(/, "", v); gsub(/:/, "%3a", v)
                                 match($0, /\[[a-z0-9-]+\]/); a = substr($0, RSTART + 1, RLENGTH - 2)
                                 print $2 "_" v "_" a ".deb" }')
[ "${#debs[@]}" -gt 0 ] || die "apt lists no package files"
say "unpacking ${#debs[@]} packages and the kernel"
versions="$work/versions.txt"
: > "$versions"
for deb in "${debs[@]}" "$kernel_deb"; do
    [ -f "$deb" ] || die "missing package file $deb"
    echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >> "$versions"
done
for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$stage"; done
dpkg-deb -x "$kernel_deb" "$kstage"
sort -o "$versions" "$versions"

pkg_deb() { # the unpacked .deb file of one package
    local d
    for d in "${debs[@]}"; do
        case "${d##*/}" in "$1"_*) echo "$d"; return 0 ;; esac
    done
    die "package $1 not among the downloads"
}
pkg_files() { # files (not directories) of one package under the given path prefixes
    local deb
    deb=$(pkg_deb "$1"); shift
    local prefix
    for prefix in "$@"; do
        dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./||' | grep "^$prefix" | grep -v '/$' || true
    done
}

# --- 3. copying programs with their shared libraries ---------------------------------------
loader="$stage/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
libpath="$stage/lib/x86_64-linux-gnu:$stage/usr/lib/x86_64-linux-gnu"
[ -x "$loader" ] || die "no dynamic loader in the unpacked libc6"

# copy_in DEST PATH...: copies each staged file (PATH relative to the stage) into DEST with the
# same path, with every shared library it needs (as the staged loader resolves them).
copy_in() {
    local dest=$1 rel lib
    shift
    for rel in "$@"; do
        install -D -m "$(stat -L -c %a "$stage/$rel")" "$stage/$rel" "$dest/$rel"
        if file_is_dynamic "$stage/$rel"; then
            while IFS= read -r lib; do
                case "$lib" in
                    "$stage"/*) ;;
                    *) die "$rel needs $lib, which is not in the downloaded packages" ;;
                esac
                rel_lib=${lib#"$stage"/}
                [ -e "$dest/$rel_lib" ] || install -D -m 0755 "$lib" "$dest/$rel_lib"
            done < <(resolve_libs "$stage/$rel")
        fi
    done
    mkdir -p "$dest/lib64"
    ln -sfn /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$dest/lib64/ld-linux-x86-64.so.2"
}
file_is_dynamic() {
    # ELF with a PT_INTERP or a dynamic section: the loader's --list answers for those only.
    "$loader" --library-path "$libpath" --list "$1" >/dev/null 2>&1
}
# The loader resolves symlinks to real files (libfoo.so.1 -> libfoo.so.1.2.3); programs ask for
# the soname, so copy_in keeps the soname path: resolve_libs prints the soname path, and install
# copies the target's content to it.
resolve_libs() {
    "$loader" --library-path "$libpath" --list "$1" | awk '
        $2 == "=>" && $3 ~ /^\// { print $3; next }
        $2 == "=>" && $3 == "not" { print "/missing/" $1; next }
        $1 ~ /^\// && $2 ~ /^\(/ { print $1 }'
}

finish_libs() { # DEST: loader cache, so that both lib directories are searched
    mkdir -p "$1/etc"
    printf '/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n' > "$1/etc/ld.so.conf"
    ldconfig -r "$1"
}

busybox_links() { # DEST: /bin/<applet> -> busybox, for applets no other program provides
    local dest=$1 applet
    install -D -m 0755 "$stage/bin/busybox" "$dest/bin/busybox"
    for applet in $("$stage/bin/busybox" --list); do
        [ -e "$dest/bin/$applet" ] || [ -e "$dest/sbin/$applet" ] || [ -e "$dest/usr/bin/$applet" ] \
            || [ -e "$dest/usr/sbin/$applet" ] || ln -s busybox "$dest/bin/$applet"
    done
}

# --- 4. the guest's initramfs ----------------------------------------------------------------
kver=$(ls "$kstage/lib/modules")
[ "$(echo "$kver" | wc -l)" = 1 ] || die "expected one kernel in $kernel_deb, found: $kver"
say "guest: kernel $kver, rdma-core tools"

# Modules in load order: the virtio NIC, CRC32 (rxe's ICRC; without crc32_generic rdma link add
# fails), the RDMA core, rxe, then RDMA CM (rping, ucmatose, rdma_server).
modules="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci failover net_failover
         virtio_net crc32_generic ib_core ib_uverbs udp_tunnel ip6_udp_tunnel rdma_rxe
         configfs iw_cm ib_cm rdma_cm rdma_ucm"
mkdir -p "$initrd/lib/modules/$kver" "$initrd/etc"
: > "$initrd/etc/rxe-modules"
for m in $modules; do
    src=$(find "$kstage/lib/modules/$kver" -name "$m.ko" -o -name "$m.ko.xz" | head -1)
    if [ -z "$src" ]; then
        if grep -q "/$m.ko\$" "$kstage/lib/modules/$kver/modules.builtin"; then
            continue
        fi
        die "module $m is neither in $kernel_pkg nor built in"
    fi
    rel=${src#"$kstage/lib/modules/$kver/"}
    install -D -m 0644 "$src" "$initrd/lib/modules/$kver/$rel"
    case "$rel" in *.xz) xz -d "$initrd/lib/modules/$kver/$rel"; rel=${rel%.xz} ;; esac
    echo "$rel" >> "$initrd/etc/rxe-modules"
done
cp "$kstage/lib/modules/$kver/modules.builtin" "$kstage/lib/modules/$kver/modules.order" "$initrd/lib/modules/$kver/" 2>/dev/null || true
"$stage/bin/busybox" depmod -b "$initrd" "$kver"

guest_programs=(bin/ip usr/bin/rdma)
mapfile -t -O "${#guest_programs[@]}" guest_programs < <(
    pkg_files ibverbs-utils usr/bin/; pkg_files perftest usr/bin/; pkg_files rdmacm-utils usr/bin/)
# libibverbs loads its providers by name: only rxe's is needed.
guest_programs+=(usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so)
# glibc loads libgcc_s when a thread is cancelled or exits (rping cancels its CQ thread): no
# program links it, so the loader's list does not name it.
mapfile -t -O "${#guest_programs[@]}" guest_programs < <(pkg_files libgcc-s1 lib/ usr/lib/ | grep 'libgcc_s\.so')
copy_in "$initrd" "${guest_programs[@]}"
install -D -m 0644 "$stage/etc/libibverbs.d/rxe.driver" "$initrd/etc/libibverbs.d/rxe.driver"
busybox_links "$initrd"
finish_libs "$initrd"
install -m 0755 "$here/guest-init.sh" "$initrd/init"
install -D -m 0755 "$here/retry-refused.sh" "$initrd/usr/bin/retry-refused"
echo "$kver" > "$initrd/etc/rxe-kernel"
mkdir -p "$initrd"/{proc,sys,dev,tmp,run,root}
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$initrd/etc/passwd"
printf 'root:x:0:\n' > "$initrd/etc/group"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$initrd/etc/hosts"
cp "$versions" "$initrd/etc/rxe-versions"

# --- 5. the container's file system ----------------------------------------------------------
say "container: QEMU (TCG), iproute2, busybox"
copy_in "$rootfs" usr/bin/qemu-system-x86_64 usr/lib/x86_64-linux-gnu/qemu/accel-tcg-x86_64.so bin/ip
# Firmware for "-machine pc -kernel": SeaBIOS and the option ROM that starts the kernel (pvh.bin
# for an ELF vmlinux, linuxboot_dma.bin for a bzImage).
for f in usr/share/seabios/bios-256k.bin usr/share/qemu/pvh.bin usr/share/qemu/linuxboot_dma.bin \
         usr/share/qemu/kvmvapic.bin; do
    install -D -m 0644 "$(readlink -f "$stage/$f")" "$rootfs/$f"
done
busybox_links "$rootfs"
finish_libs "$rootfs"
mkdir -p "$rootfs"/{tmp,rxe,rxe/guest,proc,sys,dev,etc,run}
chmod 1777 "$rootfs/tmp"
# The kernel, unpacked: under TCG a bzImage spends seconds unpacking itself at every boot, while
# QEMU loads an ELF vmlinux with a PVH entry point directly (CONFIG_PVH). The vmlinux is the
# first xz stream inside the bzImage.
vmlinuz="$kstage/boot/vmlinuz-$kver"
if grep -q '^CONFIG_PVH=y' "$kstage/boot/config-$kver"; then
    offset=$(grep -m 1 -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -n 1 | cut -d: -f1 || true)
    [ -n "$offset" ] || die "no xz stream in $vmlinuz"
    # (xz stops reading after the stream: tail's broken pipe is expected)
    { tail -c +"$(( offset + 1 ))" "$vmlinuz" || true; } \
        | "$loader" --library-path "$libpath" "$stage/usr/bin/xz" -dc --single-stream > "$rootfs/rxe/kernel"
    [ "$(head -c 4 "$rootfs/rxe/kernel" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] || die "the kernel is no ELF file"
else
    install -m 0644 "$vmlinuz" "$rootfs/rxe/kernel"
fi
install -m 0755 "$here/entrypoint.sh" "$rootfs/rxe/entrypoint.sh"
install -m 0755 "$here/guest-run.sh" "$rootfs/rxe/guest-run"
# What a program for the guest is compiled against on the host (RxeContainer's guest programs):
# the headers of libibverbs-dev and librdmacm-dev and the guest's libraries they link to, with
# the libraries those need in turn (the linker reads them through -rpath-link).
sysroot="$rootfs/rxe/sysroot"
for pkg in libibverbs-dev librdmacm-dev; do
    pkg_files "$pkg" usr/include/ | while IFS= read -r f; do install -D -m 0644 "$stage/$f" "$sysroot/$f"; done
done
for lib in libibverbs.so librdmacm.so; do
    real=usr/lib/x86_64-linux-gnu/$(readlink "$stage/usr/lib/x86_64-linux-gnu/$lib")
    copy_in "$sysroot" "$real"
    ln -sfn "$(basename "$real")" "$sysroot/usr/lib/x86_64-linux-gnu/$lib"
done
rm -rf "$sysroot/lib64"
cp "$versions" "$rootfs/rxe/versions.txt"
# Not compressed: unpacking it would cost the guest seconds under TCG.
(cd "$initrd" && find . | sort | "$stage/bin/busybox" cpio -o -H newc 2>/dev/null) > "$rootfs/rxe/initrd.cpio"

if [ -n "$rootfs_out" ]; then
    rm -rf "$rootfs_out"
    mkdir -p "$(dirname "$rootfs_out")"
    mv "$rootfs" "$rootfs_out"
    rm -rf "$work"
    say "wrote the image's file system to $rootfs_out in $(( $(date +%s) - start )) s"
    exit 0
fi

# --- 6. the image --------------------------------------------------------------------------
say "importing $image"
tar -C "$rootfs" --numeric-owner --owner=0 --group=0 -c . | docker import \
    -c 'ENTRYPOINT ["/rxe/entrypoint.sh"]' \
    -c 'CMD ["ibv_devinfo"]' \
    -c 'ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin' \
    -c "LABEL io.jroce.rxe-peer.kernel=$kver" \
    -c "LABEL io.jroce.rxe-peer.qemu=$(awk '$1 == "qemu-system-x86" { print $2 }' "$versions")" \
    -c "LABEL io.jroce.rxe-peer.rdma-core=$(awk '$1 == "ibverbs-providers" { print $2 }' "$versions")" \
    -m "jroce rxe peer ($(basename "$0"))" - "$image" >/dev/null

# Older builds of this image are of no use any more (ignore those a container still uses).
for old in $(docker image ls --format '{{.Repository}}:{{.Tag}}' "$repo"); do
    [ "$old" = "$image" ] || docker image rm "$old" >/dev/null 2>&1 || true
done
rm -rf "$work"
say "built $image in $(( $(date +%s) - start )) s ($(docker image inspect -f '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
echo "$image"

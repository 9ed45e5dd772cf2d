#!/usr/bin/env bash
# install.sh for real on a clean Debian Bookworm: a root made by debootstrap from the Debian
# mirror apt uses here (what a Raspberry Pi OS Lite image has: minbase with systemd, Python
# and CA certificates), then tests/deploy/overlay_install.sh lays a throwaway overlay on it
# and runs install.sh inside (chroot: units enabled, not booted; the kiosk too: cage and
# Chromium installed for real, its unit verified), the installed service's
# command with a demo table and /healthz, backup, doctor, a second run that changes nothing,
# and uninstall. The debootstrapped root is kept in CACHE (outside the checkout, never
# written to: the overlay takes every change) so a second run starts in seconds.
# Used by tests/deploy/test_chroot_install.py.
#
#   unshare -m bash tests/deploy/chroot_install.sh WORKDIR CHECKOUT PORT [CACHE]
set -euo pipefail
work=$1
checkout=$2
port=$3
cache=${4:-/var/cache/table-companion-tests}
suite=bookworm
include=systemd,systemd-sysv,ca-certificates,python3,python3-venv,iproute2
# The mirror of this machine's apt sources (deb822 or one-line), else Debian's own.
mirror=$(sed -n 's/^URIs: *\([^ ]*debian\)$/\1/p; s/^deb \[*[^]]*\]* *\(http[^ ]*debian\) .*/\1/p' \
    /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
base=$cache/$suite-$(printf '%s' "$include" | md5sum | cut -c1-8)
if [ ! -x "$base/usr/bin/python3" ]; then
    echo "### debootstrap $suite from $mirror into $base"
    mkdir -p "$cache"
    rm -rf "$base.new"
    debootstrap --variant=minbase --include="$include" "$suite" "$base.new" "$mirror" \
        >"$work/debootstrap.log" 2>&1 || { tail -n 30 "$work/debootstrap.log"; exit 1; }
    mv "$base.new" "$base"
else
    echo "### clean $suite root from the cache: $base"
fi
INSTALL_ARGS="--no-picamera --kiosk" exec bash "$(dirname "$0")/overlay_install.sh" "$work" "$checkout" \
    "$port" "$base"

#!/usr/bin/env bash
# Runs deploy/install.sh for real (apt-get, useradd, venv, pip, systemctl --root) inside a
# throwaway copy-on-write overlay of this machine's root, in a private mount namespace, then
# checks the installed appliance from inside: units verify with the real binary, the server
# starts as the service user and answers, backup and doctor work, a re-run changes no file,
# uninstall keeps the games. Nothing outside WORKDIR changes. Needs root, overlayfs, and the
# network (Debian mirror, PyPI). Used by tests/deploy/test_overlay_install.py.
#
#   unshare -m bash tests/deploy/overlay_install.sh WORKDIR CHECKOUT PORT
set -euo pipefail
work=$1
checkout=$2
port=$3
merged=$work/merged
mkdir -p "$work/upper" "$work/work" "$merged"
mount -t overlay overlay -o "lowerdir=/,upperdir=$work/upper,workdir=$work/work" "$merged"
for fs in proc dev sys; do mount --bind "/$fs" "$merged/$fs"; done
mkdir -p "$merged/src"
mount --bind -o ro "$checkout" "$merged/src"   # read-only: install.sh must not write there

inside() { chroot "$merged" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

echo "### first install"
inside bash /src/deploy/install.sh --no-picamera --port "$port" --hotspot \
    --hotspot-password kingsbridge

echo "### units verify against the installed binary"
for unit in table-companion.service table-companion-backup.service table-companion-backup.timer; do
    inside systemd-analyze verify --man=no "/etc/systemd/system/$unit"
done

echo "### the service user runs the installed server"
inside install -d -o companion -g companion -m 0750 /var/lib/table-companion
inside runuser -u companion -- /opt/table-companion/venv/bin/companion serve --host 127.0.0.1 \
    --port "$port" --data /var/lib/table-companion --no-hardware >"$work/serve.log" 2>&1 &
server=$!
answered=no
for _ in $(seq 300); do
    if inside /opt/table-companion/venv/bin/python -c \
        "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/socket.io/?EIO=4&transport=polling', timeout=1)" \
        2>/dev/null; then
        answered=yes
        break
    fi
    sleep 0.1
done
echo "server answered: $answered"
[ "$answered" = yes ] || { cat "$work/serve.log"; exit 1; }
inside runuser -u companion -- /opt/table-companion/venv/bin/companion backup \
    --data /var/lib/table-companion
inside runuser -u companion -- /opt/table-companion/venv/bin/companion doctor --json \
    --data /var/lib/table-companion --port "$port" >"$work/doctor.json" || true
kill "$server"
wait "$server" || true

echo "### second install"
inside bash /src/deploy/install.sh >"$work/second.log"
cat "$work/second.log"

echo "### uninstall"
inside bash /src/deploy/install.sh --uninstall
inside test -f /var/lib/table-companion/companion.sqlite3
echo "### done"

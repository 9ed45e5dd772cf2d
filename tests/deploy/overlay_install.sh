#!/usr/bin/env bash
# Runs deploy/install.sh for real (apt-get, useradd, venv, pip, systemctl --root) inside a
# throwaway copy-on-write overlay of this machine's root, in a private mount namespace, then
# checks the installed appliance from inside: units verify with the real binary, the server
# starts as the service user and answers, backup and doctor work, a re-run changes no file,
# uninstall keeps the games. Nothing outside WORKDIR changes. Needs root, overlayfs, and the
# network (Debian mirror, PyPI). Used by tests/deploy/test_overlay_install.py.
#
#   unshare -m bash tests/deploy/overlay_install.sh WORKDIR CHECKOUT PORT [LOWER]
#
# LOWER (default /, this machine) is the root the overlay is laid over: a clean Debian made
# by debootstrap for tests/deploy/chroot_install.sh. INSTALL_ARGS replaces the first run's
# options (default: a hotspot too, so NetworkManager's parts are installed for real).
set -euo pipefail
work=$1
checkout=$2
port=$3
lower=${4:-/}
read -r -a install_args <<<"${INSTALL_ARGS:---no-picamera --hotspot --hotspot-password kingsbridge}"
merged=$work/merged
mkdir -p "$work/upper" "$work/work" "$merged"
# Every mount is undone on any exit (the private mount namespace would drop them too).
unmount_all() {
    for fs in src dev/pts dev sys proc; do
        mountpoint -q "$merged/$fs" 2>/dev/null && umount -l "$merged/$fs"
    done
    mountpoint -q "$merged" && umount -l "$merged"
    return 0
}
trap unmount_all EXIT
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$work/upper,workdir=$work/work" "$merged"
for fs in proc dev sys; do mount --bind "/$fs" "$merged/$fs"; done
[ "$lower" = / ] || mount --bind /dev/pts "$merged/dev/pts"
mkdir -p "$merged/src"
mount --bind -o ro "$checkout" "$merged/src"   # read-only: install.sh must not write there

inside() { chroot "$merged" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

# The overlay is thrown away: dpkg need not sync each file it unpacks (Chromium's and the
# kiosk's 170 packages took 127 s to unpack at load 20, adwaita-icon-theme's small files 35 s
# of it). What install.sh asks of apt and dpkg is unchanged.
mkdir -p "$merged/etc/dpkg/dpkg.cfg.d"
echo force-unsafe-io >"$merged/etc/dpkg/dpkg.cfg.d/zz-table-companion-tests"
if [ "$lower" != / ]; then
    # The clean root reaches the network as this machine does: its resolver, and the local
    # certificate authorities it trusts (a network that inspects TLS has one).
    rm -f "$merged/etc/resolv.conf"
    cp /etc/resolv.conf "$merged/etc/resolv.conf"
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$merged/usr/local/share/ca-certificates/"
        inside update-ca-certificates >/dev/null
    fi
fi

echo "### first install"
inside bash /src/deploy/install.sh --port "$port" "${install_args[@]}"

echo "### units verify against the installed binary"
units="table-companion.service table-companion-backup.service table-companion-backup.timer"
[ ! -f "$merged/etc/systemd/system/table-companion-kiosk.service" ] \
    || units+=" table-companion-kiosk.service"
for unit in $units; do
    inside systemd-analyze verify --man=no "/etc/systemd/system/$unit"
done

echo "### boot-time files: the USB-serial drivers, the kiosk's environment"
cp "$merged/etc/modules-load.d/table-companion.conf" "$work/modules-load.conf"
[ ! -f "$merged/etc/table-companion/kiosk.env" ] \
    || cp "$merged/etc/table-companion/kiosk.env" "$work/kiosk.env"

echo "### the service user runs the installed server"
inside install -d -o companion -g companion -m 0750 /var/lib/table-companion
# The installed unit's own command (ExecStart with companion.env's values), on loopback, no
# hardware, and --demo: a demo table per installed game. Its own session, so the whole
# process group (runuser, gunicorn, worker) can be ended.
exec_start=$(sed -n 's/^ExecStart=//p' "$merged/etc/systemd/system/table-companion.service")
echo "ExecStart: $exec_start"
mapfile -t service_env < <(grep '^COMPANION_' "$merged/etc/table-companion/companion.env")
setsid chroot "$merged" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    runuser -u companion -- /usr/bin/env "${service_env[@]}" COMPANION_HOST=127.0.0.1 \
    /bin/bash -c "cd /var/lib/table-companion && exec $exec_start --no-hardware --demo" \
    >"$work/serve.log" 2>&1 &
server=$!
stop_server() { kill -- "-$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
trap 'stop_server; unmount_all' EXIT
answered=no
for _ in $(seq 600); do
    if inside /opt/table-companion/venv/bin/python -c \
        "import urllib.request as u; print(u.urlopen('http://127.0.0.1:$port/healthz', timeout=1).read().decode())" \
        >"$work/healthz.json" 2>/dev/null; then
        answered=yes
        break
    fi
    sleep 0.1
done
echo "server answered: $answered"
[ "$answered" = yes ] || { cat "$work/serve.log"; exit 1; }
cat "$work/healthz.json"
inside runuser -u companion -- /opt/table-companion/venv/bin/companion backup \
    --data /var/lib/table-companion
inside runuser -u companion -- /opt/table-companion/venv/bin/companion doctor --json \
    --data /var/lib/table-companion --port "$port" >"$work/doctor.json" || true
stop_server

if command -v systemd-nspawn >/dev/null; then
    echo "### boot the installed root with systemd (systemd-nspawn, private network)"
    # A one-shot unit checks the hardened service from inside, then powers the container off.
    cat >"$merged/usr/local/sbin/tc-selftest" <<'SELFTEST'
#!/bin/bash
exec >/root/selftest.txt 2>&1
venv=/opt/table-companion/venv
port=$(sed -n 's/^COMPANION_PORT=//p' /etc/table-companion/companion.env)
# Poll /healthz every 10 ms; the moment it answers, in CLOCK_MONOTONIC microseconds
# (the clock systemd stamps its units with).
ready=$("$venv/bin/python" - "$port" <<'PY'
import sys, time, urllib.request
deadline = time.monotonic() + 90
while time.monotonic() < deadline:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
        break
    except OSError:
        time.sleep(0.01)
print(int(time.monotonic() * 1e6))
PY
)
start=$(systemctl show -p ExecMainStartTimestampMonotonic --value table-companion.service)
userspace=$(systemctl show -p UserspaceTimestampMonotonic --value)
echo "service_to_ready_ms=$(( (ready - start) / 1000 ))"
echo "boot_to_ready_ms=$(( (ready - userspace) / 1000 ))"
"$venv/bin/python" -c "import urllib.request as u; print('healthz=' + u.urlopen('http://127.0.0.1:$port/healthz', timeout=2).read().decode())"
echo "active=$(systemctl is-active table-companion.service)"
echo "timer=$(systemctl is-active table-companion-backup.timer)"
pid=$(systemctl show -p MainPID --value table-companion.service)
echo "user=$(stat -c %U "/proc/$pid")"
echo "nonewprivs=$(awk '/^NoNewPrivs/ {print $2}' "/proc/$pid/status")"
echo "capeff=$(awk '/^CapEff/ {print $2}' "/proc/$pid/status")"
echo "root_mount=$(awk '$5 == "/" {print $6}' "/proc/$pid/mountinfo" | tail -n 1)"
echo "state_mount=$(awk '$5 == "/var/lib/table-companion" {print $6}' "/proc/$pid/mountinfo" | tail -n 1)"
echo "private_tmp=$(awk '$5 == "/tmp" {print $4}' "/proc/$pid/mountinfo" | grep -c systemd-private)"
echo "statedir_owner=$(stat -c %U /var/lib/table-companion)"
echo "devices=$(systemctl show -p DeviceAllow --value table-companion.service)"
echo "devicepolicy=$(systemctl show -p DevicePolicy --value table-companion.service)"
systemctl start table-companion-backup.service
echo "backup_rc=$?"
echo "backups=$(find /var/lib/table-companion/backups -name 'companion-*.sqlite3' | wc -l)"
echo "newest_backup=$(find /var/lib/table-companion/backups -name 'companion-*.sqlite3' -newer /etc/table-companion/companion.env | sort | tail -n 1)"
backup=$(find /var/lib/table-companion/backups -name 'companion-*.sqlite3' | head -n 1)
runuser -u companion -- "$venv/bin/companion" restore "$backup" --data /var/lib/table-companion
echo "restore_rc=$?"
runuser -u companion -- "$venv/bin/companion" doctor --json >/root/doctor-systemd.json
echo "doctor_rc=$?"
systemctl --no-block poweroff
SELFTEST
    chmod 0755 "$merged/usr/local/sbin/tc-selftest"
    cat >"$merged/etc/systemd/system/tc-selftest.service" <<'UNIT'
[Unit]
Description=Table Companion self-test in the booted test root
After=table-companion.service table-companion-backup.timer

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/tc-selftest

[Install]
WantedBy=multi-user.target
UNIT
    ln -sf /etc/systemd/system/tc-selftest.service \
        "$merged/etc/systemd/system/multi-user.target.wants/tc-selftest.service"
    for fs in proc dev sys; do umount "$merged/$fs"; done   # nspawn mounts its own
    timeout 300 systemd-nspawn -q -D "$merged" --boot --register=no --keep-unit \
        --private-network >"$work/boot.log" 2>&1 || echo "nspawn ended with $?"
    for fs in proc dev sys; do mount --bind "/$fs" "$merged/$fs"; done
    cp "$merged/root/selftest.txt" "$merged/root/doctor-systemd.json" "$work/" || true
    cat "$work/selftest.txt" || true
    rm -f "$merged/etc/systemd/system/multi-user.target.wants/tc-selftest.service" \
        "$merged/etc/systemd/system/tc-selftest.service" "$merged/usr/local/sbin/tc-selftest"
fi

echo "### second install"
inside bash /src/deploy/install.sh >"$work/second.log"
cat "$work/second.log"

echo "### uninstall"
inside bash /src/deploy/install.sh --uninstall
inside test -f /var/lib/table-companion/companion.sqlite3
echo "### done"

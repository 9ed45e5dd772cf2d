#!/usr/bin/env bash
# Table Companion: turn a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie) into a game table.
#
#   sudo deploy/install.sh [options]          install, or upgrade keeping every game
#   sudo deploy/install.sh --uninstall        remove it; the games stay unless --purge
#   deploy/install.sh --dry-run [options]     print every change, make none
#
# What it sets up (docs/pi-appliance.md explains each part): Debian packages, a service user
# `companion` (groups dialout, video), a virtualenv in /opt/table-companion with the app from
# this checkout, the hardened `table-companion` service with its data in
# /var/lib/table-companion, a daily online backup timer, a udev rule naming the dice reader
# /dev/dicereader (and keeping ModemManager away from it), an avahi service for <hostname>.local,
# and on request a Wi-Fi hotspot, a kiosk on HDMI and HTTPS. Options given once are remembered
# in /etc/table-companion/install.conf, so a plain re-run upgrades with the same choices.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: install.sh [options]
  --port N              port of the server (default 8000)
  --dice-usb VID:PID    USB id of the dice reader for the udev rule (repeatable; VID:* for any
                        product of a vendor, VID:PID:SERIAL to pin one board); default: the
                        USB-serial chips and boards hardware/dice/discovery.py knows
  --picamera / --no-picamera
                        install python3-picamera2 and let the virtualenv see it (default:
                        no; the Camera Module is read through rpicam-vid, installed on a Pi;
                        on Bookworm apt's picamera2 cannot import next to NumPy 2)
  --hotspot / --no-hotspot
                        run a Wi-Fi access point with NetworkManager for places without a router
  --hotspot-ssid NAME   its network name (default TableCompanion)
  --hotspot-password P  its WPA2 password, 8-63 characters (default: generated, printed once)
  --kiosk / --no-kiosk  show the table display full screen on the HDMI output at boot
  --kiosk-path PATH     page the kiosk opens (default /, the games list)
  --https / --no-https  serve HTTPS with a self-signed certificate made now (phones' Wake Lock)
  --keep-backups N      days of daily backups to keep (default 14)
  --source DIR          checkout to install from (default: this script's checkout)
  --root DIR            install into an alternative root: files are written under DIR and
                        programs that must run on the target (apt-get, useradd, pip, nmcli,
                        systemctl start) are listed and skipped
  --dry-run             print every change without making it
  --uninstall           remove the app, services and settings; keep the games
  --purge               with --uninstall: also delete the games, backups and service users
  -h, --help            this help
EOF
}

# ----------------------------------------------------------------------------- constants
SERVICE_USER=companion
KIOSK_USER=companion-kiosk
PREFIX=/opt/table-companion
VENV=$PREFIX/venv
ETC=/etc/table-companion
DATA=/var/lib/table-companion
UNIT_DIR=/etc/systemd/system
UDEV_RULE=/etc/udev/rules.d/99-table-companion-dice.rules
AVAHI_SERVICE=/etc/avahi/services/table-companion.service
PAM_FILE=/etc/pam.d/table-companion-kiosk
NM_CONNECTION=/etc/NetworkManager/system-connections/table-companion-hotspot.nmconnection
HOTSPOT_ID=table-companion-hotspot
# The same ids as hardware/dice/discovery.py's KNOWN_USB_IDS (a test keeps them equal).
DEFAULT_DICE_USB="2341:* 2a03:* 1a86:7523 1a86:55d4 0403:6001 0403:6015 10c4:ea60 067b:2303 \
239a:* 1b4f:* 2e8a:*"
OLD_DEFAULT_DICE_USB="2341:0043 2341:0001 2341:8036 2a03:0043 2e8a:000a 1a86:7523"
# The USB-serial drivers a reader may need, loaded at boot: systemd resolves the unit's
# DeviceAllow=char-ttyUSB/char-ttyACM against /proc/devices when it starts, so a driver
# loaded later (the reader plugged in afterwards) would be refused until a restart.
MODULES_FILE=/etc/modules-load.d/table-companion.conf
SERIAL_MODULES=(usbserial cdc_acm ch341 cp210x ftdi_sio pl2303)
UNITS="table-companion.service table-companion-backup.service table-companion-backup.timer"
KIOSK_UNIT=table-companion-kiosk.service

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# ----------------------------------------------------------------------------- options
ROOT=""
DRY_RUN=0
UNINSTALL=0
PURGE=0
SOURCE=$(dirname "$HERE")
declare -A OPT=()   # choices remembered in install.conf

while [ $# -gt 0 ]; do
    case $1 in
        --port) OPT[PORT]=${2:?--port needs a number}; shift ;;
        --dice-usb) OPT[DICE_USB]="${OPT[DICE_USB]:-}${OPT[DICE_USB]:+ }${2:?--dice-usb needs VID:PID}"; shift ;;
        --picamera) OPT[PICAMERA]=yes ;;
        --no-picamera) OPT[PICAMERA]=no ;;
        --hotspot) OPT[HOTSPOT]=yes ;;
        --no-hotspot) OPT[HOTSPOT]=no ;;
        --hotspot-ssid) OPT[HOTSPOT_SSID]=${2:?--hotspot-ssid needs a name}; shift ;;
        --hotspot-password) OPT[HOTSPOT_PASSWORD]=${2:?--hotspot-password needs a value}; shift ;;
        --kiosk) OPT[KIOSK]=yes ;;
        --no-kiosk) OPT[KIOSK]=no ;;
        --kiosk-path) OPT[KIOSK_PATH]=${2:?--kiosk-path needs a path}; shift ;;
        --https) OPT[HTTPS]=yes ;;
        --no-https) OPT[HTTPS]=no ;;
        --keep-backups) OPT[KEEP_BACKUPS]=${2:?--keep-backups needs a number}; shift ;;
        --source) SOURCE=${2:?--source needs a directory}; shift ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --dry-run) DRY_RUN=1 ;;
        --uninstall) UNINSTALL=1 ;;
        --purge) PURGE=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

die() { echo "install.sh: $*" >&2; exit 1; }

if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" != / ] || ROOT=""
fi
if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root (sudo $0 ...), or with --dry-run to see what it would do"
fi
[ "$PURGE" = 0 ] || [ "$UNINSTALL" = 1 ] || die "--purge goes with --uninstall"

# ----------------------------------------------------------------------------- helpers
# Every change goes through one of these, so --dry-run and --root are honoured everywhere.

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }

quoted() { local out; printf -v out '%q ' "$@"; printf '%s' "${out% }"; }

# run CMD...: a program changing the system; printed in --dry-run, skipped in --root mode.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        say "would run: $(quoted "$@")"
    elif [ -n "$ROOT" ]; then
        say "skipped (--root, runs on the target): $(quoted "$@")"
    else
        say "+ $(quoted "$@")"
        "$@"
    fi
}

# run_live CMD...: tell a running daemon (udevd, NetworkManager) about a change. Where the
# daemon is not running (a chroot, an image being prepared) it picks the change up at boot.
run_live() {
    if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ]; then
        say "+ $(quoted "$@")"
        "$@" || say "note: that did not work now (daemon not running?); it applies at next boot"
    else
        run "$@"
    fi
}

# run_in_root CMD...: a program that itself knows how to work on --root (systemctl --root).
run_in_root() {
    if [ "$DRY_RUN" = 1 ]; then
        say "would run: $(quoted "$@")"
    else
        say "+ $(quoted "$@")"
        "$@"
    fi
}

# put_file MODE PATH [OWNER:GROUP] < content: write PATH (under --root) if it differs.
# Returns 0 when the file changed (or would change), 1 when it was already right.
put_file() {
    local mode=$1 path=$2 owner=${3:-} target content
    target=$ROOT$path
    content=$(cat)
    if [ -f "$target" ] && [ "$(cat "$target")" = "$content" ]; then
        if [ "$(stat -c %a "$target")" = "${mode#0}" ]; then
            say "unchanged: $path"
            return 1
        fi
        if [ "$DRY_RUN" = 1 ]; then say "would chmod $mode $path"; return 0; fi
        chmod "$mode" "$target"
        say "chmod $mode $path"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        if [ -f "$target" ]; then
            say "would change $path (mode $mode):"
            diff -u "$target" <(printf '%s\n' "$content") | sed 's/^/    /' || true
        else
            say "would create $path (mode $mode):"
            printf '%s\n' "$content" | sed 's/^/    /'
        fi
        return 0
    fi
    mkdir -p "$(dirname "$target")"
    printf '%s\n' "$content" >"$target.tc-new"
    chmod "$mode" "$target.tc-new"
    if [ -n "$owner" ] && [ -z "$ROOT" ]; then chown "$owner" "$target.tc-new"; fi
    mv -f "$target.tc-new" "$target"
    say "wrote $path"
    return 0
}

# remove_path PATH: delete a file or directory (under --root) if present.
remove_path() {
    local target=$ROOT$1
    [ -e "$target" ] || [ -L "$target" ] || return 0
    if [ "$DRY_RUN" = 1 ]; then say "would remove $1"; return 0; fi
    rm -rf -- "$target"
    say "removed $1"
}

has_package() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
has_user() {
    if [ -z "$ROOT" ]; then id "$1" >/dev/null 2>&1
    else grep -q "^$1:" "$ROOT/etc/passwd" 2>/dev/null; fi
}
in_groups() {  # in_groups USER GROUP...: USER is already in every GROUP
    local have g
    have=" $(id -nG "$1" 2>/dev/null) "
    shift
    for g in "$@"; do [[ $have == *" $g "* ]] || return 1; done
}
systemd_running() { [ -z "$ROOT" ] && [ -d /run/systemd/system ]; }

# A value of install.conf (KEY=value lines; read, never sourced).
conf_value() {
    local file=$ROOT$ETC/install.conf
    [ -f "$file" ] || return 0
    sed -n "s/^$1=//p" "$file" | tail -n 1
}

on_raspberry_pi() { grep -qa "Raspberry Pi" "$ROOT/proc/device-tree/model" 2>/dev/null; }

# ----------------------------------------------------------------------------- settings
# Command line first, then the choices of the last run, then the defaults.
for key in PORT DICE_USB PICAMERA HOTSPOT HOTSPOT_SSID HOTSPOT_PASSWORD KIOSK KIOSK_PATH HTTPS \
    KEEP_BACKUPS; do
    [ -n "${OPT[$key]:-}" ] || OPT[$key]=$(conf_value "$key")
done
: "${OPT[PORT]:=8000}"
: "${OPT[DICE_USB]:=$DEFAULT_DICE_USB}"
# The default of earlier versions, remembered in install.conf: today's default covers it.
[ "${OPT[DICE_USB]}" != "$OLD_DEFAULT_DICE_USB" ] || OPT[DICE_USB]=$DEFAULT_DICE_USB
: "${OPT[HOTSPOT]:=no}"
: "${OPT[HOTSPOT_SSID]:=TableCompanion}"
: "${OPT[KIOSK]:=no}"
: "${OPT[KIOSK_PATH]:=/}"
: "${OPT[HTTPS]:=no}"
: "${OPT[KEEP_BACKUPS]:=14}"
# picamera2 is opt-in: apt builds it against its NumPy 1.x on Bookworm, our virtualenv has
# NumPy 2 (docs/pi-appliance.md, the NumPy ABI trap); the Camera Module works via rpicam-vid.
: "${OPT[PICAMERA]:=no}"

if ! [[ ${OPT[PORT]} =~ ^[0-9]+$ ]] || [ "${OPT[PORT]}" -lt 1 ] || [ "${OPT[PORT]}" -gt 65535 ]
then
    die "--port must be 1-65535"
fi
[[ ${OPT[KEEP_BACKUPS]} =~ ^[0-9]+$ ]] || die "--keep-backups must be a number"
[[ ${OPT[KIOSK_PATH]} =~ ^/[A-Za-z0-9._~/?=\&%-]*$ ]] || die "--kiosk-path must start with /"
read -r -a dice_ids <<<"${OPT[DICE_USB]}"  # VID:* is a word, not a file pattern
for id in "${dice_ids[@]}"; do
    [[ $id =~ ^[0-9a-fA-F]{4}:([0-9a-fA-F]{4}(:[A-Za-z0-9._-]+)?|\*)$ ]] \
        || die "--dice-usb $id: expected VID:PID, VID:* or VID:PID:SERIAL in hex, e.g. 2341:0043"
done
if [ "${OPT[HOTSPOT]}" = yes ] && [ -n "${OPT[HOTSPOT_PASSWORD]:-}" ]; then
    if [ "${#OPT[HOTSPOT_PASSWORD]}" -lt 8 ] || [ "${#OPT[HOTSPOT_PASSWORD]}" -gt 63 ]; then
        die "--hotspot-password must have 8 to 63 characters"
    fi
fi

SCHEME=http
[ "${OPT[HTTPS]}" = no ] || SCHEME=https

# ----------------------------------------------------------------------------- install steps

install_packages() {
    step "Debian packages"
    local wanted=(python3 python3-venv avahi-daemon sqlite3 iproute2) missing=()
    [ "${OPT[PICAMERA]}" = no ] || wanted+=(python3-picamera2)
    # The Camera Module is read through rpicam-vid (hardware/camera/rpicam.py): Lite's
    # rpicam-apps-lite has it without the preview window's Qt/X libraries; a desktop
    # image's rpicam-apps is kept as it is.
    ! on_raspberry_pi || wanted+=("$(camera_apps_package)")
    [ "${OPT[HTTPS]}" = no ] || wanted+=(openssl)
    [ "${OPT[HOTSPOT]}" = no ] || wanted+=(network-manager)
    if [ "${OPT[KIOSK]}" = yes ]; then
        wanted+=(cage "$(kiosk_browser_package)")
    fi
    local pkg
    for pkg in "${wanted[@]}"; do
        if [ -n "$ROOT" ] || ! has_package "$pkg"; then missing+=("$pkg"); fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "unchanged: all of ${wanted[*]} are installed"
        return
    fi
    run apt-get update -q
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
}

camera_apps_package() {
    if [ -z "$ROOT" ] && has_package rpicam-apps; then echo rpicam-apps
    else echo rpicam-apps-lite; fi
}

kiosk_browser_package() {
    # Raspberry Pi OS Bookworm calls it chromium-browser, Debian calls it chromium.
    if apt-cache policy chromium-browser 2>/dev/null | grep -q 'Candidate: [0-9]'; then
        echo chromium-browser
    else
        echo chromium
    fi
}

create_users() {
    step "Service user"
    if has_user "$SERVICE_USER"; then
        say "unchanged: user $SERVICE_USER exists"
    else
        run useradd --system --user-group --home-dir "$DATA" --no-create-home \
            --shell /usr/sbin/nologin --comment "Table Companion" "$SERVICE_USER"
    fi
    # dialout: serial dice readers; video: cameras (V4L2, libcamera's media and dma_heap).
    if [ -z "$ROOT" ] && in_groups "$SERVICE_USER" dialout video; then
        say "unchanged: $SERVICE_USER is in dialout and video"
    else
        run usermod -a -G dialout,video "$SERVICE_USER"
    fi
    if [ "${OPT[KIOSK]}" = yes ]; then
        if has_user "$KIOSK_USER"; then
            say "unchanged: user $KIOSK_USER exists"
        else
            run useradd --system --user-group --create-home \
                --home-dir "/var/lib/$KIOSK_USER" --shell /usr/sbin/nologin \
                --comment "Table Companion kiosk" "$KIOSK_USER"
        fi
        # The display (video, render) and input devices' groups; udev makes render and input,
        # so a system without udev (a bare Debian root) has none to join.
        local groups=() group
        for group in video render input; do
            if [ -n "$ROOT" ] || getent group "$group" >/dev/null; then groups+=("$group"); fi
        done
        if [ -z "$ROOT" ] && in_groups "$KIOSK_USER" "${groups[@]}"; then
            say "unchanged: $KIOSK_USER is in ${groups[*]}"
        else
            run usermod -a -G "$(IFS=,; echo "${groups[*]}")" "$KIOSK_USER"
        fi
    fi
}

install_app() {
    step "Application (virtualenv in $VENV)"
    [ -f "$SOURCE/pyproject.toml" ] || die "--source $SOURCE has no pyproject.toml"
    local venv_args=()
    # picamera2 comes from apt (it needs libcamera): the virtualenv must see system packages.
    [ "${OPT[PICAMERA]}" = no ] || venv_args+=(--system-site-packages)
    run mkdir -p "$PREFIX"
    run python3 -m venv "${venv_args[@]}" "$VENV"
    # pip builds a local project in place (egg-info, build/): build from a scratch copy so
    # the checkout stays clean (and may be read-only). A local directory is always rebuilt
    # and reinstalled, so a re-run is the upgrade.
    local stage=/tmp/table-companion-build
    if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ]; then
        stage=$(mktemp -d /tmp/table-companion-build.XXXXXX)
        # shellcheck disable=SC2064  # expand now: the trap must remove this very folder
        trap "rm -rf '$stage'" EXIT
        # Leave out what a checkout's own work writes (.gitignore's folders): the caches and
        # screenshots of a test run may change while they are read, and tar then fails.
        tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./.venv313 \
            --exclude=./build --exclude=./dist --exclude=./instance --exclude='*.egg-info' \
            --exclude=__pycache__ --exclude=./.pytest_cache --exclude=./.ruff_cache \
            --exclude=./.hypothesis --exclude=./test-artifacts -cf - . \
            | tar -C "$stage" -xf -
    fi
    # The versions the tests ran on: the lock of this Python (make lock), every file checked
    # against its hash; then the app itself, with no dependency of its own choosing.
    local lock
    lock=$(lock_file)
    run "$VENV/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
        -r "$lock"
    run "$VENV/bin/pip" install --quiet --upgrade --no-deps --disable-pip-version-check \
        "$stage"
}

# lock_file: deploy/requirements-pyXY.txt for the target's python3 (3.11 on Raspberry Pi OS
# Bookworm, 3.13 on Trixie); dies naming the supported ones when there is none.
lock_file() {
    local version=311 lock
    if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ]; then
        version=$(python3 -c 'import sys; print("%d%d" % sys.version_info[:2])')
    fi
    lock=$SOURCE/deploy/requirements-py$version.txt
    if [ ! -f "$lock" ]; then
        die "no lock for Python ${version:0:1}.${version:1} ($lock): Raspberry Pi OS Bookworm" \
            "(3.11) and Trixie (3.13) are supported"
    fi
    printf '%s' "$lock"
}

write_settings() {
    step "Settings in $ETC"
    local serve_args=""
    if [ "${OPT[HTTPS]}" = yes ]; then
        if serve_has_tls; then
            serve_args="--certfile $ETC/tls/cert.pem --keyfile $ETC/tls/key.pem"
        else
            say "warning: this version of companion serve has no --certfile/--keyfile;" \
                "serving plain http (the certificate is still made, for a later upgrade)"
            SCHEME=http
        fi
    fi
    put_file 0644 "$ETC/companion.env" <<EOF || true
# Table Companion server settings, written by deploy/install.sh (re-run it to change them).
COMPANION_HOST=0.0.0.0
COMPANION_PORT=${OPT[PORT]}
COMPANION_SERVE_ARGS=$serve_args
COMPANION_BACKUP_KEEP=${OPT[KEEP_BACKUPS]}
EOF
    # The hotspot password is a secret: install.conf is readable by root only.
    put_file 0600 "$ETC/install.conf" <<EOF || true
# Choices of the last deploy/install.sh run; a plain re-run keeps them.
PORT=${OPT[PORT]}
DICE_USB=${OPT[DICE_USB]}
PICAMERA=${OPT[PICAMERA]}
HOTSPOT=${OPT[HOTSPOT]}
HOTSPOT_SSID=${OPT[HOTSPOT_SSID]}
HOTSPOT_PASSWORD=${OPT[HOTSPOT_PASSWORD]:-}
KIOSK=${OPT[KIOSK]}
KIOSK_PATH=${OPT[KIOSK_PATH]}
HTTPS=${OPT[HTTPS]}
KEEP_BACKUPS=${OPT[KEEP_BACKUPS]}
EOF
}

# Whether the installed server takes the TLS options (a dry run or --root cannot ask it).
serve_has_tls() {
    local exe=$VENV/bin/companion
    if [ "$DRY_RUN" = 1 ] || [ -n "$ROOT" ] || [ ! -x "$exe" ]; then return 0; fi
    "$exe" serve --help 2>/dev/null | grep -q -- '--certfile'
}

UNITS_CHANGED=0
install_units() {
    step "systemd units"
    local unit
    for unit in $UNITS; do
        if put_file 0644 "$UNIT_DIR/$unit" <"$HERE/systemd/$unit"; then UNITS_CHANGED=1; fi
    done
}

install_udev_rule() {
    step "udev rule for the dice reader (/dev/dicereader)"
    local id vid pid serial rules=""
    local -a ids
    read -r -a ids <<<"${OPT[DICE_USB]}"  # VID:* is a word, not a file pattern
    for id in "${ids[@]}"; do
        IFS=: read -r vid pid serial <<<"$id"
        vid=${vid,,}; pid=${pid,,}
        rules+="SUBSYSTEM==\"tty\", ATTRS{idVendor}==\"$vid\""
        [ "$pid" = "*" ] || rules+=", ATTRS{idProduct}==\"$pid\""
        [ -z "$serial" ] || rules+=", ATTRS{serial}==\"$serial\""
        rules+=", SYMLINK+=\"dicereader\", ENV{ID_MM_DEVICE_IGNORE}=\"1\""
        rules+=", GROUP=\"dialout\", MODE=\"0660\""$'\n'
    done
    if put_file 0644 "$UDEV_RULE" <<EOF; then
# Table Companion: the dice reader gets the stable name /dev/dicereader, and ModemManager
# leaves it alone (it would otherwise probe a CDC-ACM board with AT commands for seconds).
# Matched on USB vendor:product ids (install.sh --dice-usb VID:PID[:SERIAL], VID:* for a
# vendor's every product; by default the ids hardware/dice/discovery.py tries). The server
# still confirms the device with the protocol's HELLO handshake before trusting it.
${rules%$'\n'}
EOF
        if [ -z "$ROOT" ] && command -v udevadm >/dev/null; then
            run_live udevadm control --reload-rules
            run_live udevadm trigger --subsystem-match=tty --action=add
        fi
    fi
}

install_serial_modules() {
    step "USB-serial drivers loaded at boot (a dice reader plugged in later is allowed)"
    if put_file 0644 "$MODULES_FILE" <<EOF; then
# Table Companion, written by deploy/install.sh: the USB-serial drivers of a dice reader,
# loaded at boot before the service starts. systemd resolves its DeviceAllow=char-ttyUSB
# and char-ttyACM against /proc/devices at start: a driver loaded only when a reader is
# plugged in afterwards would leave that reader refused until the service restarts.
$(printf '%s\n' "${SERIAL_MODULES[@]}")
EOF
        # and now, before the service (re)starts below: the same effect without a reboot
        run_live modprobe -a "${SERIAL_MODULES[@]}"
    fi
}

install_avahi_service() {
    step "avahi: the table is found as $(hostname_of_target).local"
    put_file 0644 "$AVAHI_SERVICE" <<EOF || true
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Table Companion, written by deploy/install.sh: announces the web server on the LAN. -->
<service-group>
  <name replace-wildcards="yes">Table Companion on %h</name>
  <service>
    <type>_${SCHEME}._tcp</type>
    <port>${OPT[PORT]}</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
EOF
}

hostname_of_target() {
    if [ -n "$ROOT" ] && [ -f "$ROOT/etc/hostname" ]; then cat "$ROOT/etc/hostname"
    else hostname; fi
}

install_https() {
    step "HTTPS certificate"
    if [ "${OPT[HTTPS]}" = no ]; then
        say "unchanged: HTTPS not requested (--https)"
        return
    fi
    local dir=$ETC/tls name
    name=$(hostname_of_target)
    if [ -f "$ROOT$dir/cert.pem" ] && [ -f "$ROOT$dir/key.pem" ]; then
        say "unchanged: $dir/cert.pem exists (delete it and re-run to make a new one)"
        return
    fi
    local san="DNS:$name.local,DNS:$name,DNS:localhost,IP:127.0.0.1" ip
    for ip in $(target_addresses); do san+=",IP:$ip"; done
    if [ "$DRY_RUN" = 1 ]; then
        say "would create $dir/key.pem and $dir/cert.pem (self-signed, 10 years, $san)"
        return
    fi
    mkdir -p "$ROOT$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=$name.local" \
        -addext "subjectAltName=$san" -keyout "$ROOT$dir/key.pem" -out "$ROOT$dir/cert.pem" \
        2>/dev/null
    chmod 0644 "$ROOT$dir/cert.pem"
    chmod 0640 "$ROOT$dir/key.pem"
    [ -n "$ROOT" ] || chgrp "$SERVICE_USER" "$ROOT$dir/key.pem"
    say "wrote $dir/cert.pem and $dir/key.pem ($san)"
}

target_addresses() {
    [ -z "$ROOT" ] || return 0
    if command -v ip >/dev/null; then
        ip -4 -o addr show scope global 2>/dev/null | awk '{split($4, a, "/"); print a[1]}'
    fi
}

install_hotspot() {
    step "Wi-Fi hotspot"
    if [ "${OPT[HOTSPOT]}" = no ]; then
        if [ -e "$ROOT$NM_CONNECTION" ]; then
            remove_path "$NM_CONNECTION"
            run_live nmcli connection reload
        else
            say "unchanged: no hotspot (--hotspot)"
        fi
        return
    fi
    local uuid password
    # Keep the connection's uuid and password across re-runs.
    uuid=$(sed -n 's/^uuid=//p' "$ROOT$NM_CONNECTION" 2>/dev/null || true)
    [ -n "$uuid" ] || uuid=$(cat /proc/sys/kernel/random/uuid)
    password=${OPT[HOTSPOT_PASSWORD]:-}
    [ -n "$password" ] || password=$(sed -n 's/^psk=//p' "$ROOT$NM_CONNECTION" 2>/dev/null || true)
    if [ -z "$password" ]; then
        password=$(tr -dc 'a-km-zA-HJ-NP-Z2-9' </dev/urandom | head -c 12 || true)
        if [ "$DRY_RUN" = 1 ]; then
            say "a hotspot password would be generated (this one is only an example)"
        else
            say "hotspot password (generated; also in $NM_CONNECTION): $password"
        fi
    fi
    if put_file 0600 "$NM_CONNECTION" <<EOF; then
# Table Companion hotspot, written by deploy/install.sh: the Pi becomes a Wi-Fi access point
# (players join it, then scan the join codes). Lower priority than any saved home network.
[connection]
id=$HOTSPOT_ID
uuid=$uuid
type=wifi
interface-name=wlan0
autoconnect=true
autoconnect-priority=-10

[wifi]
mode=ap
band=bg
ssid=${OPT[HOTSPOT_SSID]}

[wifi-security]
key-mgmt=wpa-psk
proto=rsn
pairwise=ccmp
group=ccmp
psk=$password

[ipv4]
method=shared
address1=10.42.0.1/24

[ipv6]
method=ignore
EOF
        run_live nmcli connection load "$NM_CONNECTION"
        run_live nmcli connection up "$HOTSPOT_ID"
    fi
}

install_kiosk() {
    step "Kiosk (table display on HDMI)"
    if [ "${OPT[KIOSK]}" = no ]; then
        if [ -e "$ROOT$UNIT_DIR/$KIOSK_UNIT" ]; then
            if systemd_running; then run systemctl disable --now "$KIOSK_UNIT"
            else run_in_root systemctl --root="${ROOT:-/}" disable "$KIOSK_UNIT"; fi
            remove_path "$UNIT_DIR/$KIOSK_UNIT"
            remove_path "$PAM_FILE"
            remove_path "$ETC/kiosk.env"
            UNITS_CHANGED=1
        else
            say "unchanged: no kiosk (--kiosk)"
        fi
        return
    fi
    local browser args=""
    browser=$(command -v chromium-browser || command -v chromium || echo /usr/bin/chromium)
    # The certificate is self-signed; the kiosk only ever talks to this Pi.
    [ "$SCHEME" = http ] || args="--ignore-certificate-errors"
    put_file 0644 "$ETC/kiosk.env" <<EOF || true
# Table Companion kiosk, written by deploy/install.sh.
KIOSK_BROWSER=$browser
KIOSK_BROWSER_ARGS=$args
KIOSK_URL=$SCHEME://localhost:${OPT[PORT]}${OPT[KIOSK_PATH]}
# cage (wlroots 0.15 on Bookworm) refuses to start without an input device; a kiosk has none.
WLR_LIBINPUT_NO_DEVICES=1
EOF
    put_file 0644 "$PAM_FILE" <"$HERE/pam/table-companion-kiosk" || true
    if put_file 0644 "$UNIT_DIR/$KIOSK_UNIT" <"$HERE/systemd/$KIOSK_UNIT"; then
        UNITS_CHANGED=1
    fi
}

start_services() {
    step "Start"
    local units="table-companion.service table-companion-backup.timer"
    [ "${OPT[KIOSK]}" = no ] || units+=" $KIOSK_UNIT"
    if ! systemd_running; then
        # Enabling only makes symlinks: systemctl does that offline on any root.
        # shellcheck disable=SC2086  # a list of unit names
        run_in_root systemctl --root="${ROOT:-/}" enable $units
        say "systemd is not running here: the services start at the next boot"
        return
    fi
    [ "$UNITS_CHANGED" = 0 ] || run systemctl daemon-reload
    # shellcheck disable=SC2086
    run systemctl enable $units
    # Restart: a re-run has just installed a new version of the app.
    # shellcheck disable=SC2086
    run systemctl restart $units
}

print_addresses() {
    step "Ready"
    local name ip
    name=$(hostname_of_target)
    say "Open the table display at $SCHEME://$name.local:${OPT[PORT]}/"
    for ip in $(target_addresses); do say "  or $SCHEME://$ip:${OPT[PORT]}/"; done
    say "Check everything with: sudo -u $SERVICE_USER $VENV/bin/companion doctor --data $DATA"
}

# ----------------------------------------------------------------------------- uninstall

uninstall() {
    step "Stop and remove services"
    local all="" unit
    for unit in $UNITS $KIOSK_UNIT; do
        [ ! -e "$ROOT$UNIT_DIR/$unit" ] || all+=" $unit"
    done
    if [ -z "$all" ]; then
        say "unchanged: no Table Companion units installed"
    elif systemd_running; then
        # shellcheck disable=SC2086
        run systemctl disable --now $all || true
    else
        # shellcheck disable=SC2086
        run_in_root systemctl --root="${ROOT:-/}" disable $all || true
    fi
    for unit in $all; do remove_path "$UNIT_DIR/$unit"; done
    ! systemd_running || run systemctl daemon-reload
    step "Remove device, network and display settings"
    remove_path "$UDEV_RULE"
    remove_path "$MODULES_FILE"
    remove_path "$AVAHI_SERVICE"
    remove_path "$PAM_FILE"
    if [ -e "$ROOT$NM_CONNECTION" ]; then
        remove_path "$NM_CONNECTION"
        run_live nmcli connection reload
    fi
    step "Remove the application"
    remove_path "$PREFIX"
    remove_path "$ETC"
    if [ "$PURGE" = 1 ]; then
        step "Purge: games, backups and service users"
        remove_path "$DATA"
        remove_path "/var/lib/$KIOSK_USER"
        if has_user "$KIOSK_USER"; then run userdel "$KIOSK_USER"; fi
        if has_user "$SERVICE_USER"; then run userdel "$SERVICE_USER"; fi
    else
        say "kept: the games and backups in $DATA (remove them with --uninstall --purge)"
    fi
}

# ----------------------------------------------------------------------------- main

[ "$DRY_RUN" = 0 ] || say "Dry run: nothing is changed; every change is printed."
[ -z "$ROOT" ] || say "Installing into the root $ROOT."

if [ "$UNINSTALL" = 1 ]; then
    uninstall
    exit 0
fi

if [ -z "$ROOT" ] && [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    case ${VERSION_CODENAME:-} in
        bookworm|trixie) ;;
        *) say "note: made for Raspberry Pi OS Bookworm; this is ${PRETTY_NAME:-unknown}" ;;
    esac
fi

install_packages
create_users
install_app
write_settings
install_units
install_udev_rule
install_serial_modules
install_avahi_service
install_https
install_hotspot
install_kiosk
start_services
print_addresses

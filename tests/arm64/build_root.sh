#!/usr/bin/env bash
# A Debian arm64 root the appliance's Python runs in under qemu-aarch64-static, with the
# Python's hashed lock installed in a virtualenv there (tests/arm64/check.py uses it).
# This machine's kernel may have no binfmt_misc, so nothing in the root is ever executed
# by the kernel: debootstrap --foreign only downloads and unpacks, every .deb it fetched is
# unpacked with dpkg-deb (no maintainer scripts run), and each arm64 program is started
# as `qemu-aarch64-static -L ROOT ROOT/...`.
#
#   [HOST_PYTHON=python] [COMPILE_PYTHON=python3.X] [QEMU=qemu-aarch64-static] [QEMU_CPU=cortex-a72] \
#       bash tests/arm64/build_root.sh SUITE LOCK CACHE
#
# Prints the virtualenv's path on its last line. Both steps are cached in CACHE (outside
# the checkout): the root by suite and package list, the virtualenv inside it by the
# lock's sha256, so a changed lock makes a new virtualenv and an unchanged one is reused.
# Downloads are retried (the mirror and PyPI do flake).
set -euo pipefail
suite=$1
lock=$2
cache=$3
# libglib: OpenCV's wheel links it (Trixie renamed it for the 64-bit time_t transition)
case $suite in
    bookworm) include=python3,python3-venv,libglib2.0-0 ;;
    *) include=python3,python3-venv,libglib2.0-0t64 ;;
esac
mirror=$(sed -n 's/^URIs: *\([^ ]*debian\)$/\1/p; s/^deb \[*[^]]*\]* *\(http[^ ]*debian\) .*/\1/p' \
    /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
root=$cache/$suite-arm64-$(printf '%s' "$include" | md5sum | cut -c1-8)

retry() {  # retry CMD...: three tries, 20 s apart
    local n
    for n in 1 2 3; do
        "$@" && return 0
        echo "### attempt $n failed: $*" >&2
        [ "$n" = 3 ] || sleep 20
    done
    return 1
}

# qemu-aarch64-static on Bookworm, qemu-aarch64 (static too) from Trixie on; QEMU overrides
qemu=${QEMU:-$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)}
[ -n "$qemu" ] || {
    echo "qemu-aarch64-static is missing (tests/install-system-packages.sh installs it)" >&2; exit 1; }
mkdir -p "$cache"
exec 9>"$cache/.lock-$suite"
flock 9  # two runs on one machine build one root, not two halves of it

if [ ! -e "$root/.complete" ]; then
    echo "### debootstrap --foreign $suite arm64 from $mirror into $root" >&2
    new=$root.new
    bootstrap() {
        rm -rf "$new"
        debootstrap --foreign --arch=arm64 --variant=minbase --include="$include" \
            "$suite" "$new" "$mirror" >"$cache/debootstrap-$suite.log" 2>&1 \
            || { tail -n 20 "$cache/debootstrap-$suite.log" >&2; return 1; }
    }
    retry bootstrap
    # Unpack every package debootstrap fetched (the second stage would run their scripts
    # on arm64). --keep-directory-symlink: the merged /usr's /bin -> usr/bin stays a link.
    for deb in "$new"/var/cache/apt/archives/*.deb; do
        dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$new" --keep-directory-symlink
    done
    # What a maintainer script would have made and Python needs: the python3 links.
    [ -e "$new/usr/bin/python3" ] || { echo "no python3 in the $suite root" >&2; exit 1; }
    rm -rf "$new/var/cache/apt/archives"/*.deb
    touch "$new/.complete"
    rm -rf "$root"
    mv "$new" "$root"
fi

py=$root/usr/bin/python3
# the Pi's core, not qemu's default "max" (SVE, SME: no Pi has them; tests/arm64/check.py)
run() { "$qemu" -cpu "${QEMU_CPU:-cortex-a72}" -L "$root" "$@"; }
lockhash=$(sha256sum "$lock" | cut -c1-16)
venv=$root/opt/venv-$lockhash
if [ ! -e "$venv/.complete" ]; then
    echo "### virtualenv with $(basename "$lock") (sha256 $lockhash) in $venv" >&2
    # The wheels fetched by this machine's pip when HOST_PYTHON names a Python with pip
    # (native: PyPI reset the emulated pip's connections), for the Pi's platform and this
    # release's Python; the arm64 pip then installs them offline, checking every hash.
    source=()
    wheels=$cache/wheels-$lockhash
    if [ -n "${HOST_PYTHON:-}" ]; then
        version=$(basename "$lock" .txt | sed 's/.*-py\([0-9]\)\([0-9]*\)$/\1.\2/')
        platforms=()
        for minor in $(seq 28 -1 17); do platforms+=("--platform=manylinux_2_${minor}_aarch64"); done
        download() {
            rm -rf "$wheels.new"
            "$HOST_PYTHON" -m pip download --quiet --disable-pip-version-check --retries 10 \
                --only-binary=:all: "${platforms[@]}" --platform=manylinux2014_aarch64 \
                --python-version "$version" --implementation cp --no-deps --require-hashes \
                -r "$lock" -d "$wheels.new"
        }
        if [ ! -d "$wheels" ]; then
            retry download
            mv "$wheels.new" "$wheels"
        fi
        source=(--no-index --find-links "$wheels")
    fi
    rm -rf "$venv"
    run "$py" -m venv --without-pip "$venv"
    pipwhl=("$root"/usr/share/python-wheels/pip-*.whl)  # Debian's pip, run from its wheel
    # --no-compile: the emulated Python compiling every module of NumPy, OpenCV, Flask, ...
    # was most of a cold build; COMPILE_PYTHON, this release's Python version on this
    # machine, writes the same .pyc natively (bytecode does not depend on the machine)
    compile=()
    [ -n "${COMPILE_PYTHON:-}" ] && compile=(--no-compile)
    retry run "$venv/bin/python" "${pipwhl[0]}/pip" install --quiet --disable-pip-version-check \
        --no-input --retries 10 --require-hashes --only-binary :all: "${compile[@]}" \
        "${source[@]}" -r "$lock"
    if [ -n "${COMPILE_PYTHON:-}" ]; then
        "$COMPILE_PYTHON" -m compileall -q -j 0 "$venv"/lib/python3*/site-packages >/dev/null || true
    fi
    touch "$venv/.complete"
    rm -rf "$wheels"
    # virtualenvs of earlier locks: not used again
    for old in "$root"/opt/venv-*; do
        [ "$old" = "$venv" ] || rm -rf "$old"
    done
fi
echo "$venv"

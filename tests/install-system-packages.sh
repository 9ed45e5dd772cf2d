#!/usr/bin/env bash
# System packages the tests use (Debian): a headless browser, socat for serial ptys,
# the shellcheck and systemd-analyze tools for deploy/, gcc for the firmware's C unit tests,
# debootstrap and apt's NumPy with a module built on it for the Pi's install tests,
# qemu-user-static for the arm64 check (make arm64-check),
# Debian's Arduino toolchain and simavr for the firmware's board builds and emulated runs.
# Installs only what is missing; needs root (CI and the dev machines run as root).
set -euo pipefail
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v WebKitWebDriver >/dev/null || need+=(webkit2gtk-driver)  # the WebKit (iPhone) page tests
command -v Xvfb >/dev/null || need+=(xvfb)
command -v socat >/dev/null || need+=(socat)
command -v shellcheck >/dev/null || need+=(shellcheck)
command -v systemd-analyze >/dev/null || need+=(systemd)
command -v gcc >/dev/null || need+=(gcc)
command -v avr-gcc >/dev/null || need+=(gcc-avr)
[ -e /usr/lib/avr/include/avr/io.h ] || need+=(avr-libc)
[ -e /usr/share/arduino/Arduino.mk ] || need+=(arduino-mk)
[ -e /usr/share/arduino/hardware/arduino/avr/cores/arduino/Arduino.h ] || need+=(arduino-core-avr)
[ -e /usr/include/simavr/sim_avr.h ] || need+=(libsimavr-dev)
command -v sqlite3 >/dev/null || need+=(sqlite3)
command -v openssl >/dev/null || need+=(openssl)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# The NumPy ABI trap (tests/companion/test_doctor_numpy_abi.py): apt's NumPy 1.x and a
# Debian extension module built against it.
[ -d /usr/lib/python3/dist-packages/numpy ] || need+=(python3-numpy)
[ -d /usr/lib/python3/dist-packages/bottleneck ] || need+=(python3-bottleneck)
# install.sh run for real in a clean Debian root (tests/deploy/test_chroot_install.py).
command -v debootstrap >/dev/null || need+=(debootstrap)
# The appliance's stack on arm64 (make arm64-check): arm64 programs run through qemu.
command -v qemu-aarch64-static >/dev/null || command -v qemu-aarch64 >/dev/null \
    || need+=(qemu-user-static)  # Trixie: transitional, brings qemu-user's static qemu-aarch64
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "missing system packages: ${need[*]} (run as root or install them)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

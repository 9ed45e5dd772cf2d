"""The address phones should use: the machine's LAN IP (Android often cannot resolve .local),
and every IPv4 address it has (`companion doctor`)."""
from __future__ import annotations

import ipaddress
import json
import shutil
import socket
import subprocess


def lan_ip() -> str:
    """The IPv4 address of the interface holding the default route (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing is sent by UDP
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def ipv4_addresses() -> list[str]:
    """IPv4 addresses of this machine: `ip -j addr` (iproute2), else the default-route one."""
    found = []
    if shutil.which("ip"):
        try:
            out = subprocess.run(["ip", "-j", "-4", "addr", "show"], capture_output=True,
                                 text=True, timeout=5)
            for link in json.loads(out.stdout or "[]"):
                for info in link.get("addr_info", []):
                    if info.get("local"):
                        found.append(info["local"])
        except (OSError, ValueError, subprocess.TimeoutExpired):
            found = []
    return found or [lan_ip()]


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return False


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def base_url(host_header: str, scheme: str = "http", bound: str = "0.0.0.0") -> str:
    """``scheme://host:port`` for a request that arrived with ``Host: host_header`` at a
    server listening on ``bound``. A server on every interface (or on one LAN address) is
    named by its IP, also when reached as ``table.local`` or on the machine itself (many
    Android phones cannot resolve ``.local``); a server bound to the loopback is reached only
    on the machine, so its links keep the address the request came to."""
    host, _, port = host_header.rpartition(":") if ":" in host_header else (host_header, "", "")
    if not host:
        host, port = host_header, ""
    if is_loopback(bound):
        return f"{scheme}://{host_header}"
    if not is_ip(host) or is_loopback(host):
        host = lan_ip() if bound in ("0.0.0.0", "::", "") else bound
    return f"{scheme}://{host}" + (f":{port}" if port else "")

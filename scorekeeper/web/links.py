"""Addresses the phones can reach: the configured base URL, else this machine's LAN address."""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct

from flask import current_app, request

SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, private ones first, loopback left out.
    Read from the interfaces themselves: nothing is sent on the network."""
    found = []
    for _, name in socket.if_nameindex():
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
        except OSError:
            continue
        address = ipaddress.ip_address(packed[20:24])
        if not address.is_loopback and not address.is_link_local:
            found.append(address)
    found.sort(key=lambda a: (not a.is_private, str(a)))
    return [str(a) for a in found]


def base_url() -> str:
    """Where phones should go: BASE_URL when set; the address the page was opened with when it
    is one of ALLOWED_HOSTS or an address of this machine's own; otherwise this machine's LAN
    address with the same port. Never a Host header anybody may send (`Host: evil.example`
    must not end up in the QR code: what DNS rebinding needs)."""
    configured = current_app.config.get("BASE_URL")
    if configured:
        return configured.rstrip("/")
    host = request.host
    hostname, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    ours = hostname.lower() in current_app.config.get("ALLOWED_HOSTS", ()) or hostname in lan_addresses()
    if ours and not _is_local(hostname):
        return request.host_url.rstrip("/")
    addresses = lan_addresses()
    if not addresses:
        return request.host_url.rstrip("/")
    return f"{request.scheme}://{addresses[0]}" + (f":{port}" if port else "")


def _is_local(hostname: str) -> bool:
    if hostname in ("localhost", "") or hostname.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(hostname.strip("[]")).is_loopback
    except ValueError:
        return False

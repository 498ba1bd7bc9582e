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
    address. Never a Host header anybody may send (`Host: evil.example` must not end up in the
    QR code: what DNS rebinding needs), nor its port: the port is the one this server listens
    on (`_own_port`)."""
    configured = current_app.config.get("BASE_URL")
    if configured:
        return configured.rstrip("/")
    hostname = _name_of(request.host)
    ours = hostname.lower() in current_app.config.get("ALLOWED_HOSTS", ()) or hostname in lan_addresses()
    if ours and not _is_local(hostname):
        return f"{request.scheme}://{hostname}{_own_port()}"
    addresses = lan_addresses()
    if not addresses:  # no network but the loopback: a name of this machine, or the loopback's
        addresses = [hostname if ours or _is_local(hostname) else "127.0.0.1"]
    return f"{request.scheme}://{addresses[0]}{_own_port()}"


def _own_port() -> str:
    """":8000", the port of the socket the request came in on (gunicorn's SERVER_PORT is its
    listener's); behind trusted proxies, the one they forwarded with the host (ProxyFix), none
    when they forwarded none; nothing for the scheme's own port."""
    environ = request.environ
    if "werkzeug.proxy_fix.orig" in environ and environ.get("HTTP_X_FORWARDED_HOST"):
        host = request.host
        port = host[len(_name_of(host)) + 1:]
    else:
        port = str(environ.get("SERVER_PORT") or "")
    if not (port.isascii() and port.isdigit()) or (request.scheme, port) in (("http", "80"), ("https", "443")):
        return ""
    return f":{port}"


def _name_of(host: str) -> str:
    """A Host header's name, without its port: "[::1]:8000" -> "[::1]", "pub.lan:80" -> "pub.lan"."""
    if host.startswith("["):
        return host[:host.index("]") + 1] if "]" in host else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _is_local(hostname: str) -> bool:
    if hostname in ("localhost", "") or hostname.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(hostname.strip("[]")).is_loopback
    except ValueError:
        return False

"""The network badge and the live stream when the server goes away, in real phones: a power
cut, and a stream gone silent (the Wi-Fi changed under it). Each on a server of its own, which
the test stops."""

from __future__ import annotations

import os
import signal

from playwright.sync_api import expect

from .conftest import Server, open_table


def a_live_phone(server, new_phone, language: str | None = None):
    """A phone (in `language`) at a new table of its own, its live stream open: (page, badge)."""
    page = new_phone(**({"locale": language, "extra_http_headers": {"Accept-Language": language}} if language else {}))
    page.clock.install()  # time runs as ever, and a test may run the page's timers ahead (`run_for`)
    open_table(page, server, "escalero", ("Anna", "Ben"))
    net = page.locator("#net")
    expect(net).to_have_attribute("data-state", "live")
    return page, net


def listen(page) -> None:
    """From now on, every state the network badge takes is kept in window.__said."""
    page.evaluate("""() => { window.__said = []; new MutationObserver(() => window.__said.push(
        document.querySelector('#net').dataset.state)).observe(document.querySelector('#net'), {attributes: true}); }""")


def test_through_a_power_cut_the_badge_says_the_connection_is_lost_then_live(tmp_path, new_phone):
    """The server down for seconds: the badge said "Live updates paused — refreshing every 4 s"
    while every refresh failed; it says the connection is lost until the server is back, and
    Live again within seconds of it (the stream's backoff had grown towards a minute). An entry
    tapped meanwhile is kept, and the badge said "Offline — … when the network is back" to a
    phone whose Wi-Fi was fine: it says the connection is lost, and that the entry is kept."""
    server = Server(tmp_path / "instance")
    try:
        anna, net = a_live_phone(server, new_phone, "pl-PL")
        listen(anna)
        anna.click("#board button.cell:visible[data-column='1'][data-row='P']")  # the picker opens
        anna.wait_for_selector("#tray .picker")
        server.kill()
        expect(net).to_have_attribute("data-state", "lost", timeout=10_000)
        expect(net).to_have_text("Utracono połączenie — łączę ponownie")
        anna.clock.run_for(9_000)  # two refreshes (every 4 s), every one failed
        anna.wait_for_timeout(500)
        said = anna.evaluate("window.__said")
        assert set(said) == {"lost"}, said  # never "refreshing every 4 s"
        anna.click("#tray .picker button:has-text('45')")
        expect(net).to_have_attribute("data-state", "lostKept")
        expect(net).to_have_text("Utracono połączenie — wpisy są zachowane i pójdą, gdy wróci")
        # and keeps saying so: each failed retry of the stream said "reconnecting" over it, each
        # failed resend the kept entry again, by turns (a server restarting at the pub: a screen
        # reader read both out every few seconds, and a look at the badge half the time nothing
        # of the tap the tray dimmed)
        listen(anna)
        anna.clock.run_for(20_000)
        anna.wait_for_timeout(500)
        said = anna.evaluate("window.__said")
        assert set(said) <= {"lostKept"}, said
        expect(net).to_have_attribute("data-state", "lostKept")
        server.start()
        anna.clock.run_for(5_000)  # the stream's retry, and the kept entry's
        expect(net).to_have_attribute("data-state", "live", timeout=10_000)
        expect(anna.locator("#board .history li.entry")).to_have_count(1)  # sent, once
    finally:
        server.stop()


def test_a_stream_gone_silent_is_given_up_and_asked_for_again(tmp_path, new_phone):
    """No error and no bytes (the server frozen here, as a stream is when the Wi-Fi changes under
    it): the green dot said Live over a stale board for good. After two and a half keep-alives
    of silence the phone says the connection is lost, and is live again once it answers."""
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / "config.py").write_text("KEEPALIVE_SECONDS = 1\n")
    server = Server(tmp_path / "instance")
    try:
        anna, net = a_live_phone(server, new_phone)
        anna.wait_for_timeout(3_000)  # keep-alives heard: no false alarm
        expect(net).to_have_attribute("data-state", "live")
        os.killpg(server.process.pid, signal.SIGSTOP)
        try:
            anna.clock.run_for(5_000)  # two and a half keep-alives of silence, and more
            expect(net).not_to_have_attribute("data-state", "live", timeout=10_000)
        finally:
            os.killpg(server.process.pid, signal.SIGCONT)
        expect(net).to_have_attribute("data-state", "live", timeout=10_000)
    finally:
        server.stop()


def test_offline_the_badge_stays_offline(tmp_path, new_phone):
    """The phone's Wi-Fi gone (and with it the stream): the badge said "Offline" for half a
    second, then "Connection lost — reconnecting" and "refreshing every 4 s" by turns."""
    server = Server(tmp_path / "instance")
    try:
        anna, net = a_live_phone(server, new_phone, "es-ES")
        anna.context.set_offline(True)
        anna.evaluate("window.dispatchEvent(new Event('offline'))")
        server.kill()  # Chromium's offline keeps an open stream: it ends as the Wi-Fi's would
        expect(net).to_have_attribute("data-state", "offline")
        listen(anna)
        anna.clock.run_for(10_000)  # the refreshes and stream's retries of 10 s
        anna.wait_for_timeout(500)
        said = anna.evaluate("window.__said")
        assert set(said) <= {"offline"}, said
        expect(net).to_have_text("Sin conexión — las anotaciones se guardan y se envían cuando vuelva la red")
    finally:
        anna.context.set_offline(False)
        server.stop()

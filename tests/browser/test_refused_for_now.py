"""An answer the app did not give refuses a phone "for now": a limit in front of it (nginx's per
address, docs/nginx.conf: a pub's phones behind one router, tapping fast; the worker's caps,
scorekeeper/worker.py) or nginx with the server restarting behind it (502). None carries words
a phone shows, and a refused entry was dropped from the phone's queue without a sign: the
player's tap was lost. Now the phone says the tap is not through yet, in its language, keeps
the entry pending and sends it again; a refused tray is asked for again — and so is a tray
that got no answer at all, the phone offline, once the network is back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.worker import TOO_FAST

from .conftest import enter_for_all, open_table, seat, sit
from .test_turn import throw, wait_entries

NGINX = ("<html>\r\n<head><title>{0}</title></head>\r\n<body>\r\n"
         "<center><h1>{0}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
NGINX_429 = NGINX.format("429 Too Many Requests")
WORKER_429 = TOO_FAST.split(b"\r\n\r\n", 1)[1].decode()  # the worker's own: plain words, Retry-After: 5


def refuse_once(page, path: re.Pattern, method: str, body: str, headers: dict, status: int = 429,
                held: list | None = None) -> list[str]:
    """The next `method` request to `path` is answered so — and every one after it while `held`
    holds anything (the test empties it once it has looked); the URLs refused. (The phone's
    service worker is blocked: a request it passes on is not the page's to route.)"""
    refused: list[str] = []

    def handle(route):
        if route.request.method == method and (not refused or held):
            refused.append(route.request.url)
            route.fulfill(status=status, body=body, headers=headers)
        else:
            route.continue_()

    page.route(path, handle)
    return refused


@pytest.mark.parametrize("status, body, headers", [
    (429, WORKER_429, {"Content-Type": "text/plain; charset=utf-8", "Retry-After": "5"}),
    (502, NGINX.format("502 Bad Gateway"), {"Content-Type": "text/html"}),
], ids=["the worker's rate", "nginx, the server restarting"])
def test_an_entry_refused_for_now_stays_pending_says_so_and_goes_through(server, new_phone, status, body, headers):
    link = open_table(new_phone(), server, "yatzy", ("Anna", "Ben"))
    anna, ben = seat(new_phone, link, ("Anna", "Ben"), locale="de-DE", service_workers="block").values()
    throw(anna, [1, 1, 1, 2, 3])
    # refused until the phone has been looked at: its resend (every 3 s) came before the look
    # on a loaded machine, and the cell was no longer pending
    held = [True]
    refused = refuse_once(anna, re.compile(r"/yatzy/score$"), "POST", body, headers, status, held)
    anna.click("#tray button.option[data-box='1']")
    expect(anna.locator("#message")).to_contain_text("Noch nicht durch")  # de: not through yet, kept
    expect(anna.locator("#message [data-busy]")).to_have_attribute("role", "status")  # news, not a refusal
    expect(anna.locator("#y0-1.pending")).to_have_count(1)
    assert "Too many requests" not in anna.inner_text("body") and "nginx" not in anna.inner_text("body")
    held.clear()
    wait_entries(ben, 1)  # sent again by the phone, without another tap, and counted once
    wait_entries(anna, 1)
    expect(anna.locator("#message")).to_be_empty()
    assert refused and ben.inner_text("#y0-1") == "3" and anna.locator("#y0-1.pending").count() == 0


def test_a_tray_refused_for_now_is_asked_for_again(server, new_phone):
    link = open_table(new_phone(), server, "yatzy", ("Anna", "Ben"))
    anna = seat(new_phone, link, ("Anna",), locale="es-ES", service_workers="block")["Anna"]
    for face in (1, 1, 1, 2):
        anna.click(f"#tray [data-face='{face}']")
    anna.wait_for_function("() => document.querySelector('#tray input[name=dice]').defaultValue === '1,1,1,2'")
    refused = refuse_once(anna, re.compile(r"/tray\?"), "GET", NGINX_429, {"Content-Type": "text/html"})
    anna.click("#tray [data-face='3']")
    expect(anna.locator("#message")).to_contain_text("Aún no ha llegado")
    assert "nginx" not in anna.inner_text("#tray")  # the proxy's page is no part of the tray
    anna.wait_for_selector("#tray .tray-options[data-for='1,1,1,2,3'] .option")  # asked again
    expect(anna.locator("#message")).to_be_empty()
    assert len(refused) == 1


def test_a_tap_that_is_no_entry_refused_for_now_asks_for_another(server, new_phone):
    """Sitting down is not kept to be sent again: the phone says to tap again, and that tap works.
    And the page's live stream refused as it began (a pub's phones behind one router past nginx's
    cap on one address's connections, or someone filling it): hx-sse retries only a stream that
    began, so the board stood as the page opened for good, its badge silent. The phone polls and
    asks for its stream again: the host sitting down reaches it, and it is live."""
    host = new_phone()
    link = open_table(host, server, "yatzy", ("Anna", "Ben"))
    ben = new_phone(locale="pl-PL", service_workers="block")
    streams = refuse_once(ben, re.compile(r"/live\?"), "GET", NGINX_429,
                          {"Content-Type": "text/html", "Retry-After": "1"})  # (asked again 2 s on)
    ben.goto(link)
    refused = refuse_once(ben, re.compile(r"/join$"), "POST", NGINX_429, {"Content-Type": "text/html"})
    ben.click("#join button:has-text('Ben')")
    expect(ben.locator("#message")).to_contain_text("Stuknij ponownie")
    sit(ben, "Ben")
    expect(ben.locator("#message")).to_be_empty()
    assert len(refused) == 1
    sit(host, "Anna")
    expect(ben.locator("#stamp")).to_have_attribute("value", host.locator("#stamp").get_attribute("value"))
    expect(ben.locator("#net")).to_have_attribute("data-state", "live", timeout=10_000)
    assert len(streams) == 1


def test_a_tray_asked_for_offline_comes_when_the_network_is_back(server, new_phone):
    """Dice tapped with the network gone: their tray never came, and back online the phone kept
    five dice with "3 more" and no options (and said it was offline) until another tap."""
    link = open_table(new_phone(), server, "yatzy", ("Anna", "Ben"))
    anna = seat(new_phone, link, ("Anna",), locale="de-DE")["Anna"]
    for face in (1, 1):
        anna.click(f"#tray [data-face='{face}']")
    anna.wait_for_function("() => document.querySelector('#tray input[name=dice]').defaultValue === '1,1'")
    anna.context.set_offline(True)
    for face in (1, 2, 3):
        anna.click(f"#tray [data-face='{face}']")
    anna.wait_for_timeout(300)
    assert anna.locator("#tray .option").count() == 0
    anna.context.set_offline(False)
    anna.wait_for_selector("#tray .tray-options[data-for='1,1,1,2,3'] .option")  # no other tap
    expect(anna.locator("#net")).not_to_have_attribute("data-state", "offline")


def test_a_tray_answered_after_the_turn_was_entered_leaves_the_fresh_tray(server, new_phone):
    """Found behind nginx at a script's pace: the host's phone (which writes for every seat)
    asked for its tray with five dice, the turn was entered meanwhile, and the late answer put
    those five dice back on the phone, which then took no more taps (five tapped). The late
    answer is no longer swapped in, and the server, asked for taps on a board that an entry has
    left behind, sends the fresh tray."""
    anna = new_phone(service_workers="block")
    link = open_table(anna, server, "yatzy", ("Anna", "Ben"))
    sit(anna, "Anna")
    for face in (1, 1, 1, 2):
        anna.click(f"#tray [data-face='{face}']")
    anna.wait_for_function("() => document.querySelector('#tray input[name=dice]').defaultValue === '1,1,1,2'")
    held = []
    anna.route(re.compile(r"/tray\?"), lambda route: held.append(route))
    anna.click("#tray [data-face='3']")
    anna.wait_for_timeout(300)
    assert len(held) == 1  # its tray asked for, and held
    enter_for_all(anna, link.rsplit("/", 1)[-1], [{"type": "score", "player": "Anna", "box": "1", "value": 3}])
    wait_entries(anna, 1)  # the live update: Ben's turn, the host's tray fresh for it
    held[0].continue_()
    anna.wait_for_timeout(800)
    assert anna.evaluate("document.querySelector('#tray input[name=dice]').value") == ""
    assert anna.locator("#tray .tray-options[data-for='1,1,1,2,3']").count() == 0


def test_a_question_opened_on_a_tray_is_not_closed_by_an_older_refusal_s_retry(server, new_phone):
    """Found behind nginx at a script's pace, on a phone turned sideways: a die's tray was
    refused for now, the next die's came, and the player tapped a cross-out, which asks first;
    then the refused tray's retry came, a second later, with the same five dice, and closed the
    question before its answer could be tapped. Each refusal had its own retry (four went after
    one turn). Now a tray asked for since does away with a retry, and one waits at a time."""
    link = open_table(new_phone(), server, "escalero", ("Anna", "Ben"))
    anna = seat(new_phone, link, ("Anna",), service_workers="block")["Anna"]
    for face in (1, 2, 3):
        anna.click(f"#tray [data-face='{face}']")
    anna.wait_for_function("() => document.querySelector('#tray input[name=dice]').defaultValue === '1,2,3'")
    refused = refuse_once(anna, re.compile(r"/tray\?"), "GET", NGINX_429, {"Content-Type": "text/html"})
    anna.click("#tray [data-face='4']")
    expect(anna.locator("#message")).to_contain_text("Not through yet")
    anna.click("#tray [data-face='6']")  # asked for at once, and it comes
    anna.wait_for_selector("#tray .tray-options[data-for='1,2,3,4,6'] details.option")
    asked = []
    anna.on("request", lambda request: "/tray?" in request.url and asked.append(request.url))
    cross = anna.locator("#tray details.option").first
    cross.locator("summary").click()
    anna.wait_for_timeout(1500)  # the refusal's retry was due a second after it
    assert asked == [] and len(refused) == 1
    expect(cross.locator("button")).to_be_visible()
    cross.locator("button").click()
    wait_entries(anna, 1)

"""Many nodes: a table's links and code name its node, and a code typed on another node's home
page is sent on to its own (tests/reliability/test_nodes.py runs two nodes behind nginx)."""

from __future__ import annotations

import re

import pytest

from scorekeeper import create_app, service
from tests.support import Phone


def node_app(tmp_path, node: str, **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{node or 'only'}.db"), "SECRET_KEY": "shared",
                       "NODE": node, "STREAM_SECONDS": 1, "KEEPALIVE_SECONDS": 0.2, **config})


def code_of(phone: Phone, token: str) -> str:
    return re.search(r"Code <b>([A-Z0-9]+)</b>", phone.get(f"/t/{token}").get_data(as_text=True)).group(1)


def test_a_node_s_tables_carry_its_character(tmp_path):
    host = Phone(node_app(tmp_path, "b"))  # written in either case
    token = host.open_table()
    page = host.get(f"/t/{token}").get_data(as_text=True)
    board = re.search(r'/b/([\w.-]+)"', page).group(1)
    code = code_of(host, token)
    assert token.startswith("B.") and board.startswith("B.") and len(token) == 24
    assert len(code) == 7 and code[0] == "B" and set(code) <= set(service.CODE_ALPHABET)
    # a new join link and code stay on the node
    host.write(f"/t/{token}/settings", {"new_link": "yes"})
    table = service.by_board_token(service.store.connect(str(tmp_path / "b.db")), board)
    assert table["join_token"].startswith("B.") and table["join_token"] != token and table["code"][0] == "B"


def test_a_single_server_keeps_its_six_characters(tmp_path):
    host = Phone(node_app(tmp_path, ""))
    token = host.open_table()
    assert "." not in token and len(code_of(host, token)) == 6


def test_a_node_must_be_one_character_of_the_codes(tmp_path):
    for wrong in ("AB", "0", "I", "é"):
        with pytest.raises(ValueError, match="NODE must be one character"):
            node_app(tmp_path, wrong)


def test_a_code_of_another_node_is_sent_there(tmp_path):
    node_a, node_b = node_app(tmp_path, "A"), node_app(tmp_path, "B")
    host = Phone(node_b)
    token = host.open_table()
    code = code_of(host, token)
    guest = Phone(node_a)  # the proxy gave this phone node A's home page
    sent = guest.post("/join", {"code": code.lower()}, fetch=False)
    assert sent.status_code == 307 and sent.headers["Location"] == "/n/B/join"
    # the proxy routes /n/B/… to node B, which answers as its /join (the same cookie: one secret key)
    arrived = Phone(node_b)
    arrived.client.set_cookie("session", guest.cookie)
    arrived.csrf = guest.csrf
    found = arrived.post("/n/B/join", {"code": code}, fetch=False)
    assert found.status_code == 303 and found.headers["Location"].endswith(f"/t/{token}")
    # its own codes, and the six of a table made before the nodes, a node looks up itself
    assert host.post("/join", {"code": code}, fetch=False).status_code == 303
    assert guest.post("/join", {"code": "ABCDEF"}, fetch=False).status_code == 404


def test_a_request_routed_to_a_node_is_answered_there(tmp_path):
    """Found or not: a misrouted /n/<node>/ request is never sent on again (no loop)."""
    node_a = node_app(tmp_path, "A")
    guest = Phone(node_a)
    answer = guest.post("/n/B/join", {"code": "BCDEFGH"}, fetch=False)
    assert answer.status_code == 404 and "No table has the code BCDEFGH" in answer.get_data(as_text=True)


def test_an_import_naming_a_table_of_another_node_goes_there(tmp_path):
    guest = Phone(node_app(tmp_path, "A"))
    sent = guest.post("/import", {"text": "{}", "played_at": "BXXXXXX"}, fetch=False)
    assert sent.status_code == 307 and sent.headers["Location"] == "/n/B/import"
    assert guest.post("/import", {"text": "{}", "played_at": ""}, fetch=False).status_code == 400  # read here

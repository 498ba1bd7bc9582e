"""A pub's slow Wi-Fi: a tap whose answer takes seconds is tapped again meanwhile (htmx sends
the second tap once the first is answered), or its answer is lost and it is sent again. Each
counts once, and its answer is the table as the server has it."""

from __future__ import annotations

from tests.support import writes
from tests.test_web_tables import game, play_out  # noqa: F401 (a fixture)
from tests.test_web_yatzy import said


def test_a_rematch_tapped_twice_on_slow_wi_fi_starts_one_game(game, app):
    """The second tap of a rematch, sent once the first was answered, was refused "A new game
    has started since: check the board", the refusal standing over the new game the first tap
    had started. The button carries its key: the second tap is the same rematch, answered with
    the board, and one game is started."""
    host, anna, ben, token = game
    play_out(anna, ben, token, app)
    change = anna.board_change(token)
    [button] = writes(anna.get(f"/t/{token}/board").get_data(as_text=True), "/rematch")
    assert button["vals"].get("idem"), button
    first = anna.write(f"/t/{token}/rematch", button["vals"], change=change)
    again = anna.write(f"/t/{token}/rematch", button["vals"], change=change)
    assert first.status_code == again.status_code == 200, said(again)
    assert "new game has started" not in said(again) and 'id="stamp"' in said(again)
    assert anna.board_change(token) == ben.board_change(token)
    board = anna.get(f"/t/{token}/board").get_data(as_text=True)
    assert "Rematch" not in board  # one game started, not finished
    from tests.test_web_tables import events_of
    assert events_of(app, token).row["number"] == 2
    # another phone's rematch made on the finished board is told a new game began, as before
    late = ben.write(f"/t/{token}/rematch", {"idem": f"{change}-rematch"}, change=change)
    assert late.status_code == 409 and "new game has started" in said(late)

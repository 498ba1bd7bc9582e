"""The stake as a host types it on the new-table form, on a phone keyboard, in their own
language: what is plain (a comma for the decimals, the table's currency sign, cents, a
thousands separator that cannot be the decimals') opens the table with the stake meant;
what is not is refused in words that say what to type, with what was typed kept."""

from __future__ import annotations

import html
import json

import pytest

from scorekeeper import service, store


def opened(app, phone, stake, currency=None) -> dict:
    """The rules of the table opened with `stake` (and `currency`) typed on the form."""
    host = phone()
    data = {"player": ["Anna", "Ben"], "rule_stake": stake, **({"rule_currency": currency} if currency is not None else {})}
    response = host.post("/new/escalero", data, fetch=False)
    assert response.status_code == 303, html.unescape(response.get_data(as_text=True))
    token = response.headers["Location"].rsplit("/", 1)[-1]
    db = store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])
    header = json.loads(service.current_game(db, service.by_join_token(db, token)["id"])["header"])
    return header.get("rules", {})


@pytest.mark.parametrize("typed, currency, stake, code", [
    (",5", None, "0.5", None), (".5", None, "0.5", None), ("0,50", "", "0.50", None),
    ("50c", None, "0.50", None), ("50 ct", "eur", "0.50", "EUR"), ("€0.50", None, "0.50", None),
    ("0,50 €", "€", "0.50", "EUR"), ("0,50€", None, "0.50", None), ("1.000,00", None, "1000.00", None),
    ("1,000.00", None, "1000.00", None), (" 0.50 ", None, "0.50", None), ("0,50 zł", "PLN", "0.50", "PLN"),
    ("0,50", "zł", "0.50", "PLN"), ("0,50 PLN", "pln", "0.50", "PLN"), ("50 gr", "PLN", "0.50", "PLN"),
    ("0,500000000000", None, "0.50", None), ("٣", None, "3", None), ("０.５０", None, "0.50", None),
    ("٠٫٥٠", None, "0.50", None),
])
def test_a_stake_typed_as_a_pub_types_it_opens_the_table(app, phone, typed, currency, stake, code):
    rules = opened(app, phone, typed, currency)
    assert rules["stake"] == stake
    assert rules.get("currency", "EUR") == (code or "EUR")


@pytest.mark.parametrize("typed, currency, said", [
    ("abc", None, "Stake per game point: “abc” is not an amount: type one like 0.50, or leave it empty"),
    ("1e3", None, "“1e3” is not an amount"),
    ("-1", None, "Stake per game point: “-1” is below zero, and a stake cannot be: type what the losers pay, like 0.50"),
    ("−0.50", None, "“−0.50” is below zero"),
    ("0.505", None, "Stake per game point: “0.505” has more than two decimals: type at most two, like 0.50."),
    ("1.000", None, "“1.000” could mean thousands or decimals: type it without a thousands separator"),
    ("€0.50", "PLN", "“€0.50” is not in PLN, the table's currency: type the amount alone, like 0.50, "
                     "and the currency in its own field."),
    ("0.50", "$", "Currency: “$” is the sign of several currencies: type the three letters of yours, like USD"),
    ("1000000", None, "“1000000” is more than a stake can be: type less than a million."),
    ("0.50", "euros!", "Currency: “euros!” is no currency code: type its three letters, like EUR, PLN or GBP."),
])
def test_a_stake_that_is_no_plain_amount_is_refused_saying_what_to_type(app, phone, typed, currency, said):
    host = phone()
    data = {"player": ["Anna", "Ben"], "rule_stake": typed, **({"rule_currency": currency} if currency else {})}
    response = host.post("/new/escalero", data, fetch=False)
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 400
    assert said in page and f"'{typed}'" not in page and f"'{currency}'" not in page
    assert f'name="rule_stake" value="{typed}"' in page  # kept for the host to mend


def test_the_refusal_quotes_and_writes_amounts_as_the_host_s_language_does(phone):
    host = phone().speaking("de")
    response = host.post("/new/escalero", {"player": ["Anna", "Ben"], "rule_stake": "abc"}, fetch=False)
    page = html.unescape(response.get_data(as_text=True))
    assert "„abc“" in page and "0,50" in page and "'abc'" not in page
    assert 'name="rule_stake" value="abc"' in page

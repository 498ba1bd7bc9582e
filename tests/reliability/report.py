"""Fill the figures of the last reliability run into docs/reliability.md.

    .venv/bin/pytest tests/reliability -p no:cacheprovider   # writes build/reliability.json
    .venv/bin/python tests/reliability/report.py              # rewrites the table in the doc

The table sits between the `figures:start` and `figures:end` markers of docs/reliability.md;
everything else in the doc is left as it is.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = Path(os.environ.get("SCOREKEEPER_FIGURES") or ROOT / "build" / "reliability.json")
DOC = ROOT / "docs" / "reliability.md"
START, END = "<!-- figures:start -->", "<!-- figures:end -->"
R = "tests/reliability/"

# (guarantee, the tests that prove it, section of the figures, what the last run showed)
ROWS = [
    ("Every entry the app confirmed survives a crash of the server (`kill -9` of every process, "
     "mid-load, at random moments): nothing lost, nothing half-written, SQLite's integrity check "
     "ok, every board renders after the restart.",
     [R + "test_crash.py::test_kill_9_mid_load_loses_no_acknowledged_entry"], "crash",
     "{crashes} crashes survived; {entries_acknowledged} entries confirmed, {entries_lost} lost; "
     "{tables} tables; {boards_rendered} boards rendered after restarts"),
    ("A phone that got no answer resends its entry with the same key: it is counted once, "
     "whether or not the first attempt was written before the crash.",
     [R + "test_crash.py::test_kill_9_mid_load_loses_no_acknowledged_entry"], "crash",
     "{requests_resent} resends while the server was down; {in_flight_entries_found_written} "
     "entries written just before a crash, counted once"),
    ("Phones racing for one turn — the same cell, the same turn, the same deal, the same round — "
     "make one entry; every other phone gets a refusal that says why.",
     [R + "test_concurrency.py::test_same_cell_from_the_player_and_the_host",
      R + "test_concurrency.py::test_same_turn_from_the_player_and_the_host",
      R + "test_concurrency.py::test_same_deal_from_every_phone",
      R + "test_concurrency.py::test_same_round_from_every_phone"], "concurrency",
     "{races} races, {requests} simultaneous requests, {refusals} losers told why, "
     "{entries_written} entries, no turn with two"),
    ("The same request sent many times at once (a bad network) is written once; an undo raced by "
     "the writer and the host happens once; a seat goes to one phone.",
     [R + "test_concurrency.py::test_a_retry_storm_with_one_idempotency_key_writes_once",
      R + "test_concurrency.py::test_undo_from_the_writer_and_the_host_at_once",
      R + "test_concurrency.py::test_one_seat_many_phones"], "concurrency",
     "{retries_deduplicated} duplicate requests absorbed; {undos_raced} undo races"),
    ("All of this holds across worker processes: the log stays a legal game.",
     [R + "test_concurrency.py::test_the_log_stays_legal_and_both_workers_served"], "concurrency",
     "{worker_processes} worker processes both serving; {games_checked} games folded legally"),
    ("No input makes the server fail: random, oversized, wrong-typed and unicode fields, missing "
     "and extra fields, forged, tampered or expired cookies, wrong table links, other sessions' "
     "CSRF tokens — on every route. A refusal has a readable message and writes nothing.",
     [R + "test_fuzz.py::test_fuzz_route", R + "test_fuzz.py::test_every_route_is_fuzzed",
      R + "test_fuzz.py::test_faults_found_by_fuzzing_stay_fixed"], "fuzz",
     "{http_cases} random requests, 0 server errors; {http_refusals} refusals, each readable and "
     "writing nothing; {http_unauthorised_refused} without the right cookie and token, all refused; "
     "{regressions_checked} inputs that once failed, now refused"),
    ("`scorekeeper replay` and `import` refuse a malformed log with exit status 2 and one line, "
     "never a traceback; a refused import writes nothing.",
     [R + "test_fuzz.py::test_fuzz_replay_command", R + "test_fuzz.py::test_fuzz_import_command",
      R + "test_fuzz.py::test_the_real_command_refuses_bad_files_in_one_line"], "fuzz",
     "{cli_cases} malformed or mutated logs; {cli_refusals} refused in one line"),
    ("A device that has not joined cannot write: every state-changing route, tried by a stranger, "
     "a phone from another table and the board link, is refused and writes nothing (the host's "
     "same request then succeeds).",
     [R + "test_access.py::test_outsiders_cannot_write_where_the_host_can",
      R + "test_access.py::test_every_state_changing_route_is_classified"], "access",
     "{outsider_writes_refused} outsider attempts refused"),
    ("A joined phone writes only for its own side (the host, or a scribe, for every side).",
     [R + "test_access.py::test_a_player_writes_only_for_their_own_side",
      "tests/test_web_tables.py::test_turns_and_permissions",
      "tests/test_web_tables.py::test_a_scribe_writes_for_every_side_and_is_no_side"], "access",
     "{other_side_writes_refused} writes for another side refused"),
    ("The read-only board link cannot write and shows no way in: no join link, no short code "
     "(the big-screen page excepted, by design: see the limits below). No write of any route goes through "
     "it, joining included (its join once sat strangers at a seat: a viewer without a device is read-only).",
     [R + "test_access.py::test_the_read_only_board_shows_no_way_in",
      "tests/test_web_tables.py::test_read_only_board_cannot_write",
      "tests/test_web_tables.py::test_the_board_link_seats_nobody_and_writes_nothing"], "access", "—"),
    ("Join and board links are unguessable; device ids and CSRF tokens too.",
     [R + "test_access.py::test_tokens_are_unguessable"], "access",
     "{token_bits}-bit link tokens ({tokens_checked} checked, all different); {csrf_bits}-bit CSRF tokens"),
    ("The typed short code is rate-limited against guessing, per address and per IPv6 /48 or IPv4 /24, across "
     "worker processes and under a burst.",
     [R + "test_access.py::test_the_short_code_is_rate_limited_per_address",
      R + "test_access.py::test_the_short_code_is_rate_limited_per_network_too",
      R + "test_access.py::test_the_rate_limit_holds_across_workers_and_under_a_burst"], "access",
     "{wrong_codes_per_address_per_10_min} wrong codes per address and {wrong_codes_per_network_per_10_min} "
     "per IPv6 /48 or IPv4 /24 per 10 minutes, out of {short_code_space:,} codes; {guesses_rate_limited} guesses held back"),
    ("Cookies are signed, HttpOnly and SameSite; a tampered cookie is a stranger.",
     [R + "test_access.py::test_a_tampered_cookie_is_a_stranger",
      R + "test_access.py::test_the_rate_limit_holds_across_workers_and_under_a_burst",
      "tests/test_web_tables.py::test_forged_cookie_is_a_stranger"], "access", "—"),
    ("Every state-changing request needs the session's CSRF token; reading never writes.",
     [R + "test_access.py::test_every_state_changing_route_needs_the_sessions_csrf_token",
      R + "test_access.py::test_reading_never_writes"], "access",
     "{csrf_refusals} requests with a missing or foreign token refused"),
    ("A Content-Security-Policy without inline scripts, on every page and fragment a browser can open (our script's own requests excepted: never a document).",
     [R + "test_access.py::test_a_content_security_policy_without_inline_scripts_on_every_page"], "access",
     "{pages_checked_for_inline_script} pages and fragments checked"),
    ("Player names with markup render as text, on every screen of every game.",
     [R + "test_access.py::test_names_with_markup_render_as_text_everywhere"], "access",
     "{screens_checked_for_markup} screens checked"),
    ("`scorekeeper backup FILE` copies the live database consistently while entries are made; "
     "the copy restores to the same tables; a bad target is refused in one line.",
     [R + "test_backup.py::test_backup_of_a_live_database_is_consistent_and_restores",
      R + "test_backup.py::test_backup_refuses_in_one_line_and_never_leaves_half_a_file"], "backup",
     "{backups_taken_while_writing} backups while writing ({entries_in_copies} entries checked "
     "in them); {tables_restored} tables restored identical; {bad_targets_refused} bad targets refused"),
    ("`scorekeeper restore FILE` after a crash gives back exactly the backup: refused while a server "
     "runs, the crash's stale -wal and -shm removed, the file checked and swapped in atomically.",
     [R + "test_backup.py::test_restore_after_a_crash_gives_back_exactly_the_backup"], "backup",
     "{restores_after_a_crash} restore after kill -9, integrity ok, the backup row for row"),
    ("With `REPLICA_URL`, the machine can die: after `kill -9` of Litestream and every server "
     "process at a random moment and the instance folder deleted, `scorekeeper restore "
     "--from-replica` on a fresh folder gives back every entry acknowledged more than a second "
     "before (integrity ok, every game folds, no table's change id goes back for a phone); the "
     "phones play on with their cookies, and a clean stop ships everything. A folder replica and "
     "an S3-compatible one (moto's server). A Litestream that dies under a running server is started again.",
     [R + "test_replica.py::test_a_machine_that_dies_comes_back_from_a_folder_replica",
      R + "test_replica.py::test_a_machine_that_dies_comes_back_from_an_s3_replica",
      R + "test_replica.py::test_a_litestream_that_dies_is_started_again"], "replica",
     "{file_kills} + {s3_kills} machines killed (folder + S3); {file_entries_acknowledged} + "
     "{s3_entries_acknowledged} entries acknowledged, {file_entries_lost} + {s3_entries_lost} of the "
     "last moments lost, the oldest {file_oldest_lost_seconds} / {s3_oldest_lost_seconds} s before "
     "the kill; restored in {file_restore_seconds} / {s3_restore_seconds} s"),
    ("A busy evening comes back from the replica in seconds.",
     [R + "test_replica.py::test_restoring_a_busy_evening"], "replica",
     "{evening_entries:,} entries at {evening_tables} tables ({evening_database_mb} MB): restored in "
     "{evening_restore_seconds_file} s from a folder, {evening_restore_seconds_s3} s from S3 (loopback)"),
    ("A load balancer asks `/healthz` (the database takes a write, its migrations are this code's, "
     "the live watcher runs): 200, or 503 saying what is wrong. Prometheus metrics, off unless "
     "`METRICS_PORT`, on the loopback only, add up every worker's counts.",
     ["tests/test_health.py::test_a_healthy_server_says_so_to_any_host_without_a_cookie",
      "tests/test_health.py::test_a_database_that_takes_no_write_is_a_503",
      "tests/test_health.py::test_migrations_that_are_not_this_code_s_are_a_503",
      "tests/test_health.py::test_a_live_watcher_that_cannot_run_is_a_503",
      R + "test_metrics.py::test_health_and_metrics_across_workers"], "metrics",
     "{entries_counted} entries made over new connections, counted once in the sum of "
     "{workers_summed} workers' files"),
    ("Two nodes behind one address (docs/nginx-nodes.conf): tables opened through the proxy land "
     "on either, their phones play and get live updates through it, and a table's code typed on "
     "either node's home page finds it.",
     [R + "test_nodes.py::test_two_nodes_serve_tables_side_by_side",
      R + "test_nodes.py::test_a_code_typed_on_either_node_finds_the_table"], "nodes",
     "{tables_played} tables played, one on each node; {codes_sent_on} codes typed on the other node sent on"),
    ("Nobody floods the server: tables and imports are limited per device and per address per hour "
     "and per minute (a 429 that says why, its Retry-After when the same request would go through; nothing "
     "written); a log of more than 2,000 events is refused.",
     [R + "test_moderation.py::test_tables_and_imports_per_device_and_address_are_limited",
      R + "test_moderation.py::test_tables_and_imports_in_a_burst_are_limited_per_minute",
      R + "test_moderation.py::test_a_log_of_thousands_of_redeals_is_refused"], "moderation",
     "{tables_refused} tables and {imports_refused} imports refused past the hour's limits, "
     "{burst_refused} past the minute's; {tables_per_device_per_hour} tables a phone an hour"),
    ("The host throws a troublemaker out for good (no entry, undo or seat again, rematch included), "
     "can make new seats wait for a yes, and can retire the join link.",
     [R + "test_moderation.py::test_the_host_removes_a_phone_for_good",
      R + "test_moderation.py::test_new_seats_wait_for_the_host_s_yes",
      R + "test_moderation.py::test_a_new_join_link_shuts_the_old_one"], "moderation",
     "{removed_phone_refusals} writes and seats of a removed phone refused"),
    ("Statistics are this phone's business: only the tables it hosted or sat at; an imported log's "
     "money does not count (unless a host confirms it, below); each finished game is summarised once, "
     "never the whole database in a request; an imported game is summarised when it comes in.",
     [R + "test_moderation.py::test_statistics_are_this_phone_s_and_imported_money_is_not_counted",
      R + "test_moderation.py::test_players_stays_fast_with_ten_thousand_games_in_the_database",
      R + "test_moderation.py::test_an_imported_game_is_folded_at_import_not_by_the_statistics"], "moderation",
     "/players in {players_ms_with_10000_games} ms with 10,000 other games in the database"),
    ("Every entry from a phone names the board it was made on: the same round posted by three "
     "phones is stored once.",
     [R + "test_moderation.py::test_an_entry_must_say_which_board_it_was_made_on"], "moderation",
     "{same_round_refused} copies of one round refused"),
    ("No name impersonates another: names are NFKC without invisible or direction-control "
     "characters, and two that look alike (TR39 skeletons) are refused at one table. Nested JSON "
     "is a 400; the secret key is never read half-written; new databases migrate once.",
     [R + "test_moderation.py::test_names_that_look_alike_are_refused",
      R + "test_moderation.py::test_deeply_nested_json_is_a_400_with_words",
      R + "test_moderation.py::test_the_secret_key_is_never_read_half_written"], "moderation", "—"),
    ("An imported game's money counts only when the host of the real table it names confirms it: not "
     "a player there, the importer, a stranger with the link, a removed phone or the board link; a table "
     "one hosts oneself must be real (not imported, with play, the log's players seated); a game changed "
     "after it named the table, or named twice, does not count; the table field guesses no codes.",
     [R + "test_claims.py::test_the_importer_cannot_confirm_their_own_claim",
      R + "test_claims.py::test_only_the_host_s_phone_confirms",
      R + "test_claims.py::test_a_table_one_hosts_oneself_must_be_a_real_one",
      R + "test_claims.py::test_a_game_changed_after_it_named_the_table_does_not_count",
      R + "test_claims.py::test_the_same_game_counts_once",
      R + "test_claims.py::test_the_table_field_does_not_guess_codes"], "claims",
     "{answers_refused} answers by others refused; {claims_refused} claims of tables they may not name "
     "refused; {changed_claims_refused} changed games refused; {codes_guessed_refused} code guesses held back"),
    ("Without a proxy, one address cannot take every connection or the CPU: past 64 connections "
     "a worker its connections get a 429 at once (slowloris, bodies never sent), past 10 requests "
     "a second (a burst of 20) its requests get a 429 after a second's wait, a page's files counted "
     "apart (20 a second, a burst of 100: a pub's phones behind one router); other phones are "
     "served meanwhile. Behind a trusted proxy, the proxy's limits do this.",
     [R + "test_internet.py::test_one_address_cannot_hold_every_connection",
      R + "test_internet.py::test_one_address_cannot_take_the_cpu",
      R + "test_internet.py::test_a_page_s_files_have_a_rate_of_their_own",
      R + "test_internet.py::test_the_caps_are_off_behind_a_trusted_proxy"], "moderation",
     "past the cap: {slow_connections_refused} half-sent connections refused; past the rate: "
     "{flood_requests_refused} refused"),
    ("Without a proxy, one address holds at most 16 live streams of the whole server, board links' "
     "included, and a table's link at most 64: past them a 429 in the phone's language before the app "
     "sees it (the page polls instead); another address or link is served, and a stream that ends "
     "gives its place back.",
     [R + "test_internet.py::test_one_address_holds_so_many_live_streams",
      R + "test_internet.py::test_a_stream_past_the_cap_is_told_in_the_phone_s_language"], "moderation",
     "past the cap: {streams_refused} streams refused"),
    ("A big game's history comes a page at a time, on the join link only (an imported log of 2,000 "
     "events; a table of hundreds of games); the read-only board shows its newest rows; a long fold "
     "or page lets the worker's other requests run every 5 ms (bench/history.py times every route).",
     ["tests/test_web_history.py::test_a_big_game_s_history_comes_a_page_at_a_time",
      "tests/test_web_history.py::test_the_board_s_earlier_entries_come_a_page_at_a_time_on_the_join_link_only",
      "tests/test_web_history.py::test_a_big_game_s_pages_let_the_worker_s_other_requests_run",
      "tests/test_web_history.py::test_a_table_of_many_games_shows_them_a_page_at_a_time",
      "tests/test_service.py::test_a_long_game_s_correction_is_checked_without_the_write_lock"], "moderation", "—"),
    ("One table's changes cost its live streams at most a message every 250 ms a worker, rendered, "
     "framed and deflated once for every stream of one kind; the changes between fold into the next.",
     ["tests/test_web_board.py::test_many_streams_of_one_kind_get_one_render_and_one_deflate",
      "tests/test_web_board.py::test_a_table_s_streams_get_a_message_at_most_every_so_often"], "moderation", "—"),
    ("On the internet, behind a reverse proxy: only trusted proxies' forwarded addresses count, "
     "IPv6 by its /64; the server answers only to its hosts and the join link never follows a "
     "Host header; cookies expire after a month and go over HTTPS only there; short codes expire; "
     "docs/nginx.conf cuts slow clients off and passes live streams through.",
     [R + "test_internet.py::test_behind_a_proxy_one_attacker_does_not_lock_everyone_out",
      R + "test_internet.py::test_ipv6_counts_by_its_64",
      R + "test_internet.py::test_the_join_link_never_follows_the_host_header",
      R + "test_internet.py::test_cookies_expire_and_go_only_over_https_behind_tls",
      R + "test_internet.py::test_short_codes_expire",
      R + "test_proxy.py::test_pages_and_live_streams_come_through",
      R + "test_proxy.py::test_a_slow_client_is_cut_off",
      R + "test_proxy.py::test_the_limits_count_the_phone_not_the_proxy"], "moderation", "—"),
    ("docs/nginx.conf as a pub on the internet meets it: the phones behind the pub's one address "
     "open a table's link and sit down at once, and enter results while thirty of them watch "
     "their live boards; what nginx refuses or cuts off itself writes nothing to its logs; the "
     "files, TLS lines included, start on Debian 12's nginx.",
     [R + "test_proxy.py::test_a_pub_s_phones_behind_one_address_join_a_table_at_once",
      R + "test_proxy.py::test_a_pub_s_phones_behind_one_address_hold_their_live_boards_and_still_write",
      R + "test_proxy.py::test_an_attack_s_refusals_write_nothing_to_the_logs",
      R + "test_proxy.py::test_the_whole_file_with_its_tls_lines_is_one_nginx_takes"], "moderation", "—"),
]


class Missing(dict):
    def __missing__(self, key):
        return "?"


def render(figures: dict) -> str:
    lines = ["| Guarantee | Proven by | Last run |", "|---|---|---|"]
    for guarantee, tests, section, template in ROWS:
        counts = Missing(figures.get(section, {}))
        try:
            shown = template.format_map(counts)
        except (ValueError, TypeError):  # a figure missing where a number format was asked
            shown = template.replace(":,}", "}").format_map(counts)
        proof = "<br>".join(f"`{test}`" for test in tests)
        lines.append(f"| {guarantee} | {proof} | {shown} |")
    sections = ["crash", "concurrency", "fuzz", "access", "backup", "moderation", "claims", "replica",
                "metrics", "nodes"]
    seconds = {s: figures.get(s, {}).get("seconds") for s in sections}
    stamps = sorted(v.get("run_at", "") for v in figures.values() if isinstance(v, dict))
    lines += ["", f"Last run: {stamps[-1] if stamps else '?'} (UTC) · time per test file: " + ", ".join(
        f"{s} {seconds[s]:.0f} s" if seconds[s] is not None else f"{s} ?" for s in sections) +
        f" · {sum(v for v in seconds.values() if v):.0f} s in all"]
    return "\n".join(lines)


def main() -> int:
    try:
        figures = json.loads(FIGURES.read_text())
    except (OSError, ValueError) as error:
        print(f"cannot read {FIGURES}: run the reliability tests first ({error})", file=sys.stderr)
        return 2
    doc = DOC.read_text()
    if START not in doc or END not in doc:
        print(f"{DOC} has no {START} … {END} markers", file=sys.stderr)
        return 2
    head, rest = doc.split(START, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{START}\n{render(figures)}\n{END}{tail}")
    print(f"Figures of {FIGURES} written to {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

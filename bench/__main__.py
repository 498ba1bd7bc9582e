"""`python -m bench` (make bench): entry latency, live fan-out, page weight, taps, an attack on
another table's entries and a big game's pages, each against a baseline measured in the same run
or a target; prints a table and writes JSON to bench/results/ (latest.json and one file per run).

    python -m bench            the full run (about ten minutes on a 2-core machine)
    python -m bench --smoke    tiny sizes, well under a minute: CI keeps the bench working
    python -m bench --only latency,weight
    python -m bench --only latency --profile   (py-spy samples the workers at N=100)

KB in the targets is 1000 bytes. Every server listens on 127.0.0.1 only, every load is
bounded in count and time, and the run stops by itself.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from .common import ROOT, machine, raise_open_files

FULL = {
    "latency": {"counts": (10, 100, 1000), "rate": 100.0, "seconds": 20.0},
    "fanout": {"counts": (60, 600, 3000, 8000), "rate": 20.0, "seconds": 20.0},
    "weight": {"logs": "every"},
    "taps": {},
    "attack": {"rate": 50.0, "baseline": 15.0, "seconds": 30.0, "tables": 10, "concurrency": 2,
               "slowloris": 2000, "slow_bodies": 200, "drip_s": 5.0},
    "history": {},
}
SMOKE = {
    "latency": {"counts": (3,), "rate": 20.0, "seconds": 2.0},
    "fanout": {"counts": (20,), "rate": 5.0, "seconds": 2.0},
    "weight": {},
    "taps": {"games": ("escalero",)},
    "attack": {"rate": 20.0, "baseline": 2.0, "seconds": 3.0, "tables": 3, "concurrency": 1,
               "slowloris": 50, "slow_bodies": 10, "drip_s": 1.0, "fanout_streams": 60, "fanout_addresses": 4,
               "cost_streams": (0, 20)},
    "history": {"games": ("euchre-redeals",)},
}
AREAS = ("latency", "fanout", "weight", "taps", "attack", "history")


def loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=5).stdout.strip() or "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def verdicts(results: dict, smoke: bool) -> list[dict]:
    """One row per figure: the figure, its baseline, the ratio, the target and whether met."""
    rows = []

    def row(area, measure, figure, unit, baseline=None, target=None, met=None, note=""):
        ratio = figure / baseline if (baseline not in (None, 0) and figure is not None) else None
        rows.append({"area": area, "measure": measure, "figure": figure, "unit": unit, "baseline": baseline,
                     "ratio": ratio, "target": target, "met": met, "note": note})

    latency = results.get("latency")
    if latency:
        for run in latency["runs"]:
            n = run["tables"]
            entry, hello = run["entry"]["server_ms"], run["hello"]["server_ms"]
            if not entry.get("n"):
                row("latency", f"N={n}: no entries measured", None, "", note="; ".join(run["error_examples"]))
                continue
            row("latency", f"N={n} entry p50 (server)", entry["p50"], "ms", hello["p50"])
            if run.get("commit", {}).get("server_ms", {}).get("n"):
                commit = run["commit"]["server_ms"]["p50"]
                row("latency", f"N={n} entry p50 vs a durable commit", entry["p50"], "ms", commit,
                    "≤ 2× commit", entry["p50"] <= 2 * commit)
                if run.get("floor", {}).get("server_ms", {}).get("n"):
                    floor = run["floor"]["server_ms"]["p50"]
                    # our hooks, the table context and the same commit (scorekeeper/timing.py)
                    row("latency", f"N={n} our floor p50 vs the commit", floor, "ms", commit,
                        note=f"an entry's own work {entry['p50'] - floor:.2f} ms; 2× leaves it {2 * commit - floor:.2f}")
            target_p99 = None if smoke else "≤ 10 ms at 100/s"
            row("latency", f"N={n} entry p99 (server)", entry["p99"], "ms", hello["p99"], target_p99,
                None if smoke else entry["p99"] <= 10.0)
            row("latency", f"N={n} entry p50 (client)", run["entry"]["client_ms"]["p50"], "ms",
                run["hello"]["client_ms"]["p50"])
            row("latency", f"N={n} entry p99 (client)", run["entry"]["client_ms"]["p99"], "ms",
                run["hello"]["client_ms"]["p99"])
            row("latency", f"N={n} errors", run["errors"], "", None, "0", run["errors"] == 0,
                f"other load on the machine {run['cpu']['other_cores']} cores" if run.get("cpu") else "")
    fanout = results.get("fanout")
    if fanout:
        bare = {r["phones"]: r for r in fanout["runs"] if r["target"] == "bare"}
        for run in (r for r in fanout["runs"] if r["target"] == "app"):
            m = run["phones"]
            base = bare.get(m, {})
            p95, p99 = run["every_phone_ms"].get("p95"), run["every_phone_ms"].get("p99")
            bare_p99 = base.get("every_phone_ms", {}).get("p99")
            big = m >= 3000
            other = run.get("cpu", {}).get("other_cores")
            row("fan-out", f"M={m} update at every phone p95", p95, "ms", base.get("every_phone_ms", {}).get("p95"),
                "≤ 60 ms" if big else None, (p95 is not None and p95 <= 60) if big else None,
                f"other load {other} cores, bare's {base.get('cpu', {}).get('other_cores')}" if other is not None else "")
            row("fan-out", f"M={m} update at every phone p99", p99, "ms", bare_p99, "≤ 2× bare" if big else None,
                (None not in (p99, bare_p99) and p99 <= 2 * bare_p99) if big else None)
            errors = (run["connect"].get("failures", 0) + run["entry_errors"] + run["missing_updates"]
                      + run["drops"] + run["server_log_errors"] + (m - run["still_connected"]))
            row("fan-out", f"M={m} phones held · errors", errors, "", None,
                f"{m} held, 0 errors" if m >= 3000 else None,
                (errors == 0 and run["connect"].get("connected") == m) if m >= 3000 else None,
                f"{run['connect'].get('connected')} connected in {run['connect'].get('connect_s')} s")
            kib = run.get("kib_per_phone_pss")
            kb = kib * 1.024 if kib is not None else None
            target = "≤ 40 KB" if m >= 3000 else None
            row("fan-out", f"M={m} server memory per phone (PSS)", kb, "KB",
                base.get("kib_per_phone_pss", 0) * 1.024 or None, target,
                (kb is not None and kb <= 40) if target else None)
    weight = results.get("weight")
    if weight:
        base = weight["baseline"]
        first = weight["first_load_mid_game"]["total_wire"]
        row("weight", "first load of a phone's board (mid-game)", first / 1000, "KB", base["htmx_page_wire"] / 1000,
            "≤ 60 KB", first <= 60_000)
        row("weight", "first load of a phone's board (new game)", weight["first_load_new_game"]["total_wire"] / 1000,
            "KB", base["htmx_page_wire"] / 1000, "≤ 60 KB", weight["first_load_new_game"]["total_wire"] <= 60_000)
        row("weight", "one entry's response p50 (whole game)", weight["entry_wire"]["p50"] / 1000, "KB",
            base["hello_wire"] / 1000)
        row("weight", "one entry's response max (whole game: the first also carries the join form and the seat list, the last the settlement)",
            weight["entry_wire"]["max"] / 1000, "KB", base["hello_wire"] / 1000)
        if "mid_entry_wire" in weight:
            for measure, key in (("one entry's response, mid-game", "mid_entry_wire"),
                                 ("one live update at a seated phone, mid-game", "mid_update_wire")):
                for stat in ("p50", "max"):
                    figure = weight[key][stat]
                    row("weight", f"{measure} {stat} (gzip as sent)", figure / 1000, "KB", base["hello_wire"] / 1000,
                        "≤ 1 KB", figure <= 1000)
            row("weight", "mid-game entries sent as parts (answer and update)", weight["mid_as_parts"], "",
                weight["mid_entries"])
        for game, seen in weight.get("games", {}).items():  # bench/answers.py: the Flask client's gzip, no framing
            row("weight", f"{game}: an entry's answer mid-game max (p50 {seen['entry_mid_p50']} B)",
                seen["entry_mid_max"] / 1000, "KB", None, "≤ 1 KB", seen["entry_mid_max"] <= 1000,
                f"{seen['mid_over_1kb']} of {seen['mid_entries']} over ({seen['logs']} logs, largest in {seen['log']}); "
                f"first {seen['entry_first']} B, last {seen['entry_last']} B")
            if "steps" in seen:
                row("weight", f"{game}: a step of a turn's answer max (p50 {seen['step_p50']} B)", seen["step_max"] / 1000,
                    "KB", None, "≤ 1 KB", seen["step_max"] <= 1000, f"{seen['steps']} steps")
        ok = weight["first_load_mid_game"]["static_all_gzip"] and weight["first_load_mid_game"]["static_cached_a_year"]
        row("weight", "static files gzip + cached a year", 1 if ok else 0, "", None, "yes", ok)
    taps = results.get("taps")
    if taps and "games" in taps:
        for game, info in taps["games"].items():
            target = {"escalero": ("5 dice + 1 cell, 0 scrolls", info["taps"] <= 6 and not info["scrolls"]),
                      "yatzy": ("5 dice + 1 box, 0 scrolls", info["taps"] <= 6 and not info["scrolls"]),
                      "kaques": ("≤ 8 taps, 0 scrolls", info["taps"] <= 8 and not info["scrolls"])}
            goal, met = target.get(game, ("report", None))
            row("taps", f"{game}: {info['entry']}", info["taps"], "taps", info["decisions"], goal, met,
                f"{info['scrolls']} scrolls" + (f", {info['typed_fields']} typed field" if info["typed_fields"] else ""))
    attack = results.get("attack")
    if attack:
        base, hit = attack["baseline"], attack["under_attack"]
        if not hit["server_ms"].get("n"):
            row("attack", "victim entries under attack: none measured", None, "",
                note="; ".join(hit.get("error_examples") or []))
        else:
            row("attack", "victim entry p50 under attack (server)", hit["server_ms"]["p50"], "ms",
                base["server_ms"].get("p50"))
            row("attack", "victim entry p99 under attack (server)", hit["server_ms"]["p99"], "ms",
                base["server_ms"].get("p99"), None if smoke else "≤ 25 ms",
                None if smoke else hit["server_ms"]["p99"] <= 25.0)
            steady = attack.get("under_attack_after_5s", {}).get("server_ms", {})
            if steady.get("n"):
                row("attack", "victim entry p99 under attack, from the 5th second (server)", steady["p99"], "ms",
                    base["server_ms"].get("p99"), note="the limits then refuse every table and import")
            row("attack", "victim entry p99 under attack (client: as the phone waits)", hit["client_ms"]["p99"], "ms",
                base["client_ms"].get("p99"), None if smoke else "≤ 25 ms",
                None if smoke else hit["client_ms"]["p99"] <= 25.0,
                f"p50 {hit['client_ms']['p50']:.1f} ms against {base['client_ms'].get('p50', 0):.1f} ms alone")
            if hit.get("commit_ms", {}).get("n"):
                row("attack", "bare durable commit p99 at the same moments (the disk's own stalls)",
                    hit["commit_ms"]["p99"], "ms", base["commit_ms"].get("p99"),
                    note=f"max {hit['commit_ms']['max']:.1f} ms against {base['commit_ms'].get('max', 0):.1f} ms alone")
        refused = attack["refused"]
        sent = sum(sum(kind.values()) for kind in attack["attack"]["requests"].values())
        row("attack", "attackers' requests answered · refused", sent, "", None, None, None,
            f"{sent / attack['attack_s']:.0f} a second; refused: " + ", ".join(f"{k} {v}" for k, v in refused.items()))
        row("attack", "errors (victim entries refused, 5xx, tracebacks)",
            hit["errors"] + attack["server_errors"] + attack["server_log_errors"], "", None, "0",
            hit["errors"] + attack["server_errors"] + attack["server_log_errors"] == 0,
            f"other load on the machine {attack['cpu_attack']['other_cores']} cores")
        fan = attack["attack"].get("fanout") or {}
        if fan.get("writes"):
            row("attack", "fan-out: streams held on the attacker's table (of those tried) · whole boards sent them",
                fan["most_held"], "", attack.get("fanout_streams"), None, None,
                f"refused {fan['refused']}; {fan['whole_boards']} whole boards, {fan['bytes'] / 1e6:.0f} MB")
        for run in (attack.get("message_cost") or {}).get("runs", [])[1:]:
            row("attack", f"a worker's CPU for one message to each of {run['streams']} streams of a table",
                run["us_a_stream"], "µs", None, note=f"the last stream had it after "
                f"{run['last_arrival_ms'].get('p50', 0):.0f} ms (p50)")
        slow = attack["attack"]
        row("attack", "slow sockets held at the end (of those opened)", slow["slowloris"]["still_held_at_end"]
            + slow["slow_bodies"]["still_held_at_end"], "", slow["slowloris"]["opened"] + slow["slow_bodies"]["opened"],
            note=f"{attack['connections_per_address'] or 'no'} connections an address a worker")
    history = results.get("history")
    if history:
        for name, game in history["games"].items():
            routes = game["routes"]
            hold = max((figures[kind]["hold_ms"], route, kind) for route, figures in routes.items() for kind in figures)
            cpu = max((figures[kind]["cpu_ms"], route, kind) for route, figures in routes.items() for kind in figures)
            warm = max((figures["warm"]["cpu_ms"], route) for route, figures in routes.items() if "warm" in figures)
            row("history", f"{name} ({game['events']} events): longest hold of a worker, any route", hold[0], "ms",
                None, f"≤ {history['target_ms']:.0f} ms", hold[0] <= history["target_ms"],
                f"{hold[1]}, {hold[2]}; most CPU {cpu[0]:.0f} ms ({cpu[1]}, {cpu[2]}), warm {warm[0]:.0f} ms ({warm[1]})")
            row("history", f"{name}: the board link's earlier entries", game["board_link_earlier"], "", None, "404",
                game["board_link_earlier"] == 404)
    return rows


def table(rows: list[dict]) -> str:
    def fmt(value):
        if value is None:
            return "—"
        if isinstance(value, float):
            return f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"
        return str(value)

    head = ("area", "measure", "figure", "baseline", "ratio", "target", "met")
    lines = [head]
    for r in rows:
        figure = f"{fmt(r['figure'])} {r['unit']}".strip()
        baseline = f"{fmt(r['baseline'])} {r['unit']}".strip() if r["baseline"] is not None else "—"
        ratio = f"{r['ratio']:.2f}×" if r["ratio"] is not None else "—"
        met = {True: "yes", False: "NO", None: ""}[r["met"]]
        measure = r["measure"] + (f" ({r['note']})" if r["note"] else "")
        lines.append((r["area"], measure, figure, baseline, ratio, r["target"] or "", met))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip() for line in lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, under a minute")
    parser.add_argument("--only", default=",".join(AREAS), help="comma-separated areas: " + ", ".join(AREAS))
    parser.add_argument("--profile", action="store_true",
                        help="py-spy samples the workers during the entry-latency run and the attack (needs .[bench])")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results"), help="folder for the JSON")
    args = parser.parse_args(argv)
    areas = [a.strip() for a in args.only.split(",") if a.strip()]
    unknown = set(areas) - set(AREAS)
    if unknown:
        parser.error(f"unknown areas: {', '.join(sorted(unknown))}")
    plan = SMOKE if args.smoke else FULL
    limits = raise_open_files()
    work = tempfile.mkdtemp(prefix="scorekeeper-bench-", dir=os.environ.get("BENCH_WORK") or None)
    started = time.monotonic()
    results = {"kind": "smoke" if args.smoke else "full", "date": datetime.datetime.now().astimezone().isoformat(
        timespec="seconds"), "commit": commit(), "machine": machine(), "command": " ".join(
        ["python -m bench", *(argv if argv is not None else sys.argv[1:])]), "open_files": list(limits),
        "load_before": loadavg()}
    print(f"Scorekeeper bench ({results['kind']}) · {results['machine'].get('cpus')} cores · "
          f"open files {limits[0]} · load {results['load_before']}", flush=True)
    try:
        for area in areas:
            began = time.monotonic()
            print(f"{area} …", flush=True)
            if area == "latency":
                from . import latency as module
            elif area == "fanout":
                from . import fanout as module
            elif area == "weight":
                from . import weight as module
            elif area == "attack":
                from . import attack as module
            elif area == "history":
                from . import history as module
            else:
                from . import taps as module
            options = dict(plan[area])
            if area in ("latency", "attack") and args.profile:
                options["profile"] = args.out
            results[area] = module.run(work, **options, log=lambda text: print(text, flush=True))
            results[area]["load_after"] = loadavg()
            results[area]["area_seconds"] = round(time.monotonic() - began, 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results["seconds"] = round(time.monotonic() - started, 1)
    rows = verdicts(results, args.smoke)
    results["table"] = rows
    print()
    print(table(rows))
    os.makedirs(args.out, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    for name in (f"{results['kind']}-{stamp}.json", f"{results['kind']}-latest.json"):
        with open(os.path.join(args.out, name), "w") as handle:
            json.dump(results, handle, indent=1, default=str)
    print(f"\n{results['seconds']} s · JSON: {os.path.relpath(os.path.join(args.out, name), ROOT)}")
    broken = [r for r in rows if r["area"] in ("latency", "fan-out", "attack") and "errors" in r["measure"]
              and r["figure"] not in (0, None)]
    if args.smoke and broken:  # the smoke run keeps the bench working: errors fail it
        print("smoke: errors in the run", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

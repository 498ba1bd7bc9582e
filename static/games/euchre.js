// Euchre on the phone: the hand picker (who named trump, tricks, confirm; lone players and
// trump when needed). The picker keeps its choices while the live board is redrawn, and
// forgets them once the deal it was for has been entered. Posting is app.js's [data-post].
(() => {
  "use strict";
  const {t, nt, num} = window.scorekeeper;  // app.js, loaded first, has set it
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  const fresh = (deal) => ({deal, maker: null, redeal: false, alone: false, defender: null, trump: null, tricks: null});
  let hand = fresh(null);
  const panel = () => $("#board [data-hand-entry]");
  function picker(p) {
    try { return JSON.parse(p.dataset.picker); } catch { return null; }
  }
  const plus = (n) => `+${num(n)}`;
  // a whole translated phrase around an element (a name in bold): MARK fills the phrase's
  // hole, and the element takes its place, wherever the language puts it
  const MARK = "\u0000";
  function withName(phrase, element) {
    const [before, after = ""] = phrase.split(MARK);
    return [document.createTextNode(before), element, document.createTextNode(after)];
  }

  // what a hand of so many tricks is called, and that word with the points (a trick button)
  function gain(row, makerTeam, tricks) {
    const [team, points, ...also] = row[tricks];  // also: the other sides scoring as much (three-handed)
    const shown = {points: plus(points)};
    const [word, label] = tricks === 5 ? [t("march"), t("march %(points)s", shown)]
      : tricks >= 3 ? [t("made"), t("made %(points)s", shown)] : [t("euchred"), t("euchred %(points)s", shown)];
    return {team, points, also, word, label, theirs: team !== makerTeam};
  }

  function text(el, value) { if (el) el.textContent = value; }

  function render() {
    const p = panel();
    if (!p) return;
    if (hand.deal !== p.dataset.deal) hand = fresh(p.dataset.deal);  // entered meanwhile: start over
    const data = picker(p);
    if (!data) return;
    const maker = hand.maker && data.makers[hand.maker];
    $('[data-step="maker"]', p).hidden = Boolean(maker || hand.redeal);
    $('[data-step="tricks"]', p).hidden = !maker;
    const box = $("[data-confirm-box]", p);
    const confirm = $("[data-confirm]", box);
    const preview = $("[data-preview]", box);

    if (hand.redeal) {
      box.hidden = false;
      preview.replaceChildren(line(t("All passed twice: no points."), ""),
        line(t("%(name)s deals next.", {name: data.next_dealer}), "muted"));
      confirm.textContent = t("Confirm redeal");
      arm(p, confirm, {type: "redeal"});
      return;
    }
    if (!maker) { box.hidden = true; return; }

    const key = `${hand.alone ? 1 : 0}${hand.defender || ""}`;
    const row = maker.points[key];
    const makers = data.teams[maker.team];
    const chosen = $("[data-chosen]", p);
    chosen.replaceChildren(...withName(t("%(name)s named trump", {name: MARK}), strong(hand.maker, `team-${maker.team}`)));
    chosen.title = t("%(team)s make", {team: makers});
    const defenders = $("[data-defenders]", p);  // three-handed: the other two defend together
    if (defenders) text(defenders, t("%(names)s defend together", {names: maker.defenders.join(" & ")}));

    $$("[data-lone]", p).forEach((b) => {
      const name = b.dataset.lone;
      b.hidden = name === maker.partner;
      const on = name === hand.maker ? hand.alone : name === hand.defender;
      b.setAttribute("aria-pressed", String(on));
    });
    $$("[data-suit]", p).forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.suit === hand.trump)));
    $$("[data-tricks]", p).forEach((b) => {
      const n = Number(b.dataset.tricks);
      const g = gain(row, maker.team, n);
      b.setAttribute("aria-pressed", String(n === hand.tricks));
      b.className = `button trick team-${g.team}${g.theirs ? " theirs" : ""}`;
      text($("[data-gain]", b), g.label);
    });

    if (hand.tricks === null) { box.hidden = true; return; }
    box.hidden = false;
    const g = gain(row, maker.team, hand.tricks);
    const score = [...data.score];
    for (const team of [g.team, ...g.also]) score[team] += g.points;
    const scorers = [g.team, ...g.also].map((i) => data.teams[i]).join(" & ");
    const details = [hand.alone ? t("%(name)s alone", {name: hand.maker}) : hand.maker,
      nt("%(num)s trick", "%(num)s tricks", hand.tricks), g.word]
      .concat(hand.defender ? [t("%(name)s alone", {name: hand.defender})] : []);
    const won = [g.team, ...g.also].some((team) => score[team] >= data.target);
    preview.replaceChildren(
      line(details.join(" · "), "muted"),
      scoreLine(data.teams, score, g.team),
      won ? line(t("That ends the game: %(team)s first to %(target)s", {team: scorers, target: data.target}), "pv-win")
        : line(t("Led by %(leader)s · %(dealer)s deals next", {leader: maker.leads[key], dealer: data.next_dealer}), "muted small"));
    confirm.textContent = t("Confirm: %(team)s %(points)s", {team: scorers, points: plus(g.points)});
    const event = {type: "hand", maker: hand.maker, tricks: hand.tricks};
    if (hand.alone) event.alone = true;
    if (hand.defender) event.defender_alone = hand.defender;
    if (hand.trump) event.trump = hand.trump;
    arm(p, confirm, event);
  }

  function arm(p, confirm, event) {
    confirm.dataset.post = p.dataset.url;
    confirm.dataset.fields = JSON.stringify({event, deal: p.dataset.deal});
  }

  function strong(value, cls) { const b = document.createElement("b"); b.textContent = value; if (cls) b.className = cls; return b; }
  function line(value, cls) { const s = document.createElement("span"); s.className = `pv ${cls}`; s.textContent = value; return s; }
  function scoreLine(teams, score, scorer) {
    const s = document.createElement("span");
    s.className = "pv pv-score";
    teams.forEach((name, i) => {
      if (i) s.append(document.createTextNode(" : "));
      const b = strong(`${score[i]}`, `team-${i}${i === scorer ? " scorer" : ""}`);
      b.title = name;
      s.append(b);
    });
    return s;
  }

  document.addEventListener("click", (e) => {
    const p = panel();
    if (!p || !p.contains(e.target)) return;
    const data = picker(p);
    const target = e.target;
    const makerButton = target.closest("[data-maker]");
    if (makerButton) {
      const trump = hand.trump;
      hand = {...fresh(p.dataset.deal), maker: makerButton.dataset.maker, alone: makerButton.hasAttribute("data-alone"), trump};
    } else if (target.closest("[data-redeal]")) {
      hand = {...fresh(p.dataset.deal), redeal: true};
    } else if (target.closest("[data-back]")) {
      hand = fresh(p.dataset.deal);
    } else if (target.closest("[data-lone]")) {
      const name = target.closest("[data-lone]").dataset.lone;
      if (name === hand.maker) hand.alone = !hand.alone;
      else if (data?.makers[hand.maker]?.defenders.includes(name)) hand.defender = hand.defender === name ? null : name;
    } else if (target.closest("[data-suit]")) {
      const suit = target.closest("[data-suit]").dataset.suit;
      hand.trump = hand.trump === suit ? null : suit;
    } else if (target.closest("[data-tricks]")) {
      hand.tricks = Number(target.closest("[data-tricks]").dataset.tricks);
      render();
      $("[data-confirm]", p)?.scrollIntoView({block: "nearest", behavior: "smooth"});
      return;
    } else if (target.closest("[data-confirm]")) {
      // app.js has posted it (its listener runs first); the next hand starts from scratch
      hand = fresh(p.dataset.deal);
      window.setTimeout(render, 0);
      return;
    } else {
      return;
    }
    render();
  });

  // --- the host's corrections stay open while the board is redrawn ---------------------------
  const openFixes = new Set();
  document.addEventListener("toggle", (e) => {
    const fix = e.target.closest?.("[data-fix]");
    if (!fix) return;
    if (fix.open) openFixes.add(fix.dataset.fix); else openFixes.delete(fix.dataset.fix);
  }, true);
  function reopen() {
    $$("#board [data-fix]").forEach((fix) => { if (openFixes.has(fix.dataset.fix)) fix.open = true; });
  }

  // --- before the first hand: the controls follow the seating -----------------------------------
  let waiting = null;
  function seatingChanged() {
    const card = $("[data-euchre-waiting]");
    if (!card) return;
    const now = $("#board .waiting")?.textContent.trim() ?? "ready";
    if (waiting === null) { waiting = now; return; }
    if (now === waiting) return;
    if (now === "ready") { card.remove(); return; }  // the partners are set: the board has the picker
    waiting = now;
    const typing = $$("input[name=name]").some((i) => i.value || i === document.activeElement);
    if (!typing) window.location.reload();  // the host's pairing form names the players now seated
  }

  function afterBoard() { render(); reopen(); seatingChanged(); }

  document.addEventListener("DOMContentLoaded", () => {
    afterBoard();
    const board = $("#board");
    if (board) new MutationObserver(afterBoard).observe(board, {childList: true});
  });
})();

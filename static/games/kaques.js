// Jaques le Kaques on the phone: a throw entered by tapping the faces seen, the keep chosen by
// tapping dice, the quick-total stepper, and call banners shown once per call.
// Posting goes through app.js ([data-post] buttons: CSRF, idempotency key, offline queue);
// the server checks every throw again, so this script only keeps illegal keeps out of reach.
(() => {
  "use strict";
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const SEEN = "scorekeeper.kaques.banners";
  const {t, nt, num} = window.scorekeeper;  // the player's language (app.js runs first)

  // --- the turn being entered on this phone ------------------------------------------------
  // local: {key, phase: "faces" | "keep" | "sent", dice: [sorted faces], kept: [bool per die]}
  // key is "<turns played>:<throws in the table's draft>", so a new board for the same step
  // keeps what was tapped, and a board for another step starts afresh.
  let local = null;
  let expected = null;  // the local state a post should lead to, once its board arrives

  function model(pad) {
    const data = pad.dataset;
    return {
      key: data.key, player: data.player, free: Number(data.free), total: Number(data.total),
      number: Number(data.number), throws: JSON.parse(data.throws || "[]"),
      values: JSON.parse(data.values || "{}"), risks: JSON.parse(data.risks || "{}"),
      grandmere: Number(data.grandmere), ohLala: data.ohLala === "1",
    };
  }

  const count = (dice, face) => dice.filter((d) => d === face).length;

  // the fewest dice of a face that may be kept (1 for 1s and 5s, 3 for the rest), from the
  // server's table of keep values, so the rule lives in the engine only
  function step(m, face) {
    const row = m.values[face] || [];
    for (let n = 1; n < row.length; n++) if (row[n] !== null) return n;
    return Infinity;
  }
  function keptDice(state) { return state.dice.filter((_, i) => state.kept[i]); }
  function keepScore(m, dice) {
    let points = 0;
    for (let face = 1; face <= 6; face++) {
      const value = (m.values[face] || [])[count(dice, face)];
      if (value === null || value === undefined) return null;
      points += value;
    }
    return points;
  }
  function canAdd(m, state, i) {  // can die i (not kept yet) join the keep?
    const face = state.dice[i];
    const free = state.dice.filter((d, j) => d === face && !state.kept[j]).length;
    return step(m, face) <= free;
  }
  function scores(m, dice) {
    return [1, 2, 3, 4, 5, 6].some((face) => step(m, face) <= count(dice, face));
  }

  function toggle(m, state, i) {
    const face = state.dice[i];
    const group = step(m, face);
    const wanted = !state.kept[i];
    if (wanted && !canAdd(m, state, i)) return;
    let left = group;
    const order = [i, ...state.dice.map((_, j) => j).filter((j) => j !== i)];
    for (const j of order) {
      if (left && state.dice[j] === face && state.kept[j] !== wanted) { state.kept[j] = wanted; left--; }
    }
  }

  function makeDie(pad, face, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `kq-thrown-die ${cls || ""}`;
    const svg = $(`[data-kq-face="${face}"] svg`, pad);
    if (svg) b.append(svg.cloneNode(true));
    return b;
  }

  function render() {
    const pad = $("[data-kq-pad]");
    if (!pad || !local) return;
    const m = model(pad);
    const state = local;
    const faces = $("[data-kq-faces]", pad);
    const thrown = $("[data-kq-thrown]", pad);
    const worth = $("[data-kq-worth]", pad);
    const actions = $("[data-kq-actions]", pad);
    const risk = $("[data-kq-risk]", pad);
    const again = $("[data-kq-again]", pad);
    const stop = $("[data-kq-stop]", pad);
    pad.dataset.phase = state.phase;
    faces.hidden = state.phase !== "faces";
    actions.hidden = risk.hidden = state.phase !== "keep";
    $("[data-kq-back]", pad).hidden = state.phase !== "keep";
    $("[data-kq-clear]", pad).hidden = !(state.phase === "faces" && state.dice.length);
    $$("[data-kq-face]", pad).forEach((b) => {
      const n = count(state.dice, Number(b.dataset.kqFace));
      $("[data-kq-count]", b).textContent = n ? `×${n}` : "";
      b.classList.toggle("has", n > 0);
      b.disabled = state.phase !== "faces" || state.dice.length >= m.free;
    });
    const title = $("[data-kq-step]", pad);

    if (state.phase === "faces") {
      const tap = nt("Throw %(n)s: tap the %(num)s die you see", "Throw %(n)s: tap the %(num)s dice you see",
        m.free, {n: m.number});
      title.textContent = m.ohLala ? `${t("Oh, Lálá!")} ${tap}` : tap;
      const slots = state.dice.map((face, i) => {
        const b = makeDie(pad, face, "remove");
        b.dataset.kqRemove = i;
        b.setAttribute("aria-label", t("take back the %(face)s", {face}));
        return b;
      });
      for (let i = state.dice.length; i < m.free; i++) {
        const slot = document.createElement("span");
        slot.className = "kq-slot";
        slots.push(slot);
      }
      thrown.replaceChildren(...slots);
      worth.textContent = state.dice.length ? t("Tap a die above to take it back.") : "";
      return;
    }
    if (state.phase === "sent") {
      title.textContent = t("Sending…");
      thrown.replaceChildren(...state.dice.map((face, i) => makeDie(pad, face, state.kept[i] ? "kept" : "")));
      $$("button", thrown).forEach((b) => { b.disabled = true; });
      worth.textContent = "";
      return;
    }
    // choosing the keep
    title.textContent = t("Throw %(n)s: tap the dice you keep", {n: m.number});
    thrown.replaceChildren(...state.dice.map((face, i) => {
      const kept = state.kept[i];
      const b = makeDie(pad, face, kept ? "kept" : "");
      b.dataset.kqToggle = i;
      b.disabled = !kept && !canAdd(m, state, i);  // greyed out: this die cannot score
      b.setAttribute("aria-pressed", kept ? "true" : "false");
      // TRANSLATORS: what a screen reader says for a die of the throw: kept already, or to keep
      b.setAttribute("aria-label", kept ? t("kept %(face)s", {face}) : t("keep %(face)s", {face}));
      return b;
    }));
    const keep = keptDice(state);
    const points = keepScore(m, keep);
    const legal = keep.length > 0 && points !== null;
    const total = m.total + (points || 0);
    const next = m.free - keep.length || 6;
    if (!keep.length) worth.textContent = t("Turn so far %(total)s. Tap what you keep.", {total: m.total});
    else if (points === null) worth.textContent = t("That keep does not score.");
    else {
      worth.replaceChildren(...emphasised(t("Keep %(points)s · turn %(total)s"),
        {points: bold(`+${num(points)}`), total: bold(num(total))}));
      if (m.total < m.grandmere && total >= m.grandmere) {
        const chip = document.createElement("span");
        chip.className = "kq-chip";
        chip.textContent = t("Grandmère — the wise stop");
        worth.append(" ", chip);
      }
    }
    const odds = m.risks[next] || {};
    risk.replaceChildren();
    if (legal) {
      risk.append(...emphasised(nt("Throwing %(num)s die: %(percent)s chance of Le Kaque! (%(fraction)s) · %(points)s at stake",
        "Throwing %(num)s dice: %(percent)s chance of Le Kaque! (%(fraction)s) · %(points)s at stake", next),
      {percent: bold(odds.percent || "?"), fraction: odds.fraction || "?", points: bold(num(total))}));
    }
    again.disabled = stop.disabled = !legal;
    again.textContent = keep.length === m.free ? t("Oh, Lálá! Throw all 6")
      : nt("Throw %(num)s die again", "Throw %(num)s dice again", next);
    stop.textContent = legal ? t("fertisch! · %(total)s", {total}) : t("fertisch!");
    const thisThrow = {dice: state.dice, keep};
    again.dataset.fields = JSON.stringify({draft: {player: m.player, throws: [...m.throws, thisThrow]}});
    stop.dataset.fields = JSON.stringify({event: {type: "turn", player: m.player, throws: [...m.throws, thisThrow]}});
  }

  function bold(text) { const b = document.createElement("b"); b.textContent = text; return b; }
  // a translated phrase whose holes are filled with nodes (a number in bold) or text: split on
  // its holes, so the sentence stays whole and in the language's own word order
  function emphasised(phrase, values) {
    return phrase.split(/%\((\w+)\)s/).map((part, i) => (i % 2 === 0 ? part : values[part] ?? `%(${part})s`));
  }

  function nextKey(m, more) {
    const [turns, throws] = m.key.split(":").map(Number);
    return `${turns}:${throws + more}`;
  }

  function sent() {  // the pad waits for its post; a refusal brings the step back
    local = {...local, phase: "sent", before: {...local, kept: [...local.kept]}};
    render();
  }

  document.addEventListener("click", (e) => {
    const pad = $("[data-kq-pad]");
    if (pad && local && pad.contains(e.target)) {
      const m = model(pad);
      const face = e.target.closest("[data-kq-face]");
      if (face && !face.disabled && local.phase === "faces" && local.dice.length < m.free) {
        local.dice = [...local.dice, Number(face.dataset.kqFace)].sort((a, b) => a - b);
        local.kept = local.dice.map(() => false);
        if (local.dice.length === m.free) {
          if (scores(m, local.dice)) {
            local.phase = "keep";
          } else {  // nothing to keep: Le Kaque! ends the turn by itself
            const kaque = $("[data-kq-kaque]", pad);
            kaque.dataset.fields = JSON.stringify({event: {type: "turn", player: m.player,
              throws: [...m.throws, {dice: local.dice, keep: []}]}});
            sent();
            kaque.click();
            return;
          }
        }
        render();
        return;
      }
      const remove = e.target.closest("[data-kq-remove]");
      if (remove && local.phase === "faces") {
        local.dice.splice(Number(remove.dataset.kqRemove), 1);
        local.kept = local.dice.map(() => false);
        render();
        return;
      }
      if (e.target.closest("[data-kq-clear]")) { local.dice = []; local.kept = []; render(); return; }
      if (e.target.closest("[data-kq-back]")) { local.phase = "faces"; local.kept = local.dice.map(() => false); render(); return; }
      const die = e.target.closest("[data-kq-toggle]");
      if (die && local.phase === "keep") { toggle(m, local, Number(die.dataset.kqToggle)); render(); return; }
      const again = e.target.closest("[data-kq-again]");
      if (again && !again.disabled) {
        expected = {key: nextKey(m, 1), phase: "faces", dice: [], kept: []};
        sent();
        return;
      }
      if (e.target.closest("[data-kq-stop]:not(:disabled)")) { sent(); return; }
    }
    const expect = e.target.closest("[data-kq-expect]");  // undo a throw: back to choosing its keep
    if (expect) {
      try {
        const want = JSON.parse(expect.dataset.kqExpect);
        const dice = [...want.dice];
        const kept = dice.map(() => false);
        for (const face of want.keep || []) {
          const i = dice.findIndex((d, j) => d === face && !kept[j]);
          if (i >= 0) kept[i] = true;
        }
        expected = {key: want.key, phase: want.phase === "keep" && dice.length ? "keep" : "faces", dice, kept};
      } catch { expected = null; }
    }
  });

  function syncPad() {
    const pad = $("[data-kq-pad]");
    if (!pad) { local = null; return; }
    const key = pad.dataset.key;
    if (expected && expected.key === key) { local = expected; expected = null; }
    else if (!local || local.key !== key) local = {key, phase: "faces", dice: [], kept: []};
    else if (local.phase === "sent") local = local.before;  // the same step came back: the post did not go through
    render();
  }

  // a refusal (shown in #message) brings the pad back to the step it was sent from
  function watchMessages() {
    const area = $("#message");
    if (!area) return;
    new MutationObserver(() => {
      if (!area.textContent.trim()) return;
      expected = null;
      if (local?.phase === "sent") { local = local.before; render(); }
    }).observe(area, {childList: true, subtree: true});
  }

  // --- steppers: points in 50s, for the quick total and the host's corrections ------------------------
  const values = {};  // stepper id -> value, kept across live board swaps
  function syncStepper(root) {
    const id = root.dataset.kqStepper;
    const value = values[id] ?? Number(root.dataset.value);
    const fields = JSON.parse(root.dataset.base);
    fields.event.points = value;
    const confirm = $("[data-kq-confirm]", root);
    confirm.dataset.fields = JSON.stringify(fields);
    $("[data-show]", root).textContent = num(value);
    if (root.dataset.kind === "correct") confirm.textContent = t("Set to %(points)s", {points: value});
    else confirm.textContent = value ? t("fertisch! · bank %(points)s", {points: value}) : t("Le Kaque! · 0");
    $$("[data-step]", root).forEach((b) => { b.disabled = value + Number(b.dataset.step) < 0; });
  }
  document.addEventListener("click", (e) => {
    const stepButton = e.target.closest("[data-kq-stepper] [data-step]");
    if (stepButton) {
      const root = stepButton.closest("[data-kq-stepper]");
      const id = root.dataset.kqStepper;
      values[id] = Math.max(0, (values[id] ?? Number(root.dataset.value)) + Number(stepButton.dataset.step));
      syncStepper(root);
      return;
    }
    const confirm = e.target.closest("[data-kq-stepper] [data-kq-confirm]");
    if (confirm) {  // posted by app.js; start afresh next time
      const root = confirm.closest("[data-kq-stepper]");
      delete values[root.dataset.kqStepper];
      const details = root.closest("details");
      if (details) { open.delete(details.dataset.kqKeepOpen); details.open = false; }
    }
  });

  // --- what stays open across board swaps ----------------------------------------------------------
  const open = new Set();
  document.addEventListener("toggle", (e) => {
    const id = e.target?.dataset?.kqKeepOpen;
    if (!id) return;
    if (e.target.open) open.add(id); else open.delete(id);
  }, true);

  // --- banners: each call flashes once per phone ------------------------------------------------
  // A board swapped in while a banner is still showing (the live stream repeating what a post
  // already brought, or the next change) carries it on from where it was instead of restarting.
  const FLASH_MS = 2800;  // the length of the kq-flash animation in kaques.css
  function seen() {
    try { return JSON.parse(sessionStorage.getItem(SEEN) || "{}"); } catch { return {}; }
  }
  function syncBanner() {
    const banner = $("[data-kq-banner]");
    if (!banner) return;
    const known = seen();
    const key = `${location.pathname}#${banner.dataset.kqBanner}`;
    const now = Date.now();
    if (key in known) {
      const elapsed = now - known[key];
      if (elapsed >= FLASH_MS || elapsed < 0) banner.classList.add("seen");
      else banner.style.animationDelay = `-${elapsed}ms`;
      return;
    }
    const recent = Object.entries(known).sort((a, b) => b[1] - a[1]).slice(0, 50);
    try { sessionStorage.setItem(SEEN, JSON.stringify(Object.fromEntries([...recent, [key, now]]))); } catch { /* private mode */ }
  }

  // the turn's total in one go: a number and fertisch! (through app.js's queue: idempotent, kept offline)
  document.addEventListener("submit", (e) => {
    const form = e.target.closest("[data-kq-total]");
    if (!form) return;
    e.preventDefault();
    const points = Number(form.elements.points.value);
    window.scorekeeper.post(form.dataset.url, {event: {type: "turn", player: form.dataset.player, points}});
  });

  function afterBoard() {
    $$("[data-kq-keep-open]").forEach((d) => { if (open.has(d.dataset.kqKeepOpen)) d.open = true; });
    $$("[data-kq-stepper]").forEach(syncStepper);
    syncBanner();
    syncPad();
  }

  function start() {
    const board = $("#board");
    if (!board) return;
    afterBoard();
    watchMessages();
    new MutationObserver((changes) => {
      if (changes.some((c) => c.target === board)) afterBoard();
    }).observe(board, {childList: true});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

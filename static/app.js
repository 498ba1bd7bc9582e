// Scorekeeper on the phone: entries that survive a dropped network, the value picker,
// dice entry, live-board fallback, wake lock and theme. No inline scripts (CSP).
(() => {
  "use strict";
  const csrf = () => document.querySelector('meta[name="csrf"]')?.content || "";
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const PENDING = "scorekeeper.pending";

  // --- the player's language: phrases from /i18n/<language>.js (scorekeeper/web/i18n.py) ---
  // t("Throw %(n)s", {n: 2}) and nt("%(num)s entry", "%(num)s entries", n) as gettext does
  const text = window.scorekeeperText || {lang: "en", messages: {}};
  const lang = document.documentElement.lang || text.lang;
  const numbers = new Intl.NumberFormat(lang);
  const plurals = new Intl.PluralRules(lang);
  const num = (n) => numbers.format(n);
  const fill = (phrase, values = {}) => phrase.replace(/%\((\w+)\)s/g, (hole, name) =>
    name in values ? (typeof values[name] === "number" ? num(values[name]) : String(values[name])) : hole);
  function t(phrase, values) {
    const found = text.messages[phrase];
    return fill(typeof found === "string" && found ? found : phrase, values);
  }
  function nt(singular, plural, n, values = {}) {
    const forms = text.messages[singular];
    const found = forms && (forms[plurals.select(n)] || forms.other);
    return fill(found || (n === 1 ? singular : plural), {num: n, ...values});
  }

  // --- theme ------------------------------------------------------------------------------
  const theme = localStorage.getItem("scorekeeper.theme");
  if (theme) document.documentElement.dataset.theme = theme;
  document.addEventListener("click", (e) => {
    if (!e.target.closest("[data-theme-toggle]")) return;
    const next = document.documentElement.dataset.theme === "light" ? "dark" : "light";
    document.documentElement.dataset.theme = next;
    localStorage.setItem("scorekeeper.theme", next);
  });

  // forms in the live board are shared by many devices: each adds its own token as it posts
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (form.method !== "post" || form.querySelector("input[name=csrf]")) return;
    const input = document.createElement("input");
    Object.assign(input, {type: "hidden", name: "csrf", value: csrf()});
    form.append(input);
  });

  // htmx requests carry the CSRF token too
  document.addEventListener("htmx:config:request", (e) => {
    e.detail.ctx.request.headers["X-CSRF-Token"] = csrf();
  });

  // --- messages and network state -----------------------------------------------------------
  function say(html) {
    const area = $("#message");
    if (area) area.innerHTML = html || "";
  }
  function net(state, text) {
    const el = $("#net");
    if (!el) return;
    el.dataset.state = state;
    el.textContent = text;
  }

  // --- posting entries: idempotent, queued while offline ------------------------------------------
  function queue() {
    try { return JSON.parse(localStorage.getItem(PENDING) || "[]"); } catch { return []; }
  }
  function saveQueue(items) { localStorage.setItem(PENDING, JSON.stringify(items)); }

  async function send(item) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(item.fields)) body.set(k, typeof v === "string" ? v : JSON.stringify(v));
    body.set("idem", item.idem);
    // the change the board shows now: the answer carries only what changed since (web/board.py)
    body.set("change", stamp()?.dataset.change ?? "");
    body.set("csrf", csrf());
    const response = await fetch(item.url, {
      method: "POST", body, credentials: "same-origin",
      headers: {"X-Requested-With": "fetch", "X-CSRF-Token": csrf()},
    });
    const html = await response.text();
    if (response.ok) {
      say("");
      swapBoard(html);
    } else {
      say(html);  // a refusal: the message says why; nothing was written
    }
    return response;
  }

  let flushing = false;
  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      let items = queue();
      while (items.length) {
        try {
          await send(items[0]);
        } catch {
          net("offline", nt("Offline — %(num)s entry kept, will resend", "Offline — %(num)s entries kept, will resend", items.length));
          return;
        }
        items = queue().filter((i) => i.idem !== items[0].idem);
        saveQueue(items);
      }
      if ($("#net")?.dataset.state === "offline") net(live ? "live" : "online", live ? t("Live") : t("Back online"));
    } finally {
      flushing = false;
    }
  }

  const stamp = () => $("#stamp");
  function post(url, fields) {
    // an entry says how many entries the board it was made on showed: made on a board that has
    // moved on (another phone entered the same round or cell first), the server refuses it
    if (/\/entries$/.test(url) && fields.seen === undefined) fields = {...fields, seen: stamp()?.dataset.entries ?? ""};
    const item = {url, fields, idem: crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()};
    saveQueue([...queue(), item]);
    closePicker();
    return flush();
  }
  window.addEventListener("online", flush);
  setInterval(() => { if (queue().length) flush(); }, 3000);
  document.addEventListener("DOMContentLoaded", flush);

  document.addEventListener("click", (e) => {
    const button = e.target.closest("[data-post]");
    if (!button || button.disabled) return;
    e.preventDefault();
    let fields = {};
    try { fields = JSON.parse(button.dataset.fields || "{}"); } catch { /* keep empty */ }
    post(button.dataset.post, fields);
  });

  // --- the live board ----------------------------------------------------------------------------
  // A board message (an entry's answer, a live update) is the whole board or the parts that
  // changed since the change it names as its base. It fits a board that shows that base; one
  // no newer than the board is old news; a board elsewhere asks for the whole (web/board.py).
  function fits(html) {
    const tag = /<i\b[^>]*\bid="stamp"[^>]*>/.exec(html)?.[0] ?? "";
    const change = /\bdata-change="(\d+)"/.exec(tag);
    if (!change) return "no";
    const current = Number(stamp()?.dataset.change ?? -1);
    if (Number(change[1]) <= current) return "no";  // never go back in time
    const base = /\bdata-base="(\d+)"/.exec(tag);
    if (!base || Number(base[1]) === current) return "yes";
    refreshBoard();
    return "no";
  }
  function swapBoard(html) {
    const board = $("#board");
    if (board && fits(html) === "yes") htmx.swap({text: html, target: board, swap: "innerHTML", sourceElement: board});
  }
  // the whole board, or (a poll) what changed since the change the board shows
  async function refreshBoard(poll = false) {
    const board = $("#board");
    if (!board?.dataset.boardUrl) return;
    const since = poll && stamp() ? `?since=${stamp().dataset.change}` : "";
    const r = await fetch(board.dataset.boardUrl + since, {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}});
    if (r.ok) swapBoard(await r.text());
    return r;
  }
  document.addEventListener("htmx:sse:before:message", (e) => {
    if (fits(e.detail.message.data) !== "yes") e.detail.cancelled = true;
  });

  // the history's earlier rows come when they are opened (the board keeps the newest), and
  // again after an update while open: an entry moves a row among them
  async function loadEarlier() {
    const details = $("#history-earlier");
    if (!details?.open) return;
    try {
      const r = await fetch(`${$("#board").dataset.boardUrl}/earlier`, {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}});
      if (r.ok) $("ol", details).innerHTML = await r.text();
    } catch { /* the next opening or update tries again */ }
  }
  document.addEventListener("toggle", (e) => { if (e.target?.id === "history-earlier") loadEarlier(); }, true);

  let poller = null;
  function startPolling() {
    if (poller) return;
    poller = setInterval(async () => {
      try {
        if (!await refreshBoard(true)) return;
        if (!queue().length) net("polling", t("Live updates paused — refreshing every 4 s"));
      } catch {
        net("offline", t("Offline — waiting for the network"));
      }
    }, 4000);
  }
  function stopPolling() { clearInterval(poller); poller = null; }
  let live = false;  // the live stream is open: the badge says "Live" again once entries are sent
  document.addEventListener("htmx:sse:error", () => { live = false; net("offline", t("Connection lost — reconnecting")); startPolling(); });
  document.addEventListener("htmx:sse:after:connection", () => { live = true; stopPolling(); if (!queue().length) net("live", t("Live")); });
  document.addEventListener("htmx:sse:close", () => { live = false; startPolling(); });
  document.addEventListener("htmx:after:swap", (e) => { if (e.target?.id === "board") afterBoard(); });
  window.addEventListener("offline", () => net("offline", t("Offline — entries are kept and sent when the network is back")));

  // --- value picker (two taps: a cell, then a value) -------------------------------------------------
  const picker = () => $("#picker");
  function closePicker() { const d = picker(); if (d?.open) d.close(); }
  function openPicker(title, values, make, current) {
    const dialog = picker();
    if (!dialog) return;
    $("[data-title]", dialog).textContent = title;
    const box = $("[data-values]", dialog);
    box.replaceChildren(...values.map(([value, label]) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button value" + (value === 0 ? " zero" : "");
      b.textContent = label;
      if (current !== undefined && String(value) === String(current)) {  // what the cell says now
        b.setAttribute("aria-current", "true");
        b.disabled = true;
      }
      b.dataset.post = make.url;
      b.dataset.fields = JSON.stringify(make.fields(value));
      return b;
    }));
    dialog.showModal();
  }
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-close]")) { closePicker(); return; }
    if (e.target === picker()) { closePicker(); return; }  // a tap on the backdrop
    const cell = e.target.closest("[data-pick]");
    if (cell) {
      const lit = cell.dataset.lit && $("[data-dice-pad]") && dice.length === 5;
      const row = cell.closest("tr");
      const column = Number(cell.dataset.column);
      // the entries the pad showed when the cell was tapped: if another phone (or the host)
      // writes this turn first, the server refuses this tap instead of giving it to the next side
      const seen = stamp()?.dataset.entries ?? "";
      if (lit) {  // a lit cell takes the thrown dice at once
        // the value goes too: a lit ✕ crosses the cell out with dice that do not make it
        post(picker().dataset.enter, {event: {type: "score", column, row: cell.dataset.row, dice: [...dice], served: served(),
                                              value: Number(cell.dataset.lit)}, seen});
        resetDice();
        return;
      }
      const values = JSON.parse(row.dataset.values || "[]");
      const label = row.querySelector("th").textContent.trim();
      openPicker(t("Column %(column)s · %(row)s", {column, row: label}), values, {
        url: picker().dataset.enter,
        fields: (value) => ({event: {type: "score", column, row: cell.dataset.row, value}, seen}),
      });
      return;
    }
    const fix = e.target.closest("[data-correct]");
    if (fix) {  // a written cell (or the history's Correct): its row's values, the current one marked
      const row = fix.closest("tr") || $(`#board .pad tr[data-row="${fix.dataset.row}"]`);
      const values = JSON.parse(fix.dataset.values || row?.dataset.values || "[]");
      const current = fix.dataset.current === "✕" ? "0" : fix.dataset.current;
      const label = row?.querySelector("th")?.textContent.trim() || fix.dataset.row;
      openPicker(t("Correct %(player)s: column %(column)s, row %(row)s", {player: fix.dataset.player, column: fix.dataset.column, row: label}), values, {
        url: picker().dataset.correctUrl,
        fields: (value) => ({target: fix.dataset.correct, event: {value, dice: null, served: null}}),
      }, current);
    }
  });

  // --- dice entry: tap five faces, the cells they could go to light up --------------------------------
  // what this phone tapped belongs to one turn (the tray's data-turn): a new entry, a rematch or
  // the game's end bring a new key, and the dice and "served" of the old turn are forgotten
  let dice = [], servedOn = false, diceTurn = null;
  const served = () => servedOn;
  function resetDice() { dice = []; servedOn = false; showDice(); }
  function followTurn() {
    const key = $("#board [data-turn]")?.dataset.turn ?? null;
    if (key !== diceTurn) { diceTurn = key; dice = []; servedOn = false; }
  }
  function showDice() {
    const pad = $("[data-dice-pad]");
    if (!pad) return;
    $("[data-served]", pad)?.setAttribute("aria-pressed", String(servedOn));
    const thrown = $("[data-thrown]", pad);
    thrown.replaceChildren(...dice.map((face, i) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "die small"; b.dataset.remove = i;
      b.textContent = $(`[data-face="${face}"]`, pad).textContent;
      b.setAttribute("aria-label", t("remove %(face)s", {face: b.textContent}));
      return b;
    }));
    if (dice.length < 5) {
      $("[data-options]", pad).replaceChildren();
      unlight();
      if (dice.length) thrown.dataset.left = t("%(n)s more", {n: 5 - dice.length});
    } else {
      thrown.dataset.left = "";
      lookUp();
    }
  }
  function unlight() { $$("#board [data-lit]").forEach((c) => { delete c.dataset.lit; c.textContent = ""; }); }
  async function lookUp() {
    const pad = $("[data-dice-pad]");
    const url = `${pad.dataset.url}?dice=${dice.join(",")}&served=${served() ? 1 : 0}`;
    try {
      const r = await fetch(url, {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}});
      const html = await r.text();
      if (!r.ok) { say(html); return; }
      $("[data-options]", pad).innerHTML = html;
      light();
      trayRoom();
    } catch {
      net("offline", t("Offline — tap a cell and its value instead"));
    }
  }
  function light() {
    unlight();
    if (dice.length !== 5) return;
    const side = $("#turn")?.dataset.w;  // the pad holds buttons of every side this phone may write
    $$("[data-options] [data-column]").forEach((option) => {
      const cell = $(`#board .s${side} > button.cell[data-column="${option.dataset.column}"][data-row="${option.dataset.row}"]`);
      if (cell) { cell.dataset.lit = option.dataset.value; cell.textContent = option.dataset.value === "0" ? "✕" : option.dataset.value; }
    });
  }
  document.addEventListener("click", (e) => {
    const face = e.target.closest("[data-face]");
    if (face && dice.length < 5) { dice.push(Number(face.dataset.face)); showDice(); return; }
    const remove = e.target.closest("[data-remove]");
    if (remove) { dice.splice(Number(remove.dataset.remove), 1); showDice(); return; }
    if (e.target.closest("[data-options] [data-post]")) resetDice();
  });
  document.addEventListener("click", (e) => {
    if (!e.target.closest("[data-served]")) return;
    servedOn = !servedOn;
    showDice();
  });

  // game scripts listen for this after every new board, live or from a POST's answer
  function afterBoard() {
    loadEarlier();
    followTurn();
    showDice();
    trayRoom();
    $("#board")?.dispatchEvent(new CustomEvent("scorekeeper:board", {bubbles: true}));
  }
  window.scorekeeper = {post, t, nt, num};

  // --- keep the screen awake during a game -------------------------------------------------------------
  let lock = null;
  async function wake() {
    if (!("wakeLock" in navigator) || !$("#board") || document.visibilityState !== "visible") return;
    try { lock = await navigator.wakeLock.request("screen"); } catch { lock = null; }
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);
  document.addEventListener("DOMContentLoaded", () => { followTurn(); trayRoom(); });

  // the board scrolls above the entry tray: room for it under the page
  function trayRoom() {
    const tray = $("[data-tray]");
    document.body.style.setProperty("--tray-h", tray ? `${Math.ceil(tray.getBoundingClientRect().height)}px` : "0px");
  }
  window.addEventListener("resize", trayRoom);

  // --- home screen: the service worker keeps copies of /static/ files only (static/sw.js) -------
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
})();

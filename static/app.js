// Scorekeeper on the phone: only what htmx has no answer to. What a tap sends and where the
// answer goes is in the markup (hx-*); the server renders every board, tray and message. Here:
// the board's version (an older answer never replaces a newer board), entries kept while the
// network is gone and sent again, polling while the live stream is down, steppers, wake lock
// and theme. No inline scripts (CSP).
(() => {
  "use strict";
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const KEPT = "scorekeeper.pending";

  // --- theme --------------------------------------------------------------------------------
  const theme = localStorage.getItem("scorekeeper.theme");
  if (theme) document.documentElement.dataset.theme = theme;
  document.addEventListener("click", (e) => {
    if (!e.target.closest("[data-theme-toggle]")) return;
    const next = getComputedStyle(document.documentElement).colorScheme === "light" ? "dark" : "light";
    document.documentElement.dataset.theme = next;
    localStorage.setItem("scorekeeper.theme", next);
  });

  // --- the network badge, in the phone's language (base.html's #net has the phrases) ----------
  function net(state) {
    const el = $("#net");
    // the same state again says nothing: #net is a live region, and its words set anew after
    // every request had a screen reader say "Live" at each die tapped
    if (!el || (el.dataset.state === state && el.textContent)) return;
    el.dataset.state = state;
    el.textContent = el.dataset[state] || "";
  }

  // --- the board's version ----------------------------------------------------------------------
  // Every board message names the change it brings the board to (the stamp's data-change) and,
  // when it is only parts, the change it starts from (data-base); a tray names the change it
  // was rendered for. Older than the board shown: dropped. Parts of another start: the whole
  // board is fetched instead, so a board never mixes two states (web/board.py).
  const shown = () => Number($("#stamp")?.dataset.change ?? -1);
  document.addEventListener("htmx:before:swap", (e) => {
    const {ctx} = e.detail;
    if (later(ctx)) { e.preventDefault(); return; }  // a proxy's page is no part of a board
    // a tray's answer is for the fields it was asked with: typed or tapped on since, they stand;
    // and for the tray that asked: one an entry's answer has replaced since is gone with its taps
    if (ctx.sourceElement?.id === "tray" && ctx.request.method === "GET") {
      const fields = (pairs) => [...pairs].filter(([name]) => name !== "change").map(String).sort().join("&");
      const asked = fields(new URL(ctx.request.action, location.href).searchParams);
      if (!ctx.sourceElement.isConnected
          || asked !== fields(new FormData(ctx.sourceElement, ctx.sourceEvent?.submitter || null))) { e.preventDefault(); return; }
    }
    const text = ctx.text || "";
    const stamp = /<input\b[^>]*\bid="stamp"[^>]*>/.exec(text)?.[0];
    const change = Number(/\bdata-change="(\d+)"/.exec(stamp || text)?.[1] ?? NaN);
    if (Number.isNaN(change)) return;
    const base = /\bdata-base="(\d+)"/.exec(stamp || "");
    const tray = $("#tray");
    // (the tray itself holds the focus after an entry took its button away: no field being typed in)
    const typing = tray?.contains(document.activeElement) && document.activeElement !== tray ? document.activeElement : null;
    const busy = typing || (tray ? $$("input:not([type=hidden]), textarea", tray) : [])
      .some((i) => i.value !== i.defaultValue || i.checked !== i.defaultChecked);
    // the answer to this phone's own write wins over the live stream's message of the same
    // change, as it carries this phone's tray (a throw taken back, the pad open on it): a whole
    // board, or of its parts the tray alone — unless the player is already at the tray the
    // stream brought (a total typed after an undo went nowhere when the answer came)
    const write = e.detail.ctx.request?.method === "POST";
    const own = !base && write, late = Boolean(base) && write && change === shown();
    if (change < shown() || (stamp && change === shown() && !own && !late) || (late && busy)) { e.preventDefault(); return; }
    if (late) {
      const trays = e.detail.tasks.filter((task) => task.target?.id === "tray");
      if (!trays.length) e.preventDefault();
      e.detail.tasks.splice(0, Infinity, ...trays);
      return;
    }
    if (base && Number(base[1]) !== shown()) { e.preventDefault(); refresh(); return; }
    // the live stream's message of this phone's own entry, come before its answer: its entry is not read back to it (board.py `render`)
    if (!write && going.size) e.detail.tasks.splice(0, Infinity, ...e.detail.tasks.filter((task) => task.target?.id !== "said"));
    // a live message keeps this phone's tray, and what it tapped, while the tray's state holds
    // (the same game and step for the same viewer: another phone joined, say)
    // (and the field being typed in: moving the tray took its focus)
    // (a message of parts aims its tray at this one: that task goes, or the tray would leave the
    // page with it — a board ahead of the change it claimed gets such parts)
    for (const task of stamp && (!own || (change === shown() && busy)) && tray?.dataset.state ? [...e.detail.tasks] : []) {
      const next = task.fragment?.querySelector?.("#tray");
      if (next?.dataset.state !== tray.dataset.state) continue;
      if (task.target === tray) { e.detail.tasks.splice(e.detail.tasks.indexOf(task), 1); continue; }
      next.replaceWith(tray);
      if (typing) document.addEventListener("htmx:after:swap", () => typing.isConnected && typing.focus({preventScroll: true}), {once: true});
    }
    if (!write && document.activeElement?.matches("#tray, #settle") && e.detail.tasks.some((t) => t.target?.contains?.(document.activeElement))) e.detail.tasks.forEach((t) => t.target?.id === "said" && t.fragment?.querySelector?.("[data-turn]")?.remove());  // the focus, on the new tray, says whose turn it is: not #said again
  });
  function refresh(since) {
    const board = $("#board");
    if (!board) return Promise.resolve();
    return htmx.ajax("GET", board.dataset.boardUrl + (since === undefined ? "" : `?since=${since}`),
      {source: board, swap: "none"});
  }
  // an open list of earlier entries follows the board (an entry moves a row into it); a refusal
  // is of the board it was said at (its data-change): once the board has moved on past it (the
  // table played on), it goes — it told a phone woken late "Anna had entered it" turns later
  document.addEventListener("htmx:after:swap", (e) => {
    const said = $("#message > [data-change]");
    if (said && shown() > Number(said.dataset.change)) said.remove();
    if ($("#history-earlier")?.open && /id="stamp"/.test(e.detail.ctx?.text || "")) htmx.trigger($("#history-earlier ol"), "reload");
    marks();
  });

  // --- entries kept while the network is gone -------------------------------------------------------
  // A write (a POST with an idempotency key) is kept from the moment it goes until the server has
  // answered it, and sent again with its body as kept (a throw's kept dice, a field each, whole) until
  // it has: the key makes a resend count once. While kept, its cell (data-pending) and #pending show it (data-pending-text or aria-label).
  // A write still on its way is not sent again: on a slow network its answer can take longer
  // than the resend's tick, and a second answer (the retry's) would replace the first's tray.
  const kept = () => { try { return JSON.parse(localStorage.getItem(KEPT) || "[]"); } catch { return []; } };
  const keep = (items) => { localStorage.setItem(KEPT, JSON.stringify(items)); marks(); };
  // this table's own: another's (a second tab, a table left) is sent as ever, but neither dims,
  // lists nor marks anything here, nor holds back "Live"
  const mine = (here = $("#board")?.dataset.boardUrl?.replace(/board$/, "")) => kept().filter((i) => here && i.url.startsWith(here));
  const going = new Set();  // the idempotency keys of writes on their way now
  document.addEventListener("htmx:before:request", (e) => {
    const {ctx} = e.detail;
    if (ctx.sourceElement?.id === "tray" && ctx.request.method === "GET") { clearTimeout(again); askedBy = ctx.sourceEvent?.submitter || null; }
    if (ctx.kept) { going.add(ctx.kept.idem); ctx.request.body = new URLSearchParams(ctx.kept.body); return; }  // (a resend)
    const body = ctx.request.body;
    if (ctx.request.method !== "POST" || !(body instanceof URLSearchParams) || !body.get("idem")) return;
    const source = ctx.sourceElement;
    ctx.kept = {url: ctx.request.action, body: body.toString(), idem: body.get("idem"),
      cell: source.dataset.pending || "", text: source.dataset.pendingText || source.getAttribute("aria-label") || ""};
    going.add(ctx.kept.idem);
    keep([...kept(), ctx.kept]);
  });
  document.addEventListener("htmx:after:request", (e) => {
    const {ctx} = e.detail;
    if (ctx?.sourceElement?.id === "board" && ctx.request.method === "GET") polled = ctx.response?.status < 400;  // (a poll: `poll`)
    if (later(ctx)) { notThrough(ctx); return; }  // a write refused for now stays kept: sent again
    // a write the server took: a refusal shown before has had its say (and "not through", a tray come)
    if (ctx.request.method === "POST" && ctx.response?.status < 300) $("#message")?.replaceChildren();
    else if (ctx.response?.status < 300 && ctx.sourceElement?.id === "tray") $("#message [data-busy]")?.remove();
    const item = ctx.kept;
    if (item) keep(kept().filter((i) => i.idem !== item.idem));
    if (live) net("live");
  });
  // An answer the app did not give — a limit in front of it saying "not now" (429: nginx's per
  // address, the worker's caps), or the server not answering (502, 503, 504; 408: the request
  // was too slow) — has no words a phone shows (the app's own refusals bring theirs: HX-Retarget,
  // and are final), and an entry refused so was dropped without a sign (a pub's phones behind one
  // router, tapping fast; a server restarting behind nginx): the phone says its tap is not
  // through yet, keeps its write (sent again), asks for its tray again, and asks for another tap
  const later = (ctx) => [408, 429, 502, 503, 504].includes(ctx?.response?.status)
    && !ctx.response.headers.get("HX-Retarget");
  function notThrough(ctx) {
    const tray = ctx.sourceElement?.id === "tray" && ctx.request.method === "GET";
    const words = ctx.kept || tray ? "busy" : ctx.request.method === "POST" ? "busyAgain" : "";
    const area = $("#message");
    if (words && area?.dataset[words] && !$("[data-busy]", area)) {  // (not a tap, polling: it asks again)
      const say = Object.assign(document.createElement("p"), {className: "message", textContent: area.dataset[words]});
      say.setAttribute("role", "status");
      say.dataset.busy = "";
      area.replaceChildren(say);
    }
    if (!tray) return;
    const wait = Number(ctx.response.headers.get("Retry-After")) || (ctx.response.status === 429 ? 1 : 3);
    trayAgain(Math.min(5, wait));
  }
  // a tray that did not come (its dice tapped, its options never shown) is asked for again once the
  // network is back, with what is tapped then and by the button that asked (a maker: no field of its
  // form): once, and not once a tray is asked for since (a refusal's own retry closed a newer question)
  let again = null, offline = false, askedBy = null;
  const ask = () => $("#tray") && (askedBy?.isConnected ? $("#tray").requestSubmit(askedBy) : htmx.trigger($("#tray"), "change"));
  function trayAgain(seconds) {
    clearTimeout(again);
    if (navigator.onLine) again = setTimeout(ask, seconds * 1000);
    else if (!offline) { offline = true; window.addEventListener("online", () => { offline = false; ask(); }, {once: true}); }
  }
  document.addEventListener("htmx:finally:request", (e) => { if (e.detail.ctx?.kept) going.delete(e.detail.ctx.kept.idem); });
  document.addEventListener("htmx:error", (e) => {
    const {ctx} = e.detail;
    if (!ctx || ctx.response) return;
    // (the phone online, the server not answering: said so, not "offline")
    if (ctx.kept) net(navigator.onLine ? "lostKept" : "offline");
    if (ctx.sourceElement?.id !== "tray" || ctx.request.method !== "GET") return;
    // what was tapped stands; the phone says why the next step has not come: where a throw's
    // options come, or atop the tray
    const tray = $("#tray"), thrown = $("#tray .thrown"), why = $("#net")?.dataset[navigator.onLine ? "trayLost" : "tray"] || "";
    if (thrown) Object.assign(thrown.dataset, {left: why, net: ""});  // (said under the dice: app.css)
    else if (tray) tray.dataset.waiting = why;
    trayAgain(3);
  });
  let sending = false;
  async function resend() {
    if (sending || !kept().length || !navigator.onLine) return;
    sending = true;
    try {
      for (const item of kept().filter((i) => !going.has(i.idem))) {
        await htmx.ajax("POST", item.url, {source: document.body, swap: "none", kept: item});  // its body: before:request
        if (kept().some((i) => i.idem === item.idem)) return;  // still offline: later
      }
    } finally {
      sending = false;
    }
  }
  function marks() {
    const items = mine();  // (another table's dimmed this tray, listed its words, marked a cell of the same id)
    for (const cell of $$(".pending[data-pending-text]")) cell.classList.remove("pending");
    for (const item of items) {
      const cell = item.cell && $(item.cell);
      if (cell) { cell.classList.add("pending"); cell.dataset.pendingText = item.text; }
    }
    const list = $("#pending");
    if (list) list.replaceChildren(...items.filter((i) => i.text).map((i) => Object.assign(document.createElement("li"), {textContent: i.text})));
    document.body.toggleAttribute("data-kept", items.length > 0);
  }
  window.addEventListener("online", () => { net(live ? "live" : "back"); resend(); });
  setInterval(resend, 3000);
  document.addEventListener("DOMContentLoaded", () => { marks(); resend(); });

  // --- the live stream, and polling while it is down ---------------------------------------------------
  // The badge says what is so: "refreshing every 4 s" only while a refresh comes (a failed one
  // resolves too: it said so through a power cut), offline while the phone is
  let live = false, poller = null, polled = false;
  const down = () => net(navigator.onLine ? (mine().length ? "lostKept" : "lost") : "offline");  // (a kept entry is still said)
  function poll(on) {
    clearInterval(poller);
    poller = on ? setInterval(() => { polled = false; refresh(shown()).then(() => {
      if (!live && !mine().length) polled ? net("polling") : down(); }); }, 4000) : null;
  }
  // a stream refused as it began (one address's cap on connections: the worker's 503, nginx's
  // 429; a server restarting: 502) or whose first request failed is none hx-sse retries, and no
  // sse:error came: the board stood as it was for good, the badge silent (a pub's phones behind
  // one router, or someone filling its cap). The page polls, and asks for the stream again
  let asking = null;
  function unheard(e) {
    const {ctx} = e.detail, board = $("#board");
    if (!board || ctx?.sourceElement !== board || ctx.request.method !== "GET") return;
    if (!/\/live(\?|$)/.test(ctx.request.action)) return;  // (not a poll's /board)
    if ((ctx.response?.headers.get("Content-Type") || "").includes("text/event-stream") || asking) return;
    live = false; down(); poll(true);
    const wait = Number(ctx.response?.headers.get("Retry-After")) || 5;
    asking = setTimeout(() => { asking = null; htmx.ajax("GET", ctx.request.action, {source: board}); },
      Math.min(60, Math.max(2, wait)) * 1000);
  }
  document.addEventListener("htmx:after:request", unheard);
  document.addEventListener("htmx:error", unheard);
  document.addEventListener("htmx:sse:error", () => { live = false; down(); poll(true); });
  document.addEventListener("htmx:sse:close", () => { live = false; poll(true); });
  // a stream gone silent (the Wi-Fi changed under it: no error, no bytes) showed "Live" over a
  // stale board for good: the server says it is there every so often (#board's data-alive, in
  // seconds: 15), and after two and a half of those of nothing the stream is asked for again,
  // the page polling meanwhile
  let heard = 0, stream = null;
  const silence = () => (Number($("#board")?.dataset.alive) || 15) * 2500 + 2000;
  document.addEventListener("htmx:sse:after:message", () => { heard = Date.now(); });
  document.addEventListener("htmx:sse:after:connection", (e) => {
    live = true; heard = Date.now(); stream = e.detail.connection; poll(false);
    if (!mine().length) net("live");
  });
  // a hidden page's stream is paused by hx-sse, not silent: it has its time again once shown
  document.addEventListener("visibilitychange", () => { if (!document.hidden) heard = Date.now(); });
  setInterval(() => {
    if (!live || document.hidden || Date.now() - heard < silence()) return;
    live = false; down(); poll(true);
    stream?.reader?.cancel();
  }, 1000);
  window.addEventListener("offline", () => net("offline"));

  // --- a call (data-flash) flashes once on this phone, however often the board is redrawn ---------
  function flashes() {
    let seen = {};
    try { seen = JSON.parse(sessionStorage.getItem("scorekeeper.flashed") || "{}"); } catch { /* private mode */ }
    for (const el of $$("[data-flash]")) {
      const key = el.dataset.flash, at = seen[key] ?? Date.now();
      if (Date.now() - at > 2800) el.classList.add("seen");  // the flash's length (a game's CSS)
      else el.style.animationDelay = `-${Date.now() - at}ms`;
      seen[key] = at;
    }
    const kept = Object.entries(seen).sort((a, b) => b[1] - a[1]).slice(0, 50);
    try { sessionStorage.setItem("scorekeeper.flashed", JSON.stringify(Object.fromEntries(kept))); } catch { /* private mode */ }
  }
  document.addEventListener("htmx:after:swap", flashes);
  document.addEventListener("DOMContentLoaded", flashes);

  // --- a <details> the phone opened by a tap stays open when the board is drawn again (the
  // host's seat list snapped shut under the thumb as another phone sat down; a tray's section
  // folded as the form it is in was checked again); the server's own opening and folding
  // of it (the first entry folds it) stand otherwise, and one gone from the page is forgotten
  // (the next round's form starts folded) -----------------------------------------------------------
  const opened = new Set();
  document.addEventListener("click", (e) => {
    const list = e.target.closest("details[data-keep-open] > summary")?.parentElement;
    if (list) list.open ? opened.delete(list.id) : opened.add(list.id);  // before it toggles
  });
  document.addEventListener("htmx:after:swap", () => {
    for (const id of opened) {
      const list = document.getElementById(id);
      if (list) list.setAttribute("open", ""); else opened.delete(id);
    }
  });

  // --- the focus a swap took away: a tap that enters a turn redraws the tray it was in, and the
  // button a screen reader stood on was gone with it, the focus fallen to <body> (the page's top).
  // htmx gives a focus back only to an element of the same id, and an autofocus would take the
  // focus of every phone at every live update: the focus goes to the tray, named by its turn line
  // ("Ben's turn"), or, the game over, to the settlement (a thrown die's, to the best option); a cell's values closed (Escape, a
  // closed <dialog>) or cancelled give it back to the cell they came from (data-back); a focus the swap left alone stays
  let focused = null;
  document.addEventListener("htmx:before:swap", () => { focused = document.activeElement; });
  document.addEventListener("htmx:after:swap", () => {
    if (!focused || focused === document.body || focused.isConnected) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    const back = (focused.closest("dialog:not([open])") || focused).dataset.back;
    const to = (back && $(back)) || (focused.matches("[data-take]") && $("#tray .options :is(button, summary)")) || $("#tray:not([hidden])") || $("#settle:not([hidden])");
    if (!to) return;
    if (to.tabIndex < 0) to.tabIndex = -1;  // (a tray, a settlement; a button keeps its place in the Tab order)
    to.focus({preventScroll: true});
  });

  // --- a <details> whose open state is a field of its form (its input[data-open]) -------------------------
  document.addEventListener("toggle", (e) => {
    const field = e.target.querySelector?.(":scope > input[data-open]");
    if (field) field.value = e.target.open ? "1" : "";
  }, true);

  // --- steppers: − and + change the number beside them (a tray asks the server again) -------------------
  document.addEventListener("click", (e) => {
    const step = e.target.closest(".stepper [data-step]");
    const input = step?.closest(".stepper").querySelector("input");
    if (!input || input.readOnly) return;
    const value = Number(input.value || 0) + Number(step.dataset.step);
    input.value = String(Math.max(Number(input.min || 0), Math.min(Number(input.max || 1e6), value)));
    input.dispatchEvent(new Event("change", {bubbles: true}));
  });

  // --- keep the screen awake at a table; the home screen's copies of /static/ (static/sw.js) -------------
  async function wake() {
    if (!("wakeLock" in navigator) || !$("#board") || document.visibilityState !== "visible") return;
    try { await navigator.wakeLock.request("screen"); } catch { /* not allowed now */ }
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
})();

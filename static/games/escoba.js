// Escoba on the phone: the escoba counters tapped during a round (shared live through the
// table's draft), the round form in its dialog with steppers and a live check from the server,
// and the capture finder without page reloads. app.js does the posting (CSRF, idempotency
// keys, the offline queue); this file only prepares what it posts.
(() => {
  "use strict";
  const {t} = window.scorekeeper;  // app.js, loaded first, has set it
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const MAX_ESCOBAS = 20;
  const fetchHeaders = {"X-Requested-With": "fetch"};

  const dialog = () => $("#escoba-round");
  const form = () => $("[data-escoba-form]", dialog() || document.createElement("div"));
  const board = () => $("#board [data-escoba-board]");

  function parse(text, fallback) {
    try { return JSON.parse(text); } catch { return fallback; }
  }

  // --- escobas of the round: what the server says, and the taps not yet confirmed by it ---------
  let pending = null;  // {counts, at}: taps this phone made that the board may not show yet
  function serverTally() { return parse(board()?.dataset.tally || "[]", []); }
  function sideNames() { return parse(board()?.dataset.sides || "[]", []); }
  function currentTally() { return pending ? [...pending.counts] : serverTally(); }

  function showTally(counts) {
    counts.forEach((count, i) => {
      $$(`[data-tally-count="${i}"]`).forEach((el) => { el.textContent = count; });
      $$(`[data-tally-input="${i}"]`).forEach((el) => { el.value = count; });
      $$(`[data-tally-step="${i}"]`).forEach((b) => {
        const delta = Number(b.dataset.delta);
        b.disabled = delta < 0 ? count <= 0 : count >= MAX_ESCOBAS;
      });
    });
  }

  // Capture phase: runs before app.js posts the button, so the draft it sends adds this tap
  // to every earlier tap, even when the board has not caught up (or the network is gone).
  document.addEventListener("click", (e) => {
    const step = e.target.closest("[data-tally-step]");
    if (!step || step.disabled) return;
    const names = sideNames();
    const counts = currentTally();
    const i = Number(step.dataset.tallyStep);
    if (!names.length || i >= counts.length) return;  // no board to count on: the server's fields stand
    const draftOf = (c) => c.some(Boolean) ? {escobas: Object.fromEntries(names.map((n, k) => [n, c[k]]))} : "";
    const before = draftOf(counts);  // what this tap changes: refused if another phone changed it first
    counts[i] = Math.max(0, Math.min(MAX_ESCOBAS, counts[i] + Number(step.dataset.delta)));
    step.dataset.fields = JSON.stringify({draft: draftOf(counts), from: before});
    pending = {counts, at: Date.now()};
    showTally(counts);
    schedulePreview();
  }, true);

  // --- the board changed (live, or the answer to a post) --------------------------------------------
  let lastSignature = null;
  function boardChanged() {
    const here = board();
    if (!here) return;
    const server = serverTally();
    if (pending && (JSON.stringify(server) === JSON.stringify(pending.counts) || Date.now() - pending.at > 4000)) pending = null;
    showTally(currentTally());
    const signature = here.dataset.signature;
    const changed = lastSignature !== null && signature !== lastSignature;
    lastSignature = signature;
    const open = dialog()?.open;
    const mine = form();
    if (changed && mine && mine.dataset.mode === "enter" && mine.dataset.signature !== signature) {
      // a round went in (or out): the next open starts from a fresh form
      loadForm(null).then((ok) => {
        if (ok && open) notice(t("The table changed — a round was entered or undone. This is the form for the next round."));
      });
      if (open) return;
    }
    if (open) schedulePreview();
  }
  function watchBoard() {
    const target = $("#board");
    if (!target) return;
    new MutationObserver(boardChanged).observe(target, {childList: true});
    boardChanged();
    // a refusal shows in #message, which the open dialog hides: repeat it inside
    const message = $("#message");
    if (message) new MutationObserver(() => {
      const text = message.textContent.trim();
      if (text && dialog()?.open) notice(text);
    }).observe(message, {childList: true, subtree: true});
  }

  // --- the round form ------------------------------------------------------------------------------
  function notice(text) {
    const el = $("[data-notice]", form() || document.createElement("div"));
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
  }

  async function loadForm(correct) {
    const box = dialog();
    if (!box) return false;
    const url = box.dataset.formUrl + (correct ? `?correct=${encodeURIComponent(correct)}` : "");
    try {
      const response = await fetch(url, {credentials: "same-origin", headers: fetchHeaders});
      const html = await response.text();
      if (!response.ok) {
        const area = $("#message");
        if (area) area.innerHTML = html;
        return false;
      }
      box.innerHTML = html;
      showTally(currentTally());
      return true;
    } catch {
      return Boolean(form()) && !correct;  // offline: the form we have is better than none
    }
  }

  async function openRound(correct) {
    const box = dialog();
    if (!box) return;
    let mine = form();
    const wanted = correct ? "correct" : "enter";
    const stale = !mine || mine.dataset.mode !== wanted
      || (correct && mine.elements.correct?.value !== String(correct))
      || (!correct && board() && mine.dataset.signature !== board().dataset.signature);
    if (stale && !(await loadForm(correct))) return;
    mine = form();
    if (!mine) return;
    notice("");
    if (!box.open) box.showModal();
    if (!correct) showTally(currentTally());
    schedulePreview(0);
  }

  let timer = null;
  let asked = 0;
  let inflight = null;
  function schedulePreview(wait = 150) {
    if (!dialog()?.open || !form()) return;
    clearTimeout(timer);
    timer = setTimeout(preview, wait);
  }
  async function preview() {
    const mine = form();
    if (!mine) return;
    const query = new URLSearchParams(new FormData(mine));
    const number = ++asked;
    inflight?.abort();
    inflight = new AbortController();
    try {
      const response = await fetch(`${mine.dataset.previewUrl}?${query}`,
        {credentials: "same-origin", headers: fetchHeaders, signal: inflight.signal});
      const html = await response.text();
      if (number !== asked) return;  // a newer question is on its way
      if (!response.ok) { notice(new DOMParser().parseFromString(html, "text/html").body.textContent.trim()); return; }
      const parts = new DOMParser().parseFromString(html, "text/html");
      $$("[data-part]", parts.body).forEach((part) => {
        const slot = $(`[data-slot="${part.dataset.part}"]`, mine);
        if (slot) slot.innerHTML = part.innerHTML;
      });
    } catch (error) {
      if (error.name !== "AbortError" && number === asked) {
        const confirm = $("[data-round-confirm]", mine);
        if (confirm) confirm.disabled = true;
        notice(t("No connection: the check needs the network. Keep the counts; try again in a moment."));
      }
    }
  }

  function stepInput(button) {
    const input = button.closest(".stepper")?.querySelector("input");
    if (!input || input.readOnly) return;
    const top = Number(input.max || 99);
    const value = Number(input.value || 0) + Number(button.dataset.step);
    input.value = String(Math.max(0, Math.min(top, value)));
    schedulePreview();
  }

  // Capture phase for the confirm button: once sent, a second tap must not enter the round twice.
  document.addEventListener("click", (e) => {
    const confirm = e.target.closest("[data-round-confirm]");
    if (!confirm) return;
    if (confirm.disabled || confirm.dataset.sent) { e.preventDefault(); e.stopPropagation(); return; }
    confirm.dataset.sent = "1";
    setTimeout(() => {  // after app.js has posted this tap (it skips disabled buttons)
      confirm.disabled = true;
      dialog()?.close();
    }, 0);
    if (form()?.dataset.mode === "correct") form().dataset.mode = "done";
  }, true);

  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-open-round]")) { openRound(null); return; }
    const fix = e.target.closest("[data-escoba-correct]");
    if (fix) { openRound(fix.dataset.escobaCorrect); return; }
    if (e.target.closest("[data-close-round]")) { dialog()?.close(); return; }
    const step = e.target.closest("[data-escoba-form] [data-step]");
    if (step) { stepInput(step); return; }
    const left = e.target.closest("[data-escoba-form] [data-leftover]");
    if (left) {
      const input = form()?.elements.leftover;
      if (input) { input.value = left.dataset.leftover; schedulePreview(0); }
    }
  });
  document.addEventListener("input", (e) => { if (e.target.closest("[data-escoba-form]")) schedulePreview(); });
  document.addEventListener("change", (e) => { if (e.target.closest("[data-escoba-form]")) schedulePreview(0); });
  document.addEventListener("submit", (e) => { if (e.target.closest("[data-escoba-form]")) e.preventDefault(); });

  // --- the capture finder: every tap swaps the finder in place and keeps the address --------------------
  document.addEventListener("click", async (e) => {
    const link = e.target.closest("a[data-finder-link]");
    if (!link || e.metaKey || e.ctrlKey) return;
    e.preventDefault();
    const url = new URL(link.href, location.href);
    try {
      const response = await fetch(url.pathname + url.search, {credentials: "same-origin", headers: fetchHeaders});
      if (!response.ok) throw new Error(String(response.status));
      const html = await response.text();
      const finder = $("[data-finder]");
      finder.outerHTML = html;
      history.replaceState(null, "", url.pathname + url.search);
      if (url.hash === "#captures") {
        const answers = $("#captures");
        const box = answers?.getBoundingClientRect();
        if (box && box.top > window.innerHeight - 120) answers.scrollIntoView({behavior: "smooth", block: "start"});
      }
    } catch {
      location.href = link.href;  // the plain link still works
    }
  });

  document.addEventListener("DOMContentLoaded", watchBoard);
})();

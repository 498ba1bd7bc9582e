// The dice pad every dice game shares (templates/_dice_pad.html). The dice tapped so far live
// in the pad's own `dice` input, so a tray the server swaps in forgets them by construction:
// a tapped face joins them, a thrown die taps back out, each shown at once, and the input's
// change asks the server for the tray again (the tray's hx-trigger). The server's options name
// the cells they fill (data-cell); those cells light up with the value, and a tap on a lit
// cell is a tap on its option.
(() => {
  "use strict";
  // A mouse's click counts where its button is let go (pointerup): a click whose press and
  // release straddle a swap of the tray, which moves the faces out and back in (hx-preserve),
  // is never sent — a host's mouse on slow Wi-Fi lost a die so. A finger's tap counts at its
  // click, as always: the click of a touch is aimed anew after pointerup, and the thrown row a
  // tap counted at pointerup grew put the tray's Undo under the finger.
  let upAt = -Infinity;
  function tap(e) {
    const pad = e.target.closest(".dice-pad");
    const face = e.target.closest("[data-face]");
    const out = e.target.closest("[data-take]");
    if (!pad || !(face || out)) return;
    if (e.type === "pointerup") upAt = e.timeStamp;
    else if (e.detail && e.timeStamp - upAt < 1000) return;  // the click of a press counted at its pointerup
    const input = pad.querySelector("input[name=dice]");
    const dice = input.value ? input.value.split(",") : [];
    if (face && dice.length >= Number(pad.dataset.most)) return;
    const back = out?.contains(document.activeElement) && pad.querySelector(`[data-face="${dice[Number(out.dataset.take)]}"]`);
    if (face) dice.push(face.dataset.face);
    else dice.splice(Number(out.dataset.take), 1);
    input.value = dice.join(",");
    pad.querySelector(".thrown").replaceChildren(...dice.map((value, i) => {
      const die = pad.querySelector(`[data-face="${value}"]`).cloneNode(true);
      delete die.dataset.face;
      die.dataset.take = i;
      die.classList.add("small");
      return die;
    }));
    // a keyboard's focus: a die taken back leaves it on its face; the fifth die, the faces hidden (a game's CSS), takes it (then app.js)
    back?.focus();
    if (face?.contains(document.activeElement) && !face.checkVisibility()) pad.querySelector(".thrown").lastChild.focus();
    input.dispatchEvent(new Event("change", {bubbles: true}));
  }
  document.addEventListener("pointerup", (e) => { if (e.pointerType === "mouse" && e.button === 0) tap(e); });
  document.addEventListener("click", tap);

  // a lit cell enters what its option enters (capture: before the cell's own request); an
  // option that takes no tap now (an entry waits to be sent: app.css) takes none through its cell
  // either (a lit cell tapped offline sent a second entry, refused once the network was back)
  document.addEventListener("click", (e) => {
    const cell = e.target.closest("[data-lit]");
    const option = cell && document.querySelector(`#tray [data-cell="${cell.value}"]`);
    if (!option) return;
    e.preventDefault();
    e.stopPropagation();
    if (getComputedStyle(option).pointerEvents !== "none") option.click();
  }, true);

  function light() {
    for (const cell of document.querySelectorAll("[data-lit]")) { delete cell.dataset.lit; cell.textContent = ""; }
    for (const option of document.querySelectorAll("#tray [data-cell][data-value]")) {
      const cell = document.querySelector(`button[form=tray][name=pick][value="${option.dataset.cell}"]`);
      if (cell) { cell.dataset.lit = option.dataset.value; cell.textContent = option.dataset.value === "0" ? "✕" : option.dataset.value; }
    }
  }
  document.addEventListener("htmx:after:swap", light);
  document.addEventListener("DOMContentLoaded", light);
})();

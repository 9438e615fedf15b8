"use strict";
// Round clocks and the venue display (tournaments/display).
//
// [data-clock-src] boxes poll their fragment every data-poll-seconds with the ETag they hold (a 304 keeps the box
// as it is). Every answer carries the server's time in milliseconds (X-Server-Time): the offset between it and this
// browser's clock (taken at the middle of the request) corrects the countdown, so every screen shows the same
// remaining time whatever its own clock says, and a reload starts from the server's figures again.
// [data-clock-state] elements count down: from data-ends-ms (running) or data-remaining-ms (paused).
// On the display, a fragment naming another view (data-display-view: the next round's seating, or the standings)
// reloads the page; [data-pager] boxes show a long table a page at a time.
(() => {
  if (window.wiezenDisplay) return; // a page that includes the script twice runs it once
  window.wiezenDisplay = true;
  const TICK_MS = 200;
  let offset = null; // server time minus this browser's time, in milliseconds

  function serverNow() {
    return Date.now() + (offset ?? 0);
  }

  function format(milliseconds) {
    const total = Math.ceil(milliseconds / 1000);
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = total % 60;
    const two = (n) => String(n).padStart(2, "0");
    return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
  }

  function left(clock) {
    if (clock.dataset.clockState === "paused") return Number(clock.dataset.remainingMs);
    if (clock.dataset.clockState === "running" && offset !== null) {
      return Math.max(0, Number(clock.dataset.endsMs) - serverNow());
    }
    return null;
  }

  function tick() {
    for (const clock of document.querySelectorAll("[data-clock-state]")) {
      const remaining = left(clock);
      if (remaining === null) continue;
      const time = clock.querySelector("[data-clock-time]");
      const text = format(remaining);
      if (time && time.textContent !== text) time.textContent = text;
      clock.dataset.leftMs = String(Math.round(remaining));
      const up = remaining === 0;
      clock.classList.toggle("up", up);
      const note = clock.querySelector("[data-clock-up]");
      if (note) note.hidden = !up;
    }
  }

  const tags = new WeakMap(); // box -> the ETag of what it shows

  async function poll(box) {
    const headers = {};
    if (tags.has(box)) headers["If-None-Match"] = tags.get(box);
    const sent = Date.now();
    let response;
    try {
      response = await fetch(box.dataset.clockSrc, { cache: "no-store", credentials: "same-origin", headers });
    } catch {
      return; // offline for a moment: the countdown goes on, the next poll tries again
    }
    const received = Date.now();
    const server = Number(response.headers.get("X-Server-Time"));
    if (server) offset = server - (sent + received) / 2;
    if (response.status === 200) {
      const body = await response.text();
      tags.set(box, response.headers.get("ETag"));
      box.innerHTML = body;
      const view = box.querySelector("[data-display-view]");
      const shown = document.body.dataset.displayView;
      if (view && shown && view.dataset.displayView !== shown) window.location.reload();
    }
    tick();
  }

  function start(box) {
    const seconds = Number(box.dataset.pollSeconds) || 5;
    poll(box);
    window.setInterval(() => poll(box), seconds * 1000);
  }

  // -- pages of a long table --------------------------------------------------------------------------------------

  function pages(box) {
    const rows = [...box.querySelectorAll("tbody tr")];
    for (const row of rows) row.hidden = false;
    const body = box.querySelector("tbody");
    if (!body || !rows.length) return [];
    const room = box.clientHeight - (body.getBoundingClientRect().top - box.getBoundingClientRect().top);
    const found = [[]];
    let top = rows[0].getBoundingClientRect().top;
    for (const row of rows) {
      const place = row.getBoundingClientRect();
      if (place.bottom - top > room && found.at(-1).length) {
        found.push([]);
        top = place.top;
      }
      found.at(-1).push(row);
    }
    return found;
  }

  function show(box) {
    const all = pages(box);
    const count = Math.max(all.length, 1);
    const page = (Number(box.dataset.page) || 0) % count;
    box.dataset.page = String(page);
    box.dataset.pages = String(count);
    all.forEach((rows, index) => {
      for (const row of rows) row.hidden = index !== page;
    });
    const label = document.querySelector(`[data-pager-label="${box.id}"]`);
    if (label) label.textContent = count > 1 ? `${page + 1} / ${count}` : "";
  }

  function pager(box) {
    const seconds = Number(box.dataset.pageSeconds) || 10;
    show(box);
    window.setInterval(() => {
      box.dataset.page = String((Number(box.dataset.page) || 0) + 1);
      show(box);
    }, seconds * 1000);
    document.body.addEventListener("htmx:afterSwap", (event) => {
      if (box.contains(event.detail.target) || event.detail.target === box) show(box);
    });
    window.addEventListener("resize", () => show(box));
  }

  function ready() {
    for (const box of document.querySelectorAll("[data-clock-src]")) start(box);
    for (const box of document.querySelectorAll("[data-pager]")) pager(box);
    window.setInterval(tick, TICK_MS);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();

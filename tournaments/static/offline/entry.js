// Offline entry (issue 18): the entry page keeps working when the Wi-Fi drops.
//
// - A service worker (offline/worker.js) keeps this page, its scripts and the rules engine, so a reload offline
//   shows the page as last seen.
// - A deal saved while offline, or while earlier ones still wait, is kept in this browser (offline/queue.js) with
//   its idempotency key, and shown with its points and running totals as the engine in the browser settles them
//   (offline/engine.js: the server's own Python, in Pyodide), marked "settled offline".
// - When the connection returns, the kept deals are sent one at a time, in the order they were typed; the server
//   stores each once (its idempotency key). A deal someone else saved meanwhile (409) or one the server refuses
//   (422) stops the queue there, and the table chooses, with the server's line beside theirs.
// Online with nothing kept, the page saves as it always did: a plain form post.
import { engine } from "./engine.js";

const spec = JSON.parse(document.getElementById("engine-spec").textContent);
const words = JSON.parse(document.getElementById("offline-words").textContent);
const queue = self.wiezenQueue;
const form = document.getElementById("entry-form");
const status = document.getElementById("connection");
const keptList = document.getElementById("kept-lines");
const asideList = document.getElementById("set-aside");
const differences = document.getElementById("differences");
const WAITING = ["queued", "conflict", "refused"];
const RETRY_MS = 15000;

let records = null; // this sheet's kept lines, once read
let syncing = false;
let dirty = false; // typed into the form since it was last filled: a finished sync does not reload over it
let problem = null; // why the server would not take the lines (signed out, new table code)
let settled = new Map(); // key → the engine's result for a kept line (points, running totals, or errors)

const say = (text, values) => text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
const counted = (pair, n) => say(n === 1 ? pair.one : pair.other, { n });
const waiting = () => (records || []).filter((r) => WAITING.includes(r.state));
const value = (fields, name) => (fields.find(([n]) => n === name) || [])[1] ?? "";
const values = (fields, name) => fields.filter(([n]) => n === name).map(([, v]) => v);
const whole = (text) => (/^\s*-?\d+\s*$/.test(text) ? parseInt(text, 10) : text); // else the engine refuses it
const labelled = (label, text) => `${label}${words.colon ?? ":"} ${text}`; // "Plis : 8" in French, "Tricks: 8"
const signed = (p) => (p > 0 ? `+${p}` : p < 0 ? `−${-p}` : "0");
// "Deal 3", or in a duplicate round "Deal 3, board 7": the board its table plays as that deal (spec.boards)
const dealName = (deal, correction) => {
  const board = (spec.boards || [])[Number(deal) - 1]; // a page kept by the worker before boards were sent has none
  if (board === undefined) return say(correction ? words.correction : words.deal, { deal });
  return say(correction ? words.correction_board : words.deal_board, { deal, board });
};
const bySeat = (numbers, sign) => numbers.map((p, i) => `${i + 1} ${spec.names[i] || ""} ${sign ? signed(p) : p}`).join(", ");

function newKey() {
  if (self.crypto && crypto.randomUUID) return crypto.randomUUID().replaceAll("-", "");
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function csrf() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

// The engine's line from the form's fields, as tournaments/forms/entry.py builds it on the server.
function toLine(fields) {
  const line = { deal: whole(value(fields, "deal")), dealer: whole(value(fields, "dealer")) };
  if (spec.game === "zwicken") {
    if (value(fields, "cut")) return { ...line, cut: value(fields, "cut") };
    line.played = values(fields, "played").map(whole);
    line.tricks = Array.from({ length: spec.players }, (_, seat) => whole(value(fields, `tricks_${seat}`) || "0"));
    const failed = values(fields, "duties_failed").map(whole);
    if (failed.length) line.duties_failed = failed;
    return line;
  }
  line.contract = value(fields, "contract");
  const seats = value(fields, "seats").replace(/[\s,]/g, "");
  if (seats) line.declarers = [...seats].map((digit) => (/\d/.test(digit) ? Number(digit) - 1 : digit));
  else if (values(fields, "declarers").length) line.declarers = values(fields, "declarers").map(whole);
  const tricks = value(fields, "tricks").trim();
  if (tricks) line.tricks = /[,;]/.test(tricks) ? tricks.split(/[,;]/).filter((t) => t.trim()).map(whole) : whole(tricks);
  for (const name of ["level", "offender"]) if (value(fields, name) !== "") line[name] = whole(value(fields, name));
  if (value(fields, "trump")) line.trump = value(fields, "trump");
  return line;
}

// A kept line in the table's words: each field as the form labels it, lists by the option's text.
function describe(fields) {
  const parts = [];
  for (const [name, typed] of fields) {
    if (["csrfmiddlewaretoken", "idempotency_key", "version", "deal"].includes(name) || typed === "") continue;
    const block = form && form.querySelector(`[data-field="${name}"]`);
    const label = block && block.querySelector("label");
    let shown = typed;
    const choice = block && [...block.querySelectorAll("option, input[type=checkbox]")].find((o) => o.value === typed);
    if (choice) shown = (choice.tagName === "OPTION" ? choice.textContent : (choice.closest("label") || choice).textContent).trim();
    parts.push(label ? labelled(label.textContent.trim().replace(/\s*:$/, ""), shown) : shown);
  }
  return parts.join(" · ");
}

// The sheet as the server has it, with the kept lines on top (a correction replaces its deal), settled in the
// browser. Each kept line's result is remembered by its key; the sheet's next deal is returned (null when the
// engine cannot be had).
async function settleKept() {
  records = await queue.list(spec.sheet);
  const kept = waiting();
  if (!kept.length) return null;
  let pyodide;
  try {
    pyodide = await engine();
  } catch (error) {
    report(error);
    setTimeout(resettle, RETRY_MS / 3); // its files may be on their way: the points come with a later try
    return null;
  }
  const lines = [...spec.lines];
  const owners = lines.map(() => null);
  for (const record of kept) {
    const line = toLine(record.fields);
    const at = Number.isInteger(line.deal) && line.deal >= 1 && line.deal <= lines.length ? line.deal - 1 : lines.length;
    lines[at] = line;
    owners[at] = record.key;
  }
  const sheet = pyodide.sheet(lines);
  const totals = Array(spec.players).fill(0);
  const results = new Map();
  sheet.results.forEach((result, i) => {
    if (result.points) result.points.forEach((p, seat) => { totals[seat] += p; });
    if (owners[i]) results.set(owners[i], { ...result, totals: [...totals] });
  });
  settled = results;
  for (const record of kept) {
    const points = (results.get(record.key) || {}).points || null;
    if (points && JSON.stringify(points) !== JSON.stringify(record.offline)) await queue.update(record.key, { offline: points });
  }
  records = await queue.list(spec.sheet);
  return sheet;
}

// Settling takes the engine (seconds to start): one run at a time, and one more if lines changed meanwhile.
let settling = null;
let settleAgain = false;
function resettle() {
  if (settling) {
    settleAgain = true;
    return settling;
  }
  settling = (async () => {
    let sheet = null;
    do {
      settleAgain = false;
      sheet = await settleKept();
      render();
    } while (settleAgain);
    return sheet;
  })().finally(() => { settling = null; });
  return settling;
}

function showStatus() {
  if (!status) return;
  const kept = waiting();
  const blocked = kept.find((r) => r.state !== "queued");
  let state = "online";
  let text = status.dataset.online;
  if (blocked) {
    state = blocked.state;
    text = say(words[blocked.state], { deal: whole(value(blocked.fields, "deal")) });
  } else if (!navigator.onLine) {
    state = "offline";
    text = kept.length ? counted(words.offline_kept, kept.length) : words.offline;
  } else if (problem) {
    state = "problem";
    text = problem;
  } else if (kept.length) {
    state = syncing ? "syncing" : "waiting";
    text = counted(syncing ? words.syncing : words.waiting, kept.length);
  }
  if (status.dataset.state !== state || status.textContent !== text) {
    status.dataset.state = state;
    status.textContent = text;
  }
  // confirming the sheet needs the server: its buttons wait for the connection
  for (const button of document.querySelectorAll(".review button")) {
    button.disabled = !navigator.onLine;
    button.title = navigator.onLine ? "" : words.review_offline;
  }
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function button(text, action, className = "") {
  const node = element("button", text, className);
  node.type = "button";
  node.addEventListener("click", () => action().catch(report));
  return node;
}

function lineBox(title, text, points) {
  const box = element("div", undefined, "side");
  box.append(element("h3", title), element("p", text));
  if (points) box.append(element("p", points));
  return box;
}

function render() {
  showStatus();
  const kept = waiting();
  keptList.hidden = kept.length === 0;
  keptList.replaceChildren();
  if (kept.length) {
    keptList.append(element("h2", `${words.kept_title} (${kept.length})`));
    const list = element("ol", undefined, "kept");
    for (const record of kept) list.append(keptItem(record));
    keptList.append(list);
  }
  const aside = (records || []).filter((r) => r.state === "aside");
  asideList.hidden = aside.length === 0;
  asideList.replaceChildren();
  if (aside.length) {
    asideList.append(element("h2", words.aside_title));
    const list = element("ul");
    for (const record of aside) {
      const item = element("li", `${labelled(dealName(value(record.fields, "deal"), false), describe(record.fields))} `);
      item.append(button(words.forget, () => drop(record), "secondary"));
      list.append(item);
    }
    asideList.append(list);
  }
  differences.replaceChildren();
  for (const record of (records || []).filter((r) => r.state === "differs")) {
    const note = element("p", say(words.differs, {
      deal: record.server.deal, offline: bySeat(record.offline, true), server: record.server.points_text,
    }), "differs");
    note.append(" ", button(words.dismiss, () => drop(record), "secondary"));
    differences.append(note);
  }
}

function keptItem(record) {
  const deal = whole(value(record.fields, "deal"));
  const correction = Number(value(record.fields, "version")) > 0;
  const item = element("li");
  item.dataset.key = record.key;
  item.dataset.state = record.state;
  item.dataset.deal = String(deal);
  const heading = element("p");
  heading.append(element("strong", dealName(deal, correction)), ` ${describe(record.fields)}`);
  item.append(heading);
  const result = settled.get(record.key);
  if (result && result.points) {
    const points = element("p", `${labelled(words.points, bySeat(result.points, true))} · ${labelled(words.total, bySeat(result.totals, false))} `, "settled");
    points.append(element("em", `(${words.settled_offline})`));
    item.append(points);
  } else if (result && result.errors) {
    const fields = [...new Set(result.errors.map((e) => fieldLabel(e.field)).filter(Boolean))];
    item.append(element("p", say(words.refused_here, { fields: fields.join(", ") || "—" }), "refused"));
  } else {
    item.append(element("p", words.points_later, "muted"));
  }
  if (record.state === "conflict" && record.server) {
    const mine = result && result.points ? bySeat(result.points, true) : "";
    const versus = element("div", undefined, "versus");
    versus.append(lineBox(words.yours, describe(record.fields), mine), lineBox(words.theirs, record.server.words, record.server.points_text));
    item.append(versus, button(words.keep_ours, () => keepOurs(record)), " ", button(words.keep_theirs, () => setAside(record), "secondary"));
  } else if (record.state === "refused" && record.server) {
    const list = element("ul", undefined, "errorlist");
    for (const error of record.server.errors) list.append(element("li", error.label ? labelled(error.label, error.message) : error.message));
    item.append(list, button(words.edit, () => edit(record)), " ", button(words.set_aside, () => setAside(record), "secondary"));
  } else if (result && result.errors) {
    item.append(button(words.edit, () => edit(record)), " ", button(words.set_aside, () => setAside(record), "secondary"));
  }
  return item;
}

function fieldLabel(engineField) {
  const name = engineField === "declarers" ? "seats" : engineField === "tricks" && spec.game === "zwicken" ? "tricks_0" : engineField;
  const label = form && form.querySelector(`[data-field="${name}"] label`);
  return label ? label.textContent.trim().replace(/\s*:$/, "") : "";
}

async function refresh() {
  records = await queue.list(spec.sheet);
  render();
  return resettle();
}

async function drop(record) {
  await queue.remove(record.key);
  await refresh();
}

async function setAside(record) {
  await queue.put({ ...record, state: "aside" });
  await refresh();
  sync();
}

async function keepOurs(record) {
  // saved over the server's current version, knowingly; theirs stays in the sheet's history
  const fields = record.fields.map(([n, v]) => [n, n === "version" ? String(record.server.version) : v]);
  await queue.put({ ...record, fields, state: "queued", server: null });
  await refresh();
  sync();
}

// The kept line back into the form, to be corrected and saved; it leaves the queue (the form now holds it).
async function edit(record) {
  if (!form) return;
  fill(record.fields);
  if (record.state === "conflict" && record.server) form.elements.namedItem("version").value = String(record.server.version);
  await queue.remove(record.key);
  await refresh();
  dirty = true;
}

function fill(fields) {
  for (const field of form.elements) {
    if (!field.name || field.type === "hidden" || field.type === "submit" || field.name === "csrfmiddlewaretoken") continue;
    const typed = values(fields, field.name);
    if (field.type === "checkbox") field.checked = typed.includes(field.value);
    else field.value = typed.length ? typed[0] : "";
  }
  for (const name of ["idempotency_key", "version"]) {
    const hidden = form.elements.namedItem(name);
    if (hidden && value(fields, name) !== "") hidden.value = value(fields, name);
  }
  const contract = form.elements.namedItem("contract");
  if (contract) contract.dispatchEvent(new Event("change"));
}

// After a reload with deals kept, the form opens on the deal after them (the page was kept before they were typed).
function openAfterKept(next) {
  if (!form || dirty || form.elements.namedItem("version").value !== "0") return;
  const kept = waiting().map((r) => r.fields).filter((fields) => value(fields, "version") === "0");
  if (!kept.length) return;
  const last = kept.reduce((a, b) => (Number(value(b, "deal")) > Number(value(a, "deal")) ? b : a));
  const deal = next && Number.isInteger(next.next_deal) ? next.next_deal : Number(value(last, "deal")) + 1;
  if (deal <= Number(form.elements.namedItem("deal").value)) return;
  const dealer = next && Number.isInteger(next.dealer) ? next.dealer : (Number(value(last, "dealer")) + 1) % spec.players;
  form.elements.namedItem("deal").value = String(deal);
  form.elements.namedItem("dealer").value = String(dealer);
}

// The form ready for the next deal, as the server would open it: the deal after the last one, its dealer.
function nextDeal(next, fields) {
  const deal = next && Number.isInteger(next.next_deal) ? next.next_deal : Number(value(fields, "deal")) + 1;
  const dealer = next && Number.isInteger(next.dealer) ? next.dealer : (Number(value(fields, "dealer")) + 1) % spec.players;
  form.reset();
  form.elements.namedItem("deal").value = String(deal);
  form.elements.namedItem("dealer").value = String(dealer);
  form.elements.namedItem("version").value = "0";
  form.elements.namedItem("idempotency_key").value = newKey();
  const correcting = document.getElementById("correcting");
  if (correcting) correcting.hidden = true;
  const contract = form.elements.namedItem("contract");
  if (contract) contract.dispatchEvent(new Event("change"));
  const first = contract || form.querySelector("input[name=played]");
  if (first) first.focus();
  dirty = false;
}

async function keep() {
  if (records === null) records = await queue.list(spec.sheet);
  if (navigator.onLine && waiting().length === 0) {
    form.submit(); // nothing waits: the page's own save
    return;
  }
  const fields = [...new FormData(form).entries()].filter(([, v]) => typeof v === "string");
  if (!value(fields, "idempotency_key")) fields.push(["idempotency_key", newKey()]);
  await queue.add(spec.sheet, fields);
  nextDeal(null, fields); // at once: the table goes on typing while the engine settles
  const opened = [value(fields, "deal"), form.elements.namedItem("deal").value, form.elements.namedItem("dealer").value];
  const next = await refresh();
  // the engine knows better who deals next (a five-table's dealer sits out...), while the form is as opened
  const still = form.elements.namedItem("deal").value === opened[1] && form.elements.namedItem("dealer").value === opened[2];
  if (next && still && !dirty && Number.isInteger(next.next_deal) && next.next_deal > Number(opened[0])) {
    form.elements.namedItem("deal").value = String(next.next_deal);
    if (Number.isInteger(next.dealer)) form.elements.namedItem("dealer").value = String(next.dealer);
  }
  sync();
}

// Send the kept lines, oldest first, one at a time; stop at a line the table must decide on, or when the
// connection fails again (tried again later).
async function sync() {
  if (syncing || !navigator.onLine || records === null) return;
  syncing = true;
  let sent = 0;
  try {
    for (;;) {
      records = await queue.list(spec.sheet);
      const next = waiting()[0];
      if (!next || next.state !== "queued") break;
      showStatus();
      const outcome = await send(next);
      if (outcome === "saved") sent += 1;
      else break;
    }
  } finally {
    syncing = false;
    await refresh();
  }
  // everything is on the server: the page shows the sheet as stored (unless the table is typing the next deal)
  if (sent && waiting().length === 0 && !dirty && !problem && !(records || []).some((r) => r.state === "differs")) {
    window.location.replace(spec.sheet);
  }
}

async function send(record) {
  const body = new URLSearchParams(record.fields.filter(([name]) => name !== "csrfmiddlewaretoken"));
  body.set("csrfmiddlewaretoken", csrf());
  let response;
  try {
    response = await fetch(spec.sync, { method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": csrf() } });
  } catch {
    return "retry";
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok && data && data.state === "saved") {
    problem = null;
    const offline = (settled.get(record.key) || {}).points || record.offline;
    const same = !offline || JSON.stringify(offline) === JSON.stringify(data.points);
    if (same) await queue.remove(record.key);
    else await queue.put({ ...record, offline, state: "differs", server: data });
    return "saved";
  }
  if (response.status === 409 && data) {
    await queue.put({ ...record, state: "conflict", server: data.theirs, message: data.message });
    return "stop";
  }
  if (response.status === 422 && data) {
    await queue.put({ ...record, state: "refused", server: data });
    return "stop";
  }
  if ([401, 403, 404].includes(response.status)) problem = (data && data.message) || words.signed_out;
  return "retry";
}

function report(error) {
  console.error("offline entry:", error);
}

// A correction opened while offline (the "correct" link of a deal, answered with the kept page): the stored line
// goes into the form, with the version it replaces.
function openCorrectionOffline() {
  const wanted = new URLSearchParams(window.location.search).get("deal");
  const stored = wanted && spec.stored[wanted];
  if (!form || !stored || form.elements.namedItem("version").value !== "0") return;
  fill(Object.entries(stored.fields).flatMap(([name, v]) => (Array.isArray(v) ? v.map((x) => [name, x]) : [[name, v]])));
  form.elements.namedItem("version").value = String(stored.version);
  form.elements.namedItem("idempotency_key").value = newKey();
  const note = element("p", say(words.correcting, { deal: wanted }), "correcting");
  note.id = "correcting-offline";
  form.before(note);
}

async function start() {
  if (status) status.dataset.queue = "on"; // this script says the state from now on
  if (form) {
    form.addEventListener("submit", (event) => {
      if (records !== null && navigator.onLine && waiting().length === 0) return; // the page's own save
      event.preventDefault();
      keep().catch(report);
    });
    form.addEventListener("input", () => { dirty = true; });
    openCorrectionOffline();
  }
  window.addEventListener("online", () => { problem = null; showStatus(); sync(); });
  // the engine starts as the connection goes (from the worker's copy), a moment after the network has settled
  window.addEventListener("offline", () => {
    showStatus();
    setTimeout(() => engine().catch(() => {}), 1000);
  });
  await queue.adopt(spec.sheet, spec.former || []);
  records = await queue.list(spec.sheet);
  openAfterKept(null);
  openAfterKept(await refresh());
  if (!navigator.onLine) engine().catch(() => {}); // ready before the first deal is kept
  sync();
  setInterval(sync, RETRY_MS);
}

// The worker keeps this page for a reload offline; on the first visit (no worker yet) it is asked to keep what
// the page was loaded with.
async function register() {
  if (!("serviceWorker" in navigator)) return;
  const firstVisit = !navigator.serviceWorker.controller;
  const registration = await navigator.serviceWorker.register(spec.worker, { scope: spec.scope });
  if (!firstVisit) {
    navigator.serviceWorker.controller.postMessage({ keep: [] }); // the engine kept whole, whatever the install got
    return;
  }
  const ready = await navigator.serviceWorker.ready;
  const assets = [...document.querySelectorAll("script[src], link[href]")]
    .map((node) => new URL(node.src || node.href, window.location.href))
    .filter((url) => url.origin === window.location.origin)
    .map((url) => url.pathname);
  (ready.active || registration.active).postMessage({ keep: [spec.sheet, ...assets] });
}

start().catch(report);
register().catch(report);

"use strict";
// The page's script: the status from the box's event stream (no polling), the session's
// screens, and each control as a console line. Values are shown with `textContent` only.
const $ = (id) => document.getElementById(id);
let csrf = null;
let status = {};
const buffer = [];
let seenAt = null, heardAt = null;
let added = null;

function show(id, visible) { $(id).hidden = !visible; }
function say(text, bad) {
  const message = $("message");
  message.textContent = text || "";
  message.className = bad ? "bad" : "";
}
function seconds(ms) {
  if (typeof ms !== "number") return "—";
  return (ms / 1000).toFixed(ms % 100 === 0 ? 1 : 3).replace(/\.?0+$/, (m) => (m.startsWith(".") ? "" : m)) + " s";
}
function duration(s) {
  if (typeof s !== "number") return "—";
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return h > 0 ? h + " h " + m + " min" : m + " min " + (s % 60) + " s";
}

// The box's JSON answer, or an error naming its status when the body is not JSON.
async function answerOf(response) {
  try { return await response.json(); } catch (e) { return { error: "the box answered " + response.status }; }
}

async function call(path, fields) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Delaybox-CSRF": csrf || "login" },
    body: new URLSearchParams(fields),
  });
  const answer = await answerOf(response);
  if (response.status === 401 && path === "/api/command") { csrf = null; await session(); }
  return { ok: response.ok, answer };
}

// A delay or a channel for the whole venue group when the box is in one and the owner
// ticked it: every box of the group (this one too) carries the line out (`group`).
function forAll(line) {
  return status.group && $("whole-group").checked ? "group " + line : line;
}

// The group's other boxes as this box last heard them (`group`), asked every 5 s while a
// logged-in page shows a box in a group.
let groupTimer = null;
async function groupBoxes() {
  if (!csrf) return;
  const { ok, answer } = await call("/api/command", { line: "group" });
  if (!ok) return;
  const list = $("group-boxes");
  list.replaceChildren();
  for (const box of answer.boxes || []) {
    const item = document.createElement("li");
    item.textContent = box.box + ": " + box.state + ", " + seconds(box.delay_ms) + ", " + box.channel
      + (box.release ? ", release " + box.release : "")
      + (box.heard_s_ago > 60 ? " (not heard for " + duration(box.heard_s_ago) + ")" : "");
    list.append(item);
  }
  show("group-boxes", list.children.length > 0);
}

async function run(line) {
  const { ok, answer } = await call("/api/command", { line });
  if (!ok) { say(answer.error || "refused", true); return null; }
  if (answer.result && answer.result !== "ok") say(answer.result); else say("");
  return answer;
}

// A backup's file sent whole to the box, which checks it before it writes anything and
// restarts on it (Box → Backup, or the first page of a new card).
// With a passphrase, the passwords it holds sealed are restored too (the passphrase in a
// header, base64 of its UTF-8); without, the box keeps its own.
async function restore(file, passphrase) {
  if (file.size > 60000) { say("That file is too large for a backup.", true); return; }
  const headers = { "Content-Type": "application/json", "X-Delaybox-CSRF": csrf || "setup" };
  if (passphrase) headers["X-Delaybox-Passphrase"] = base64(passphrase);
  const response = await fetch("/api/restore", {
    method: "POST",
    credentials: "same-origin",
    headers,
    body: await file.text(),
  });
  const answer = await answerOf(response);
  if (!response.ok) { say(answer.error || "refused", true); return; }
  restarting("Restored: " + answer.changes.join(", ") + ".", answer.notes);
}

function base64(text) {
  return btoa(Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join(""));
}

// A backup with its passwords sealed with the passphrase typed: asked for with a POST (the
// passphrase in no address), saved as the plain link saves one.
async function downloadSealed() {
  const passphrase = $("backup-passphrase").value;
  if (passphrase.length < 8) { say("A passphrase of at least 8 characters seals the passwords.", true); return; }
  const response = await fetch("/api/backup", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Delaybox-CSRF": csrf || "" },
    body: new URLSearchParams({ passphrase }),
  });
  if (!response.ok) { say((await answerOf(response)).error || "refused", true); return; }
  const name = (response.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ? name[1] : "delaybox-backup.json";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  say("Downloaded, its passwords sealed: keep the passphrase apart from the file.");
}

// The box restarts on what it wrote: said, and the page asks again once it is back.
function restarting(done, notes) {
  say(done + (notes && notes.length ? " " + notes.join("; ") + "." : "") + " The box restarts on it.");
  setTimeout(session, 5000);
}

// What "Undo the last change" would change back (`backup list`), beside the button.
async function lastChange() {
  const answer = await run("backup list");
  if (!answer) return;
  $("backup-last").textContent = answer.undo ? "Undo: " + answer.undo : "Nothing to undo yet.";
  $("backup-undo").disabled = !answer.undo;
}

async function session() {
  const response = await fetch("/api/session", { credentials: "same-origin" });
  const state = await response.json();
  csrf = state.logged_in ? state.csrf : null;
  show("controls", state.logged_in);
  show("login", state.password_set && !state.logged_in);
  show("setup", !state.password_set && state.setup_left_s > 0);
  show("setup-closed", !state.password_set && state.setup_left_s <= 0);
  if (!state.password_set && state.setup_left_s > 0) {
    $("setup-left").textContent = "This can be done here for " + Math.ceil(state.setup_left_s / 60) + " more minutes.";
  }
  if (state.logged_in) {
    await channels();
    const answer = await run("version");
    if (answer) $("version").textContent = answer.version;
    await lastChange();
    await machine();
    await boards();
    await wifi();
    await venue();
  }
}

// Box → Venue, on a box installed from the package (issue 70): its part as `venue` says —
// none (make it the hub, or join with a hub's code), the hub (add a box: its code), a box.
let venuePart = null;
async function venue() {
  // Asked quietly: the message line keeps what the last change said.
  const { ok, answer } = await call("/api/command", { line: "venue" });
  venuePart = ok ? answer : null;
  showVenue();
}
function showVenue() {
  const part = venuePart;
  show("venue-part", Boolean(part) && typeof status.daily_updates === "string");
  if (!part) return;
  const words = { hub: "This box is the hub of venue " + part.group + ".",
    box: "This box is in venue " + part.group + " (its hub: " + part.broker + ").",
    none: "This box is in no venue: make it the hub, or join one with a code from the hub's page." };
  $("venue-now").textContent = words[part.role] || "";
  show("venue-hub-form", part.role === "none");
  show("venue-hubs-part", part.role === "none");
  show("venue-join-form", part.role === "none");
  show("venue-add-form", part.role === "hub");
  // The venue's update in stages: the box named first, the others once it plays the release.
  show("venue-update-form", part.role === "hub");
  show("venue-leave", part.role !== "none");
  if (part.role !== "hub") show("venue-code-row", false);
}

// The hubs this box hears on its LAN (`venue hubs`: a second and a half), each with a Join
// button that asks for the key the hub's page showed when the owner added this box.
let chosenHub = null;
async function lookForHubs() {
  say("Listening for hubs…");
  const answer = await run("venue hubs");
  if (!answer) return;
  const list = $("venue-hubs");
  list.replaceChildren();
  for (const hub of answer.hubs || []) {
    const item = document.createElement("li");
    const join = document.createElement("button");
    join.type = "button";
    join.textContent = "Join " + hub.group;
    join.addEventListener("click", () => {
      chosenHub = hub;
      $("venue-key-form").querySelector("button").textContent = "Join " + hub.group;
      show("venue-key-form", true);
      $("venue-join-key").focus();
    });
    item.append(hub.group + " — " + hub.name + " (" + hub.address + ") ", join);
    list.append(item);
  }
  show("venue-hubs", list.children.length > 0);
  say(list.children.length ? "" : "No hub answered: is one made, and on this network?");
}

// A venue change, answered once root has set the broker and the time up (seconds).
async function venueChange(line, waiting) {
  say(waiting);
  const answer = await run(line);
  if (answer) say(answer.venue || "");
  await venue();
  return answer;
}

// The box's Wi-Fi, as `wifi` answers (a board that leaves its Wi-Fi alone: no part). On the
// box's own hotspot this is how a phone gives it the network to join.
async function wifi() {
  const { ok, answer } = await call("/api/command", { line: "wifi" });
  show("wifi-part", ok);
  if (!ok) return;
  $("wifi-now").textContent = (answer.network ? "On " + answer.network + "." : "On no network.")
    + " Its hotspot: " + answer.hotspot + " (" + answer.hotspot_note + "); its password is on the box's label"
    + " or spoken by the box."
    + (answer.joining ? " Joining " + answer.joining + "." : "")
    + (answer.last_join ? " Last: " + answer.last_join + "." : "")
    + (answer.problem ? " " + answer.problem + "." : "");
  const select = $("wifi-network");
  select.replaceChildren();
  for (const network of answer.networks || []) {
    const option = document.createElement("option");
    option.value = network.ssid;
    option.textContent = network.ssid + " (" + network.signal + "%" + (network.security ? "" : ", open") + ")";
    option.selected = network.in_use;
    select.append(option);
  }
}

// The shipped boards, as `board list` answers: the HAT's own (its EEPROM names it)
// chosen first, else the one running.
async function boards() {
  const answer = await run("board list");
  if (!answer) return;
  const proposed = answer.proposed || [];
  const select = $("board");
  select.replaceChildren();
  for (const board of answer.boards || []) {
    const option = document.createElement("option");
    option.value = board.name;
    option.textContent = board.title + (board.title === answer.current ? " (this box)" : "")
      + (proposed.includes(board.name) ? " (the HAT's)" : "");
    option.selected = proposed.length ? board.name === proposed[0] : board.title === answer.current;
    select.append(option);
  }
  $("board-hat").textContent = !answer.hat_says ? "No HAT names itself on this box."
    : "The HAT says it is " + answer.hat_says + (proposed.length ? "." : ": no board here is made for it.");
}

// The machine, as `system` answers: each figure a row of the Box section.
const machineLabels = {
  hostname: "Name", addresses: "Addresses", wifi_interface: "Wi-Fi", wifi_signal_dbm: "Wi-Fi signal (dBm)",
  wifi_missed_beacons: "Wi-Fi missed beacons", cpu_temperature_c: "CPU temperature (°C)", system_uptime_s: "Up since boot",
  reconnects_failed: "Failed reconnects",
};
async function machine() {
  const { ok, answer: figures } = await call("/api/command", { line: "system" });
  if (!ok) return;
  const list = $("machine");
  list.replaceChildren();
  for (const [key, label] of Object.entries(machineLabels)) {
    if (!(key in figures)) continue;
    const term = document.createElement("dt");
    term.textContent = label;
    const value = document.createElement("dd");
    value.textContent = key === "system_uptime_s" ? duration(figures[key]) : String(figures[key]);
    list.append(term, value);
  }
}

async function channels() {
  const response = await fetch("/api/channels", { credentials: "same-origin" });
  if (!response.ok) return;
  const list = await response.json();
  const select = $("channel");
  select.replaceChildren();
  for (const name of list.channels || []) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    option.selected = name === list.selected;
    select.append(option);
  }
}

// The owner's choices as last rendered: when they change, the box keeps a copy once the
// settings rest (2 s) and are written, and what "Undo the last change" would do is asked
// again then — and again a few times while it still says what it said before.
let choices = "";
let choicesTimer = null;
function choicesChanged() {
  const before = $("backup-last").textContent;
  let tries = 0;
  const ask = async () => {
    await lastChange();
    if ($("backup-last").textContent === before && ++tries < 4) choicesTimer = setTimeout(ask, 3000);
  };
  clearTimeout(choicesTimer);
  choicesTimer = setTimeout(ask, 2500);
}

function render() {
  $("state").textContent = status.state || "—";
  const now = [status.delay_ms, status.channel, status.ads].join("|");
  if (csrf && now !== choices) {
    choices = now;
    choicesChanged();
  }
  // Why the stream does not play, as the box has it (a station off the air, a recording).
  show("stream-problem", typeof status.stream_problem === "string");
  if (typeof status.stream_problem === "string") $("stream-problem").textContent = "The stream: " + status.stream_problem;
  $("channel-name").textContent = status.channel || "—";
  $("now-playing").textContent = status.now_playing || "";
  $("delay-set").textContent = seconds(status.delay_ms);
  $("delay-heard").textContent = seconds(status.heard_delay_ms);
  $("delay-available").textContent = seconds(status.available_delay_ms);
  $("volume-now").textContent = status.muted ? "muted" : (status.volume ?? "—") + "";
  $("uptime").textContent = duration(status.uptime_s);
  // Followed from the stream's arrival times once two minutes of them say (issue 58).
  $("station-clock").textContent = status.station_clock_ppm === undefined ? "not known yet"
    : (status.station_clock_ppm > 0 ? "+" : "") + status.station_clock_ppm + " ppm, followed";
  show("group-row", Boolean(status.group));
  // Whether this box plays as one with the room: only while its clock is the room's (issue 70).
  show("room-clock", Boolean(status.group && status.venue_clock));
  if (status.venue_clock) $("room-clock").textContent = "The room's clock: " + status.venue_clock;
  if (status.group) {
    $("group-name").textContent = status.group;
    if (groupTimer === null && csrf) { groupBoxes(); groupTimer = setInterval(groupBoxes, 5000); }
  }
  const building = status.building_delay_ms;
  show("building", typeof building === "number" && building > 0);
  if (typeof building === "number") $("building").textContent = "Recording " + seconds(building) + " more before it plays";
  // An added station is said as the box has it, not as hoped (issue 60): a page
  // link whose stream is still being found, a station off the air.
  if (added && status.channel === added.name) {
    const doing = { playing: "Playing ", buffering: "Recording the delay for ", paused: "Paused: " };
    $("add-question").textContent = doing[status.state] ? doing[status.state] + added.name + "."
      : added.name + ": " + (status.state || "connecting") + " — "
        + (status.stream_problem || "the box is still finding its stream") + ".";
  }
  // Box → Updates, on a box installed from the package (issue 70): what the updater last
  // did, when a new release may restart it, the last rollback and why, the nightly look.
  show("updates-part", typeof status.daily_updates === "string");
  showVenue();
  if (typeof status.daily_updates === "string") {
    $("update-release").textContent = "Release: " + (status.release || "nothing asked of the updater yet");
    $("update-restart").textContent = "A new release restarts it: " + (status.update_restart || "—");
    show("update-rollback", typeof status.last_rollback === "string");
    if (typeof status.last_rollback === "string") $("update-rollback").textContent = "Last rollback: " + status.last_rollback;
    if (document.activeElement !== $("update-daily")) $("update-daily").checked = status.daily_updates === "on";
  }
  if (document.activeElement !== $("volume") && typeof status.volume === "number") $("volume").value = status.volume;
  $("mute").textContent = status.muted ? "Unmute" : "Mute";
  $("pause").textContent = status.state === "paused" ? "Resume" : "Pause";
  if (typeof status.buffer_ms === "number") {
    buffer.push(status.buffer_ms);
    if (buffer.length > 120) buffer.shift();
    const top = Math.max(...buffer, 1);
    const points = buffer.map((v, i) => (i * 120 / 119).toFixed(1) + "," + (24 - (v / top) * 22 - 1).toFixed(1));
    $("buffer-line").querySelector("polyline").setAttribute("points", points.join(" "));
  }
}

function listen() {
  const events = new EventSource("/api/events");
  events.onmessage = (event) => {
    try { status = JSON.parse(event.data); } catch (e) { return; }
    render();
  };
  events.onerror = () => { $("state").textContent = "reconnecting…"; };
}

function tap(which) {
  const now = performance.now();
  if (which === "see") seenAt = now; else heardAt = now;
  if (seenAt === null || heardAt === null) {
    say(which === "see" ? "Now tap “I hear it” when you hear that moment." : "Now tap “I see it” when you see that moment.");
    return;
  }
  // Heard before seen: the sound is early by the difference, so the delay grows; seen
  // before heard: it shrinks.
  const change = Math.round(seenAt - heardAt);
  seenAt = heardAt = null;
  if (Math.abs(change) > 600000) { say("Those taps were too far apart: try again.", true); return; }
  const sign = change >= 0 ? "+" : "-";
  run(forAll("delay " + sign + Math.abs(change) + " ms")).then((answer) => {
    if (answer) say("Delay " + (change >= 0 ? "raised" : "lowered") + " by " + seconds(Math.abs(change)) + ".");
  });
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-line]")) {
    if (button.id === "mute") continue;
    const line = button.dataset.line;
    button.addEventListener("click", () => run(line.startsWith("delay ") ? forAll(line) : line));
  }
  $("mute").addEventListener("click", () => run(status.muted ? "mute off" : "mute on"));
  $("pause").addEventListener("click", () => run(status.state === "paused" ? "resume" : "pause"));
  $("volume").addEventListener("change", () => run("volume " + $("volume").value));
  $("channel-switch").addEventListener("click", () => run(forAll("channel " + $("channel").value)).then(channels));
  $("add-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("add-name").value.trim().replace(/\s+/g, " ");
    const link = $("add-link").value.trim();
    const previous = status.channel;
    if (!(await run("channel add " + name + " " + link))) return;
    if (!(await run("channel " + name))) return;
    added = { name, previous };
    $("add-question").textContent = "Connecting to " + name + "…";
    show("add-decide", true);
    await channels();
  });
  $("add-keep").addEventListener("click", async () => {
    if (await run("config save")) say("Kept: " + added.name + " is saved on the box.");
    show("add-decide", false);
    $("add-name").value = $("add-link").value = "";
  });
  $("add-undo").addEventListener("click", async () => {
    if (added.previous) await run("channel " + added.previous);
    await run("channel remove " + added.name);
    show("add-decide", false);
    await channels();
  });
  $("tap-see").addEventListener("click", () => tap("see"));
  $("tap-hear").addEventListener("click", () => tap("hear"));
  $("delay-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const ms = $("delay-ms").value;
    $("delay-ms").value = "";
    if (ms !== "") run(forAll("delay " + ms + " ms"));
  });
  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { ok, answer } = await call("/api/login", { password: $("login-password").value });
    $("login-password").value = "";
    if (!ok) { say(answer.error || "refused", true); return; }
    say("");
    await session();
  });
  $("setup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if ($("setup-password").value !== $("setup-again").value) { say("The two passwords differ.", true); return; }
    const { ok, answer } = await call("/api/password", { new: $("setup-password").value });
    $("setup-password").value = $("setup-again").value = "";
    if (!ok) { say(answer.error || "refused", true); return; }
    say("Password set.");
    await session();
  });
  $("password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { ok, answer } = await call("/api/password", { current: $("password-current").value, new: $("password-new").value });
    $("password-current").value = $("password-new").value = "";
    if (!ok) { say(answer.error || "refused", true); return; }
    csrf = answer.csrf;
    say("Password changed; other phones must log in again.");
  });
  $("venue-hub-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await venueChange("venue hub " + $("venue-group").value.trim(), "Setting up the venue's broker and time…");
  });
  $("venue-add-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await venueChange("venue add " + $("venue-box").value.trim(), "Letting the box in…");
    if (!answer || !answer.code) return;
    $("venue-code").value = answer.code;
    $("venue-key").textContent = answer.passkey || "";
    show("venue-code-row", true);
    $("venue-box").value = "";
  });
  $("venue-copy").addEventListener("click", async () => {
    $("venue-code").select();
    try { await navigator.clipboard.writeText($("venue-code").value); say("Copied."); } catch (e) { say("Select it and copy."); }
  });
  $("venue-join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = $("venue-join-code").value.trim();
    $("venue-join-code").value = "";
    await venueChange("venue join " + code, "Joining the venue…");
  });
  $("venue-look").addEventListener("click", lookForHubs);
  $("venue-key-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!chosenHub) return;
    const key = $("venue-join-key").value.trim();
    $("venue-join-key").value = "";
    const where = (chosenHub.address.includes(":") ? "[" + chosenHub.address + "]" : chosenHub.address)
      + ":" + chosenHub.page_port;
    await venueChange("venue join " + where + " " + key.replace(/\s+/g, ""), "Asking the hub and joining…");
  });
  $("venue-update-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await run("group update --canary " + $("venue-canary").value.trim());
    if (answer) say("The venue updates in stages: " + $("venue-canary").value.trim()
      + " first, the other boxes once it plays the new release (each at its next pause or in its update window).");
  });
  $("venue-leave").addEventListener("click", async () => {
    await venueChange("venue leave", "Leaving the venue…");
  });
  $("update-check").addEventListener("click", async () => {
    const answer = await run("update check");
    if (answer) say("Looking for a new release: the Updates part says what it finds.");
  });
  $("update-install").addEventListener("click", async () => {
    const answer = await run("update later");
    if (answer) say("Installing the newest release: it starts at the next pause, or in the update window.");
  });
  $("update-daily").addEventListener("change", async () => {
    const answer = await run("update daily " + ($("update-daily").checked ? "on" : "off"));
    if (answer) say("Nightly updates " + answer.daily_updates + ".");
  });
  $("reset-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = { password: $("reset-password").value, confirm: $("reset-confirm").value };
    if ($("reset-wifi").checked) fields.wifi = "forget";
    $("reset-password").value = $("reset-confirm").value = "";
    const { ok, answer } = await call("/api/reset", fields);
    if (!ok) { say(answer.error || "refused", true); return; }
    csrf = null;
    say("The box is reset and restarts: choose its new password here within 30 minutes.");
    // The box is back in a few seconds, with no password: the page offers to choose one.
    setTimeout(session, 5000);
  });
  $("backup-download").addEventListener("click", async (event) => {
    if (!$("backup-passwords").checked) return;
    event.preventDefault();
    await downloadSealed();
  });
  for (const [id, passphrase] of [["backup-file", "backup-passphrase"], ["setup-restore", "setup-passphrase"]]) {
    $(id).addEventListener("change", async () => {
      const file = $(id).files[0];
      $(id).value = "";
      if (file) await restore(file, $(passphrase).value);
    });
  }
  $("backup-undo").addEventListener("click", async () => {
    const answer = await run("backup undo");
    if (answer) restarting("Undone: " + answer.changes.join(", ") + ".", answer.notes);
  });
  $("logout").addEventListener("click", async () => {
    await call("/api/logout", {});
    await session();
  });
  $("console-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const line = $("console-line").value.trim();
    if (line === "") return;
    const { ok, answer } = await call("/api/command", { line });
    const out = $("console-answer");
    out.textContent = ok ? Object.entries(answer).map(([k, v]) => k + ": " + (typeof v === "object" ? JSON.stringify(v) : v)).join("\n")
                         : "error: " + (answer.error || "refused");
    out.className = ok ? "" : "bad";
    show("console-answer", true);
  });
  $("board-use").addEventListener("click", () => {
    const option = $("board").selectedOptions[0];
    if (!option) return;
    $("board-question").textContent = "Make this box " + option.textContent + "? It restarts on it.";
    show("board-decide", true);
  });
  $("board-no").addEventListener("click", () => show("board-decide", false));
  $("board-yes").addEventListener("click", async () => {
    show("board-decide", false);
    const answer = await run("board use " + $("board").value);
    if (answer) say("Board " + answer.board + ".");
  });
  $("wifi-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("wifi-other").value || $("wifi-network").value;
    if (!name) return;
    // The name quoted as the console reads it; the password is the rest of the line.
    const quoted = '"' + name.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
    const password = $("wifi-password").value;
    const answer = await run("wifi join " + quoted + (password ? " " + password : ""));
    if (!answer) return;
    $("wifi-password").value = "";
    say("Joining " + name + ". A phone on the box's hotspot loses this page now; the box says its new address aloud.");
  });
  $("hotspot-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const password = $("hotspot-password").value;
    if (!password) return;
    const answer = await run("wifi hotspot password " + password);
    if (!answer) return;
    $("hotspot-password").value = "";
    say("The hotspot's password is changed: a phone joins it with the new one.");
  });
  $("log-show").addEventListener("click", async () => {
    const answer = await run("log tail 20");
    if (!answer) return;
    $("log").textContent = (answer.lines || []).join("\n");
    show("log", true);
  });
  session();
  listen();
});

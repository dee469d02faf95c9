// Made by tools/web-page.py from Sources/DelayboxWeb/page: edit those files, then run
// `tools/web-page.py --write` (make check and make test fail while this file is stale).

/// The page's three files, as the box serves them (WebAssets).
enum WebPageFiles {
    /// The markup: every screen, shown or hidden by the script. (delaybox.html)
    static let html = ##"""
        <!doctype html>
        <!-- The page's markup: every screen is here, shown or hidden by delaybox.js. Served as it is (tools/web-page.py embeds it). -->
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Delaybox</title>
        <link rel="stylesheet" href="/delaybox.css">
        <script src="/delaybox.js" defer></script>
        </head>
        <body>
        <header>
          <h1>Delaybox</h1>
          <span id="state" class="badge">connecting…</span>
        </header>
        <main>
          <section id="now" aria-label="Now">
            <div class="channel"><span id="channel-name">—</span></div>
            <div id="now-playing" class="title"></div>
            <div class="figures">
              <div><span class="label">Delay</span><span id="delay-set" class="big">—</span></div>
              <div><span class="label">Heard</span><span id="delay-heard">—</span></div>
              <div><span class="label">Available</span><span id="delay-available">—</span></div>
              <div><span class="label">Volume</span><span id="volume-now">—</span></div>
            </div>
            <div id="building" class="note" hidden></div>
            <div id="stream-problem" class="note bad" hidden></div>
            <svg id="buffer-line" viewBox="0 0 120 24" preserveAspectRatio="none" aria-label="Buffer over the last two minutes"><polyline points=""/></svg>
          </section>

          <p id="message" role="status" aria-live="polite"></p>

          <section id="setup" hidden>
            <h2>Choose a password</h2>
            <p>Nothing on this box changes without it. Pick one you can type on your phone: 8 characters at least.</p>
            <form id="setup-form">
              <input id="setup-password" type="password" autocomplete="new-password" placeholder="New password" required minlength="8">
              <input id="setup-again" type="password" autocomplete="new-password" placeholder="Again" required minlength="8">
              <button type="submit">Set password</button>
            </form>
            <p id="setup-left" class="note"></p>
            <p class="note">A new card for a box you had? <label class="button" for="setup-restore">Restore its backup…</label>
              <input id="setup-restore" type="file" accept=".json,application/json" aria-label="A backup to restore" hidden>
              <input id="setup-passphrase" type="password" autocomplete="off" placeholder="Its passphrase, if it holds passwords"
                aria-label="The passphrase of the backup's passwords"></p>
          </section>

          <section id="setup-closed" hidden>
            <h2>No password yet</h2>
            <p>The first password is chosen here in the first 30 minutes after the box is switched on.
              Unplug the box, plug it in again, and reload this page.</p>
          </section>

          <section id="login" hidden>
            <h2>Log in</h2>
            <form id="login-form">
              <input id="login-password" type="password" autocomplete="current-password" placeholder="Password" required>
              <button type="submit">Log in</button>
            </form>
          </section>

          <div id="controls" hidden>
            <section aria-label="Delay">
              <h2>Delay</h2>
              <label id="group-row" class="row" hidden><input id="whole-group" type="checkbox">
                Every box of the group <span id="group-name"></span>: delay and channel</label>
              <ul id="group-boxes" class="note" aria-label="The group's other boxes" hidden></ul>
              <p id="room-clock" class="note" hidden></p>
              <div class="row steps">
                <button data-line="delay -10">−10 s</button><button data-line="delay -1">−1 s</button><button data-line="delay -0.1">−0.1 s</button>
                <button data-line="delay +0.1">+0.1 s</button><button data-line="delay +1">+1 s</button><button data-line="delay +10">+10 s</button>
              </div>
              <form id="delay-form" class="row">
                <input id="delay-ms" type="number" inputmode="numeric" min="0" step="1" placeholder="Delay in ms">
                <button type="submit">Set</button>
                <button type="button" data-line="delay live">Live</button>
              </form>
              <h3>Sync to the picture</h3>
              <p class="note">Tap when you see a moment on the TV and when you hear it, in either order.</p>
              <div class="row sync">
                <button id="tap-see" type="button">I see it</button>
                <button id="tap-hear" type="button">I hear it</button>
              </div>
              <h3>Presets</h3>
              <div class="row presets">
                <button data-line="preset recall 1">1</button><button data-line="preset recall 2">2</button>
                <button data-line="preset recall 3">3</button><button data-line="preset recall 4">4</button>
              </div>
              <div class="row presets save">
                <span class="label">Save as</span>
                <button data-line="preset save 1">1</button><button data-line="preset save 2">2</button>
                <button data-line="preset save 3">3</button><button data-line="preset save 4">4</button>
              </div>
            </section>

            <section aria-label="Sound">
              <h2>Sound</h2>
              <div class="row">
                <input id="volume" type="range" min="0" max="100" step="1" aria-label="Volume">
              </div>
              <div class="row">
                <button id="mute" type="button" data-line="mute">Mute</button>
                <button id="pause" type="button">Pause</button>
              </div>
            </section>

            <section aria-label="Channel">
              <h2>Channel</h2>
              <div class="row">
                <select id="channel" aria-label="Channel"></select>
                <button id="channel-switch" type="button">Switch</button>
              </div>
              <h3>Add a station</h3>
              <p class="note">Paste the link from the station's website (a stream, or a .pls, .m3u, .xspf or .asx link).
                The box plays it at once; keep it if it sounds right.</p>
              <form id="add-form">
                <input id="add-name" type="text" placeholder="Name, e.g. Club Radio" required maxlength="60" autocapitalize="words">
                <input id="add-link" type="url" inputmode="url" placeholder="https://…/station.pls" required>
                <button type="submit">Add and play</button>
              </form>
              <div id="add-decide" class="row" hidden>
                <span id="add-question"></span>
                <button id="add-keep" type="button">Keep it</button>
                <button id="add-undo" type="button">Remove it</button>
              </div>
            </section>

            <section aria-label="Box">
              <h2>Box</h2>
              <p class="note">Version <span id="version">—</span> · playing for <span id="uptime">—</span>
                · the station's clock <span id="station-clock">not known yet</span></p>
              <dl id="machine" class="machine"></dl>
              <div class="row">
                <button id="log-show" type="button">Last log lines</button>
                <a id="journal" class="button" href="/api/journal" download>The last hour's log</a>
                <button id="logout" type="button">Log out</button>
              </div>
              <pre id="log" hidden></pre>
              <h3>Board</h3>
              <p id="board-hat" class="note"></p>
              <div class="row">
                <select id="board" aria-label="Board"></select>
                <button id="board-use" type="button">Use this board</button>
              </div>
              <div id="board-decide" class="row" hidden>
                <span id="board-question"></span>
                <button id="board-yes" type="button">Restart on it</button>
                <button id="board-no" type="button">Cancel</button>
              </div>
              <div id="wifi-part" hidden>
                <h3>Wi-Fi</h3>
                <p id="wifi-now" class="note"></p>
                <form id="wifi-form">
                  <div class="row">
                    <select id="wifi-network" aria-label="Network"></select>
                    <input id="wifi-other" type="text" aria-label="Another network's name" placeholder="or its name"
                      autocapitalize="none" autocomplete="off" spellcheck="false" maxlength="32">
                  </div>
                  <div class="row">
                    <input id="wifi-password" type="password" aria-label="The network's password"
                      placeholder="Its password (none: an open network)" autocomplete="off" maxlength="64">
                    <button type="submit">Join</button>
                  </div>
                </form>
                <form id="hotspot-form" class="row">
                  <input id="hotspot-password" type="password" aria-label="The hotspot's new password"
                    placeholder="The hotspot's new password (8-63 characters)" autocomplete="new-password" minlength="8"
                    maxlength="63">
                  <button type="submit">Change</button>
                </form>
              </div>
              <div id="updates-part" hidden>
                <h3>Updates</h3>
                <p id="update-release" class="note"></p>
                <p id="update-restart" class="note"></p>
                <p id="update-rollback" class="note bad" hidden></p>
                <div class="row">
                  <button id="update-check" type="button">Check now</button>
                  <button id="update-install" type="button">Install at the next pause</button>
                </div>
                <label class="row"><input id="update-daily" type="checkbox"> Look for a new release every night</label>
              </div>
              <div id="venue-part" hidden>
                <h3>Venue</h3>
                <p id="venue-now" class="note"></p>
                <form id="venue-hub-form" class="row" hidden>
                  <input id="venue-group" type="text" aria-label="The venue's name" placeholder="The venue's name, e.g. pub"
                    autocapitalize="none" autocomplete="off" spellcheck="false" maxlength="64" required>
                  <button type="submit">Make this box the venue's hub</button>
                </form>
                <form id="venue-add-form" class="row" hidden>
                  <input id="venue-box" type="text" aria-label="The other box's name" placeholder="Another box's name, e.g. screen2"
                    autocapitalize="none" autocomplete="off" spellcheck="false" maxlength="64" required>
                  <button type="submit">Add a box</button>
                </form>
                <div id="venue-code-row" hidden>
                  <p class="note">On that box's page (Box → Venue): choose this hub under "Hubs on this network" and
                    type the key <strong id="venue-key"></strong> (good for 15 minutes, once). Or paste its join code
                    there — it is that box's password; this page shows it once.</p>
                  <div class="row">
                    <input id="venue-code" type="text" readonly aria-label="The box's join code">
                    <button id="venue-copy" type="button">Copy</button>
                  </div>
                </div>
                <div id="venue-hubs-part" hidden>
                  <div class="row">
                    <button id="venue-look" type="button">Look for hubs on this network</button>
                  </div>
                  <ul id="venue-hubs" class="note" aria-label="The hubs this box hears" hidden></ul>
                  <form id="venue-key-form" class="row" hidden>
                    <input id="venue-join-key" type="text" aria-label="The key the hub's page shows" placeholder="The key, e.g. K7QF-2MXP"
                      autocapitalize="characters" autocomplete="off" spellcheck="false" maxlength="12" required>
                    <button type="submit">Join</button>
                  </form>
                </div>
                <form id="venue-join-form" class="row" hidden>
                  <input id="venue-join-code" type="text" aria-label="A hub's join code" placeholder="A join code from the hub's page"
                    autocapitalize="none" autocomplete="off" spellcheck="false" required>
                  <button type="submit">Join</button>
                </form>
                <form id="venue-update-form" class="row" hidden>
                  <input id="venue-canary" type="text" aria-label="The box that updates first"
                    placeholder="The box that updates first, e.g. screen2" autocapitalize="none" autocomplete="off"
                    spellcheck="false" maxlength="64" required>
                  <button type="submit">Update the venue</button>
                </form>
                <button id="venue-leave" type="button" hidden>Leave the venue</button>
              </div>
              <h3>Console</h3>
              <p class="note">A console command (docs/console.md), e.g. <code>events</code>, <code>ads off</code>,
                <code>config get defaults.delay</code>; the box's devices, hosts and secrets are its console's.</p>
              <form id="console-form" class="row">
                <input id="console-line" type="text" autocapitalize="none" autocomplete="off" spellcheck="false" placeholder="status">
                <button type="submit">Run</button>
              </form>
              <pre id="console-answer" hidden></pre>
              <form id="password-form">
                <h3>Change the password</h3>
                <input id="password-current" type="password" autocomplete="current-password" placeholder="Current password" required>
                <input id="password-new" type="password" autocomplete="new-password" placeholder="New password" required minlength="8">
                <button type="submit">Change</button>
              </form>
              <div id="backup-part">
                <h3>Backup</h3>
                <p class="note">The delay, volume, presets, channels and settings saved here as one file to keep. A new
                  box takes it on its first page; this box keeps a copy after each change. Its passwords (this page's,
                  the venue's MQTT one) only if you tick the box: sealed with a passphrase of 8 or more characters,
                  which restoring them asks for again.</p>
                <div class="row">
                  <input id="backup-passphrase" type="password" autocomplete="off" placeholder="Passphrase"
                    aria-label="The passphrase that seals or opens a backup's passwords">
                  <label><input id="backup-passwords" type="checkbox"> Include the passwords</label>
                </div>
                <div class="row">
                  <a id="backup-download" class="button" href="/api/backup" download>Download a backup</a>
                  <label class="button" for="backup-file">Restore a backup…</label>
                  <input id="backup-file" type="file" accept=".json,application/json" aria-label="A backup to restore" hidden>
                </div>
                <div class="row">
                  <button id="backup-undo" type="button">Undo the last change</button>
                  <span id="backup-last" class="note"></span>
                </div>
              </div>
              <form id="reset-form">
                <h3>Factory reset</h3>
                <p class="note">Removes the delay, volume, presets, the channels and settings saved here and this page's
                  password; the box restarts as it came and says so. Its board stays, and its Wi-Fi unless ticked.</p>
                <input id="reset-password" type="password" autocomplete="current-password" placeholder="Password" required>
                <input id="reset-confirm" type="text" autocapitalize="none" autocomplete="off" spellcheck="false"
                  placeholder="Type reset" aria-label="Type reset to confirm" required>
                <label class="row"><input id="reset-wifi" type="checkbox"> Forget its Wi-Fi networks too</label>
                <button type="submit" class="danger">Reset the box</button>
              </form>
            </section>
          </div>
        </main>
        </body>
        </html>

        """##

    /// The script. (delaybox.js)
    static let js = ##"""
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

        """##

    /// The style. (delaybox.css)
    static let css = ##"""
        /* The page's look: phone first (one column at 390 px), a wider grid on a desktop, large
           targets for thumbs, the system's fonts (nothing downloaded), light and dark. */
        :root { color-scheme: light dark; --accent: #1f6feb; --bad: #c62828; --card: rgba(127,127,127,.10); }
        * { box-sizing: border-box; }
        /* Hidden means hidden, whatever layout a class gives (a .row is a flex box). */
        [hidden] { display: none !important; }
        body { margin: 0; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        header { display: flex; align-items: center; justify-content: space-between; padding: 12px 16px; }
        h1 { font-size: 1.25rem; margin: 0; }
        h2 { font-size: 1.05rem; margin: 0 0 8px; }
        h3 { font-size: .95rem; margin: 12px 0 6px; }
        main { padding: 0 12px 24px; max-width: 980px; margin: 0 auto; }
        section { background: var(--card); border-radius: 12px; padding: 12px; margin: 0 0 12px; }
        .badge { padding: 2px 10px; border-radius: 999px; background: var(--accent); color: #fff; font-size: .85rem; }
        .channel { font-weight: 600; }
        .title { min-height: 1.4em; opacity: .8; overflow-wrap: anywhere; }
        .figures { display: grid; grid-template-columns: repeat(2, 1fr); gap: 8px; margin: 8px 0; }
        .figures div { display: flex; flex-direction: column; }
        .label { font-size: .8rem; opacity: .7; }
        .big { font-size: 1.6rem; font-weight: 600; font-variant-numeric: tabular-nums; }
        .note { font-size: .85rem; opacity: .8; }
        #buffer-line { width: 100%; height: 32px; }
        #buffer-line polyline { fill: none; stroke: var(--accent); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
        .row { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin: 6px 0; }
        .steps button { flex: 1 0 28%; }
        .sync button { flex: 1; min-height: 64px; font-size: 1.1rem; }
        .presets button { flex: 1; }
        button, input, select { font: inherit; min-height: 44px; border-radius: 8px; }
        button, a.button, label.button { border: 0; padding: 0 12px; background: var(--accent); color: #fff; }
        a.button, label.button { display: inline-flex; align-items: center; min-height: 44px; border-radius: 8px; text-decoration: none; font-size: .95rem; }
        button:active { filter: brightness(.85); }
        input, select { border: 1px solid rgba(127,127,127,.5); padding: 0 10px; background: transparent; color: inherit; flex: 1; min-width: 0; }
        input[type=range] { width: 100%; }
        form { display: flex; flex-direction: column; gap: 8px; }
        form.row { flex-direction: row; }
        #message { min-height: 1.4em; margin: 4px 4px 12px; }
        .bad { color: var(--bad); }
        /* What cannot be undone: red, not the accent. */
        button.danger { background: var(--bad); color: #fff; }
        input[type=checkbox] { min-height: 0; width: 22px; height: 22px; flex: 0 0 auto; }
        .machine { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; font-size: .85rem; margin: 0 0 8px; }
        .machine dt { opacity: .7; }
        .machine dd { margin: 0; overflow-wrap: anywhere; }
        code { font-size: .85em; }
        pre { white-space: pre-wrap; font-size: .75rem; max-height: 40vh; overflow: auto; }
        @media (min-width: 760px) {
          #controls { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
          #controls section { margin: 0; }
        }

        """##
}

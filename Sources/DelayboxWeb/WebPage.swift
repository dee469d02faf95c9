/// The page's markup: every screen is here, shown or hidden by delaybox.js.
enum WebPage {
    static let html = #"""
        <!doctype html>
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
              <h3>Console</h3>
              <p class="note">Any console command (docs/console.md), e.g. <code>config show</code>, <code>events</code>,
                <code>ads off</code>, <code>config set mqtt.broker mqtt://…</code>.</p>
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
            </section>
          </div>
        </main>
        </body>
        </html>
        """#
}

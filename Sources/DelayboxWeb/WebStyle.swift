/// The page's look: phone first (one column at 390 px), a wider grid on a desktop, large
/// targets for thumbs, the system's fonts (nothing downloaded), light and dark.
enum WebStyle {
    static let css = #"""
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
        button, a.button { border: 0; padding: 0 12px; background: var(--accent); color: #fff; }
        a.button { display: inline-flex; align-items: center; min-height: 44px; border-radius: 8px; text-decoration: none; font-size: .95rem; }
        button:active { filter: brightness(.85); }
        input, select { border: 1px solid rgba(127,127,127,.5); padding: 0 10px; background: transparent; color: inherit; flex: 1; min-width: 0; }
        input[type=range] { width: 100%; }
        form { display: flex; flex-direction: column; gap: 8px; }
        form.row { flex-direction: row; }
        #message { min-height: 1.4em; margin: 4px 4px 12px; }
        .bad { color: var(--bad); }
        .machine { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; font-size: .85rem; margin: 0 0 8px; }
        .machine dt { opacity: .7; }
        .machine dd { margin: 0; overflow-wrap: anywhere; }
        code { font-size: .85em; }
        pre { white-space: pre-wrap; font-size: .75rem; max-height: 40vh; overflow: auto; }
        @media (min-width: 760px) {
          #controls { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
          #controls section { margin: 0; }
        }
        """#
}

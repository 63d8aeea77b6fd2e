package io.jroce.tools.explain;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code jroce explain --html}: one self-contained, offline page of a run. The analysis goes in as
 * JSON (written by Jackson, with every {@code <} escaped so that nothing in a capture can close the
 * script element); the page's own script draws each connection's ladder as SVG, to time scale
 * (each arrow is placed by its time, with a minimum gap so that bursts stay readable; arrows slant
 * from the sender's time line towards the receiver's) and to the width of its pane (the lanes take
 * what the state columns leave, long labels and cell lines wrap at spaces, so that in a window
 * 1400 px wide the pane does not scroll sideways), a cross where a packet was lost, a delayed
 * packet's arrow ending where it arrived, a duplicated packet's copy under it, for event logs a
 * column of state beside each end's lane (what changed in its QP at each row, and after the last
 * packet, from {@link StateColumns}), and shows a packet's notes, the QPs' state as the event logs
 * had it at that time (for logs) and every field (as {@code --packet N} explains it, for captures)
 * when it is clicked; buttons and the arrow keys step through the run, and a search box finds
 * packets by any text of their line or notes. No network, no external file, no template engine.
 */
final class HtmlPage {
    private final String title;
    private final long startNs;
    private final List<Map<String, Object>> connections = new ArrayList<>();

    HtmlPage(String title, long startNs) {
        this.title = title;
        this.startNs = startNs;
    }

    /**
     * Adds a connection: its report, the packets shown, what the network did to some (by frame: a
     * lost one is drawn crossed, a delayed one's arrow ends where it arrived, a duplicated one has
     * its copy drawn), and for event logs the QPs' state over time (null for a capture), shown with
     * each packet and in the state columns.
     */
    void add(Report report, List<Packet> shown, Map<Integer, NetworkFault> faults, QpStateTimeline states) {
        Connection c = report.connection();
        List<Map<String, Object>> packets = new ArrayList<>();
        for (Packet p : shown) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("frame", p.label());
            m.put("t", Durations.relative(p.timeNs(), startNs));
            m.put("ns", p.timeNs() - startNs);
            m.put("from", c.from(p));
            m.put("label", PacketText.label(p));
            m.put("request", p.isRequest());
            NetworkFault fault = faults.get(p.frame());
            m.put("fault", fault == null ? null : fault.kind().word);
            boolean arrivalKnown = fault != null && fault.arrivedNs() != NetworkFault.UNKNOWN;
            m.put("arrived", arrivalKnown ? fault.arrivedNs() - startNs : -1);
            m.put("notes", report.notes(p));
            m.put("state", states == null ? List.of() : states.at(p.timeNs()));
            m.put("fields", fields(p, c));
            packets.add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("number", c.number());
        m.put("transport", c.transport().toString());
        m.put("a", c.a().toString());
        m.put("b", c.b().toString());
        m.put("packets", packets);
        m.put("columns", StateColumns.of(c, shown, states));
        m.put("endRow", StateColumns.endRow(shown));
        m.put("endState", states == null ? List.of() : states.at(StateColumns.endNs(c, shown)));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            new LadderPrinter(out, startNs).print(report, shown);
        }
        String ladder = text.toString(StandardCharsets.UTF_8);
        int messages = ladder.indexOf("\nmessages:");
        int findings = ladder.indexOf("\nfindings");
        m.put("analysis", ladder.substring(Math.max(0, messages >= 0 ? messages : findings)).strip());
        connections.add(m);
    }

    /** Every field of the packet as {@code --packet} explains it; a log's packets have no bytes. */
    private String fields(Packet p, Connection c) {
        if (p.raw() == null) {
            return "(an event log holds decoded fields only: opcode, QPN, PSN, AckReq, AETH, lengths)";
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            new PacketExplainer(out, startNs).explain(p, c);
        } catch (RuntimeException e) {
            return "(this packet's fields could not be decoded: " + e.getMessage() + ")";
        }
        return text.toString(StandardCharsets.UTF_8);
    }

    /** The page. */
    String render() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("title", title);
        data.put("connections", connections);
        String json;
        try {
            json = new ObjectMapper().writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(new IOException("cannot write the page's data", e));
        }
        // Inside <script>, only "</" could end the element early; \u003c is the same character to JSON.
        json = json.replace("<", "\\u003c");
        return PAGE.replace("@TITLE@", escape(title)).replace("@DATA@", json);
    }

    /** HTML text escaping for what the page shows outside the script. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }

    private static final String PAGE = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <title>jroce explain: @TITLE@</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:0;display:flex;height:100vh}
        #left{flex:3;overflow:auto;scrollbar-gutter:stable;padding:8px 16px}#right{flex:2;overflow:auto;padding:8px 16px;border-left:1px solid #ccc;background:#fafafa}
        h1{font-size:18px}h2{font-size:15px;margin:18px 0 4px}
        .bar{position:sticky;top:0;background:#fff;padding:6px 0;border-bottom:1px solid #ddd;z-index:1}
        .pkt line{stroke:#1a5fb4;stroke-width:1.6}.pkt.resp line{stroke:#26a269;stroke-dasharray:5 3}
        .pkt text{font:12px monospace;fill:#222}.pkt.sel line{stroke-width:3.5}.pkt.sel text{font-weight:bold}
        .pkt.hit text{fill:#c01c28}.pkt{cursor:pointer}.pkt line.lost-cross{stroke:#c01c28;stroke-width:3;stroke-dasharray:none}
        .pkt.delayed line{stroke:#e66100;stroke-dasharray:2 3}.pkt.duplicated line{stroke:#9141ac}.pkt line.copy{stroke-width:1;opacity:.7}
        .endrow{font:italic 12px monospace;fill:#77767b}svg{display:block}
        .col{stroke:#888;stroke-width:1}.endname{font:12px monospace;fill:#444}
        .stateguide{stroke:#ddd;stroke-width:1}.colhead{font:11px monospace;fill:#77767b}
        .qpcell{cursor:pointer}.qpcell text{font:11px monospace;fill:#865e3c}
        pre{white-space:pre-wrap;font-size:12px}.qpstate{font:12px monospace;margin:2px 0}#analysis{white-space:pre;overflow-x:auto}.note{color:#613583;font-size:13px;margin:2px 0}
        </style></head><body>
        <div id="left"><div class="bar"><b>jroce explain</b> <span id="name"></span>
        <button id="prev" title="previous packet (arrow up)">&#9650; prev</button>
        <button id="next" title="next packet (arrow down)">&#9660; next</button>
        <input id="search" placeholder="search: opcode, PSN, QPN, note" size="32"> <span id="hits"></span></div>
        <div id="ladders"></div></div>
        <div id="right"><h2 id="selTitle">Click a packet</h2><div id="selNotes"></div>
        <h2 id="stateHead" hidden>QPs as the event logs had them then</h2><div id="selState"></div><pre id="selFields"></pre>
        <h2>Analysis</h2><pre id="analysis"></pre></div>
        <script id="data" type="application/json">@DATA@</script>
        <script>
        "use strict";
        const data = JSON.parse(document.getElementById("data").textContent);
        document.getElementById("name").textContent = data.title;
        const NS = "http://www.w3.org/2000/svg";
        const all = [];
        function el(tag, attrs, parent) {
          const e = document.createElementNS(NS, tag);
          for (const k in attrs) e.setAttribute(k, attrs[k]);
          if (parent) parent.appendChild(e);
          return e;
        }
        // Monospace advance widths (px) of the 12-px labels and the 11-px cells, and the wrapping widths (characters).
        const labelW = 7.25, charW = 6.7, lineH = 13, labelH = 15, cellMax = 24;
        // Greedy wrapping at spaces: nothing is cut, a word longer than max keeps a line of its own.
        function wrap(s, max) {
          const out = [];
          for (const w of s.split(" ")) {
            if (out.length && out[out.length - 1].length + 1 + w.length <= max) out[out.length - 1] += " " + w;
            else out.push(w);
          }
          return out;
        }
        const ladders = document.getElementById("ladders");
        // Draws every ladder to the pane's width; again when the window changes it, keeping the selection and search marks.
        function draw() {
          ladders.replaceChildren();
          all.length = 0;
          data.connections.forEach(drawConnection);
          if (current >= 0) all[current].g.classList.add("sel");
          mark(document.getElementById("search").value);
        }
        function drawConnection(c) {
          const h = document.createElement("h2");
          h.textContent = "connection " + c.number + " (" + c.transport + "): A = " + c.a + ", B = " + c.b;
          ladders.appendChild(h);
          // State columns (event logs only): A's left of its lane, B's right of it, each as wide as its longest
          // (wrapped) line; the lanes take the rest of the pane, so that the ladder fits it without scrolling sideways
          // (the pane keeps its scrollbar's gutter, so its width is the same before and after a ladder makes it scroll).
          const cellLines = cell => cell.flatMap(s => wrap(s, cellMax));
          const colW = c.columns.map(k => 12 + charW * [k.qp].concat(...k.cells.map(cellLines), cellLines(k.after))
            .reduce((w, s) => Math.max(w, s.length), 0));
          const widthOf = end => c.columns.reduce((w, k, i) => w + (k.end === end ? colW[i] : 0), 0);
          const xa = Math.max(48, widthOf(0) + 16);
          const lane = Math.max(320, Math.min(560, ladders.clientWidth - xa - 16 - widthOf(1) - 8));
          const xb = xa + lane, slant = 16, minGap = 30;
          const width = Math.max(xb + 48, xb + 16 + widthOf(1) + 4);
          const labels = c.packets.map(p => wrap(p.frame + "  " + p.t + " s  " + p.label + (p.fault && p.fault !== "lost"
            ? " [" + p.fault + "]" : ""), Math.floor((lane - 32) / labelW)));
          const endRow = c.columns.some(k => k.after.length > 0);
          // A row's height: its label's lines above the arrow, its cells' lines below, so that nothing overlaps.
          const cells = i => c.columns.reduce((n, k) => Math.max(n, cellLines(i < c.packets.length ? k.cells[i] : k.after)
            .length), 0);
          const span = c.packets.length > 1 ? Math.max(1, c.packets[c.packets.length - 1].ns - c.packets[0].ns) : 1;
          const ys = []; let y = 56 + (labels[0].length - 1) * labelH;
          const rows = c.packets.length + (endRow ? 1 : 0);
          for (let i = 0; i < rows; i++) {
            if (i > 0) {
              const gap = i < c.packets.length ? minGap + Math.min(90, 400 * (c.packets[i].ns - c.packets[i - 1].ns) / span)
                : minGap;
              y += Math.max(gap, cells(i - 1) * lineH + 8) + (i < c.packets.length ? (labels[i].length - 1) * labelH : 0);
            }
            ys.push(y);
          }
          // Where a time falls between the rows: a delayed packet's arrow ends where it arrived.
          function yAt(ns) {
            let i = 0;
            while (i + 1 < c.packets.length && c.packets[i + 1].ns <= ns) i++;
            if (i + 1 >= c.packets.length) return ys[i] + minGap;
            const p = c.packets[i], q = c.packets[i + 1];
            return ys[i] + (ys[i + 1] - ys[i]) * (ns - p.ns) / Math.max(1, q.ns - p.ns);
          }
          const ends = c.packets.map((p, i) => p.fault === "lost" ? ys[i] + slant / 2
            : Math.max(ys[i] + slant, p.arrived >= 0 ? yAt(p.arrived) + slant : 0));
          const height = Math.max(y + 30 + Math.max(0, cells(rows - 1) - 1) * lineH, ...ends.map(e => e + 30));
          const svg = el("svg", {width: width, height: height, "data-connection": c.number});
          el("line", {x1: xa, y1: 20, x2: xa, y2: height, class: "col"}, svg);
          el("line", {x1: xb, y1: 20, x2: xb, y2: height, class: "col"}, svg);
          el("text", {x: xa - 40, y: 14, class: "endname"}, svg).textContent = "A " + c.a;
          el("text", {x: xb + 40, y: 14, class: "endname", "text-anchor": "end"}, svg).textContent = "B " + c.b;
          const base = all.length;
          c.packets.forEach((p, i) => {
            const from = p.from === 0 ? xa : xb, to = p.from === 0 ? xb : xa;
            const g = el("g", {class: "pkt" + (p.request ? "" : " resp") + (p.fault ? " " + p.fault : ""),
              "data-frame": p.frame}, svg);
            const endX = p.fault === "lost" ? (from + to) / 2 : to, endY = ends[i];
            el("line", {x1: from, y1: ys[i], x2: endX, y2: endY}, g);
            if (p.fault === "lost") {
              el("line", {x1: endX - 8, y1: endY - 8, x2: endX + 8, y2: endY + 8, class: "lost-cross"}, g);
              el("line", {x1: endX - 8, y1: endY + 8, x2: endX + 8, y2: endY - 8, class: "lost-cross"}, g);
            } else {
              const dir = to > from ? -1 : 1;
              // a duplicated packet: its copy, a second arrow just under it, and a second head
              const copies = p.fault === "duplicated" ? [0, 7] : [0];
              copies.forEach(d => {
                if (d) el("line", {x1: from, y1: ys[i] + d, x2: to, y2: endY + d, class: "copy"}, g);
                el("line", {x1: to, y1: endY + d, x2: to + dir * 9, y2: endY + d - 5}, g);
                el("line", {x1: to, y1: endY + d, x2: to + dir * 9, y2: endY + d + 5}, g);
              });
            }
            labels[i].forEach((s, j) => {
              el("text", {x: Math.min(from, to) + 24, y: ys[i] - 3 - (labels[i].length - 1 - j) * labelH}, g).textContent = s;
            });
            const title = el("title", {}, g);
            title.textContent = p.label + (p.notes.length ? "\\n" + p.notes.join("\\n") : "");
            const index = all.length;
            all.push({p: p, g: g, c: c});
            g.addEventListener("click", () => select(index));
          });
          if (endRow) {
            el("text", {x: xa + 24, y: ys[rows - 1] - 3, class: "endrow"}, svg).textContent = c.endRow;
          }
          let left = 0, right = xb + 16;
          c.columns.forEach((k, ki) => {
            const x = k.end === 0 ? left : right;
            if (k.end === 0) left += colW[ki]; else right += colW[ki];
            const g = el("g", {class: "statecol", "data-end": k.end, "data-qp": k.qp}, svg);
            el("line", {x1: x + 2, y1: 34, x2: x + 2, y2: height, class: "stateguide"}, g);
            el("text", {x: x + 6, y: 30, class: "colhead"}, g).textContent = k.qp;
            k.cells.concat(endRow ? [k.after] : []).forEach((cell, i) => {
              if (cell.length === 0) return;
              const end = i === c.packets.length;
              const cg = el("g", end ? {class: "qpcell", "data-row": c.endRow}
                : {class: "qpcell", "data-frame": c.packets[i].frame}, g);
              cellLines(cell).forEach((s, j) => { el("text", {x: x + 6, y: ys[i] - 3 + j * lineH}, cg).textContent = s; });
              cg.addEventListener("click", () => end ? showEnd(c) : select(base + i));
            });
          });
          ladders.appendChild(svg);
        }
        let current = -1;
        function select(i) {
          if (i < 0 || i >= all.length) return;
          if (current >= 0) all[current].g.classList.remove("sel");
          current = i;
          const s = all[i];
          s.g.classList.add("sel");
          s.g.scrollIntoView({block: "nearest"});
          show("frame " + s.p.frame + ": " + s.p.label, s.p.notes, s.p.state, s.p.fields, s.c.analysis);
        }
        // The last row of the state columns has no packet: a click on it shows the QPs as the logs left them.
        function showEnd(c) {
          if (current >= 0) all[current].g.classList.remove("sel");
          show(c.endRow + ": the QPs as the event logs end", [], c.endState, "", c.analysis);
        }
        function show(title, notes, state, fields, analysis) {
          document.getElementById("selTitle").textContent = title;
          const n = document.getElementById("selNotes");
          n.replaceChildren();
          notes.forEach(t => { const d = document.createElement("div"); d.className = "note"; d.textContent = "* " + t; n.appendChild(d); });
          const st = document.getElementById("selState");
          st.replaceChildren();
          state.forEach(t => { const d = document.createElement("div"); d.className = "qpstate"; d.textContent = t; st.appendChild(d); });
          document.getElementById("stateHead").hidden = state.length === 0;
          document.getElementById("selFields").textContent = fields;
          document.getElementById("analysis").textContent = analysis;
        }
        document.getElementById("prev").addEventListener("click", () => select(Math.max(0, current - 1)));
        document.getElementById("next").addEventListener("click", () => select(current + 1));
        document.addEventListener("keydown", e => {
          if (e.target.id === "search") return;
          if (e.key === "ArrowDown" || e.key === "j") { select(current + 1); e.preventDefault(); }
          if (e.key === "ArrowUp" || e.key === "k") { select(Math.max(0, current - 1)); e.preventDefault(); }
        });
        // Marks the packets whose line or notes contain the text; the first of them, or -1.
        function mark(text) {
          const q = text.trim().toLowerCase();
          let hits = 0, first = -1;
          all.forEach((s, i) => {
            const hit = q !== "" && (s.p.label + " " + s.p.frame + " " + s.p.notes.join(" ")).toLowerCase().includes(q);
            s.g.classList.toggle("hit", hit);
            if (hit) { hits++; if (first < 0) first = i; }
          });
          document.getElementById("hits").textContent = q === "" ? "" : hits + " packet" + (hits === 1 ? "" : "s");
          return first;
        }
        document.getElementById("search").addEventListener("input", e => {
          const first = mark(e.target.value);
          if (first >= 0) select(first);
        });
        let drawnWidth = -1;
        function fit() {
          if (ladders.clientWidth !== drawnWidth) { drawnWidth = ladders.clientWidth; draw(); }
        }
        window.addEventListener("resize", fit);
        fit();
        if (data.connections.length) document.getElementById("analysis").textContent = data.connections[0].analysis;
        </script></body></html>
        """;
}

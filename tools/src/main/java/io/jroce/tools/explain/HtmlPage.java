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
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code jroce explain --html}: one self-contained, offline page of a run. The analysis goes in as
 * JSON (written by Jackson, with every {@code <} escaped so that nothing in a capture can close the
 * script element); the page's own script draws each connection's ladder as SVG, to time scale
 * (each arrow is placed by its time, with a minimum gap so that bursts stay readable; arrows slant
 * from the sender's time line towards the receiver's), a cross where a packet was lost, for event
 * logs a column of state beside each end's lane (what changed in its QP at each row, from
 * {@link StateColumns}), and shows a packet's notes, the QPs' state as the event logs had it at
 * that time (for logs) and every field (as {@code --packet N} explains it, for captures) when it is
 * clicked; buttons and the arrow keys step through the run, and a search box finds packets by any
 * text of their line or notes. No network, no external file, no template engine.
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
     * Adds a connection: its report, the packets shown, the frames lost on the way (drawn crossed),
     * and for event logs the QPs' state over time (null for a capture), shown with each packet and
     * in the state columns.
     */
    void add(Report report, List<Packet> shown, Set<Integer> lost, QpStateTimeline states) {
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
            m.put("lost", lost.contains(p.frame()));
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
        #left{flex:3;overflow:auto;padding:8px 16px}#right{flex:2;overflow:auto;padding:8px 16px;border-left:1px solid #ccc;background:#fafafa}
        h1{font-size:18px}h2{font-size:15px;margin:18px 0 4px}
        .bar{position:sticky;top:0;background:#fff;padding:6px 0;border-bottom:1px solid #ddd;z-index:1}
        .pkt line{stroke:#1a5fb4;stroke-width:1.6}.pkt.resp line{stroke:#26a269;stroke-dasharray:5 3}
        .pkt text{font:12px monospace;fill:#222}.pkt.sel line{stroke-width:3.5}.pkt.sel text{font-weight:bold}
        .pkt.hit text{fill:#c01c28}.pkt{cursor:pointer}.pkt line.lost-cross{stroke:#c01c28;stroke-width:3;stroke-dasharray:none}
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
        data.connections.forEach((c, ci) => {
          const h = document.createElement("h2");
          h.textContent = "connection " + c.number + " (" + c.transport + "): A = " + c.a + ", B = " + c.b;
          document.getElementById("ladders").appendChild(h);
          // State columns (event logs only): A's left of its lane, B's right of it, each as wide as its longest line.
          const charW = 6.7, lineH = 13;
          const longest = k => k.cells.reduce((w, cell) => cell.reduce((v, s) => Math.max(v, s.length), w),
            k.qp.length);
          const colW = c.columns.map(k => 12 + charW * longest(k));
          const widthOf = end => c.columns.reduce((w, k, i) => w + (k.end === end ? colW[i] : 0), 0);
          const xa = 130 + widthOf(0), xb = xa + 560, slant = 16, minGap = 30;
          const span = c.packets.length > 1 ? Math.max(1, c.packets[c.packets.length - 1].ns - c.packets[0].ns) : 1;
          // A row with a cell of several lines pushes the next row down, so that cells never overlap.
          const lines = c.packets.map((p, i) => c.columns.reduce((n, k) => Math.max(n, k.cells[i].length), 0));
          const ys = []; let y = 50;
          c.packets.forEach((p, i) => {
            if (i > 0) {
              const gap = minGap + Math.min(90, 400 * (p.ns - c.packets[i - 1].ns) / span);
              y += Math.max(gap, lines[i - 1] * lineH + 8);
            }
            ys.push(y);
          });
          const height = y + 50 + Math.max(0, (lines.length ? lines[lines.length - 1] : 0) - 1) * lineH;
          const width = Math.max(900, xb + 50 + widthOf(1) + 10);
          const svg = el("svg", {width: width, height: height, "data-connection": c.number});
          el("line", {x1: xa, y1: 20, x2: xa, y2: height, class: "col"}, svg);
          el("line", {x1: xb, y1: 20, x2: xb, y2: height, class: "col"}, svg);
          el("text", {x: xa - 40, y: 14, class: "endname"}, svg).textContent = "A " + c.a;
          el("text", {x: xb + 40, y: 14, class: "endname", "text-anchor": "end"}, svg).textContent = "B " + c.b;
          const base = all.length;
          c.packets.forEach((p, i) => {
            const from = p.from === 0 ? xa : xb, to = p.from === 0 ? xb : xa;
            const g = el("g", {class: "pkt" + (p.request ? "" : " resp"), "data-frame": p.frame}, svg);
            const endX = p.lost ? (from + to) / 2 : to, endY = ys[i] + (p.lost ? slant / 2 : slant);
            el("line", {x1: from, y1: ys[i], x2: endX, y2: endY}, g);
            if (p.lost) {
              el("line", {x1: endX - 8, y1: endY - 8, x2: endX + 8, y2: endY + 8, class: "lost-cross"}, g);
              el("line", {x1: endX - 8, y1: endY + 8, x2: endX + 8, y2: endY - 8, class: "lost-cross"}, g);
            } else {
              const dir = to > from ? -1 : 1;
              el("line", {x1: to, y1: endY, x2: to + dir * 9, y2: endY - 5}, g);
              el("line", {x1: to, y1: endY, x2: to + dir * 9, y2: endY + 5}, g);
            }
            el("text", {x: Math.min(from, to) + 40, y: ys[i] - 3}, g).textContent = p.frame + "  " + p.t + " s  " + p.label;
            const title = el("title", {}, g);
            title.textContent = p.label + (p.notes.length ? "\\n" + p.notes.join("\\n") : "");
            const index = all.length;
            all.push({p: p, g: g, c: c});
            g.addEventListener("click", () => select(index));
          });
          let left = 0, right = xb + 50;
          c.columns.forEach((k, ki) => {
            const x = k.end === 0 ? left : right;
            if (k.end === 0) left += colW[ki]; else right += colW[ki];
            const g = el("g", {class: "statecol", "data-end": k.end, "data-qp": k.qp}, svg);
            el("line", {x1: x + 2, y1: 20, x2: x + 2, y2: height, class: "stateguide"}, g);
            el("text", {x: x + 6, y: 14, class: "colhead"}, g).textContent = k.qp;
            k.cells.forEach((cell, i) => {
              if (cell.length === 0) return;
              const cg = el("g", {class: "qpcell", "data-frame": c.packets[i].frame}, g);
              cell.forEach((s, j) => { el("text", {x: x + 6, y: ys[i] - 3 + j * lineH}, cg).textContent = s; });
              cg.addEventListener("click", () => select(base + i));
            });
          });
          document.getElementById("ladders").appendChild(svg);
        });
        let current = -1;
        function select(i) {
          if (i < 0 || i >= all.length) return;
          if (current >= 0) all[current].g.classList.remove("sel");
          current = i;
          const s = all[i];
          s.g.classList.add("sel");
          s.g.scrollIntoView({block: "nearest"});
          document.getElementById("selTitle").textContent = "frame " + s.p.frame + ": " + s.p.label;
          const notes = document.getElementById("selNotes");
          notes.replaceChildren();
          s.p.notes.forEach(n => { const d = document.createElement("div"); d.className = "note"; d.textContent = "* " + n; notes.appendChild(d); });
          const state = document.getElementById("selState");
          state.replaceChildren();
          s.p.state.forEach(n => { const d = document.createElement("div"); d.className = "qpstate"; d.textContent = n; state.appendChild(d); });
          document.getElementById("stateHead").hidden = s.p.state.length === 0;
          document.getElementById("selFields").textContent = s.p.fields;
          document.getElementById("analysis").textContent = s.c.analysis;
        }
        document.getElementById("prev").addEventListener("click", () => select(Math.max(0, current - 1)));
        document.getElementById("next").addEventListener("click", () => select(current + 1));
        document.addEventListener("keydown", e => {
          if (e.target.id === "search") return;
          if (e.key === "ArrowDown" || e.key === "j") { select(current + 1); e.preventDefault(); }
          if (e.key === "ArrowUp" || e.key === "k") { select(Math.max(0, current - 1)); e.preventDefault(); }
        });
        document.getElementById("search").addEventListener("input", e => {
          const q = e.target.value.trim().toLowerCase();
          let hits = 0, first = -1;
          all.forEach((s, i) => {
            const hit = q !== "" && (s.p.label + " " + s.p.frame + " " + s.p.notes.join(" ")).toLowerCase().includes(q);
            s.g.classList.toggle("hit", hit);
            if (hit) { hits++; if (first < 0) first = i; }
          });
          document.getElementById("hits").textContent = q === "" ? "" : hits + " packet" + (hits === 1 ? "" : "s");
          if (first >= 0) select(first);
        });
        if (data.connections.length) document.getElementById("analysis").textContent = data.connections[0].analysis;
        </script></body></html>
        """;
}

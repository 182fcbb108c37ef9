// The space-time diagram: position along the bus across, time going down, the
// window [top, top + span] of simulated time (picoseconds). Each transmission is
// the region its signal covers as it spreads both ways at the propagation speed;
// where two regions overlap the cable carries both signals: the collision, as each
// point of the cable hears it.

const M = { left: 74, right: 12, top: 26, bottom: 8 };

const KIND_STYLE = {
  transmit: { color: "#1f5fa8", shape: "dot" },
  defer: { color: "#3d7a3c", shape: "ring" },
  collision: { color: "#c0392b", shape: "cross" },
  jam_end: { color: "#c0392b", shape: "dot" },
  success: { color: "#1d6b1d", shape: "tick" },
  drop: { color: "#000000", shape: "cross" },
};

// A time in picoseconds as a label: microseconds below 1 ms, milliseconds below
// 1 s, else seconds.
export function timeLabel(ps) {
  if (ps < 1e9) return `${(ps / 1e6).toFixed(3)} \u00b5s`;
  if (ps < 1e12) return `${(ps / 1e9).toFixed(4)} ms`;
  return `${(ps / 1e12).toFixed(6)} s`;
}

export class Diagram {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.hits = [];
  }

  // layout: the run's layout (Sim.layout()); signals: flat (station, start, end,
  // collision) from Sim.signals; events: recent events (Sim.events), oldest first.
  draw(layout, top, span, now, signals, events, selected) {
    const { ctx, canvas } = this;
    const W = canvas.width - M.left - M.right;
    const H = canvas.height - M.top - M.bottom;
    const L = Math.max(layout.max_prop_ps, 1);
    const x = (p) => M.left + (p / L) * W;
    const y = (t) => M.top + ((t - top) / span) * H;
    const pos = layout.positions_ps;
    ctx.clearRect(0, 0, canvas.width, canvas.height);

    // What has not been simulated yet is shaded; signals are drawn up to now.
    const yNow = Math.min(M.top + H, Math.max(M.top, y(now)));
    ctx.fillStyle = "#f1f1ec";
    ctx.fillRect(M.left, yNow, W, M.top + H - yNow);
    ctx.save();
    ctx.beginPath();
    ctx.rect(M.left, M.top, W, yNow - M.top);
    ctx.clip();

    // Signals.
    const band = (x0, a, b) => {
      ctx.beginPath();
      ctx.moveTo(x(x0), y(a));
      ctx.lineTo(x(0), y(a + x0));
      ctx.lineTo(x(0), y(b + x0));
      ctx.lineTo(x(x0), y(b));
      ctx.lineTo(x(L), y(b + L - x0));
      ctx.lineTo(x(L), y(a + L - x0));
      ctx.closePath();
      ctx.fill();
    };
    for (let i = 0; i + 3 < signals.length; i += 4) {
      const k = signals[i];
      const start = signals[i + 1];
      const end = signals[i + 2] < 0 ? now : signals[i + 2];
      const coll = signals[i + 3];
      const x0 = pos[k];
      if (coll < 0) {
        ctx.fillStyle = "rgba(31, 95, 168, 0.30)";
        band(x0, start, end);
      } else {
        const jamFrom = signals[i + 2] < 0
          ? Math.max(coll, layout.jam_immediate ? start : start + layout.preamble_ps)
          : Math.max(start, end - layout.jam_ps);
        ctx.fillStyle = "rgba(214, 120, 40, 0.28)";
        band(x0, start, Math.max(start, jamFrom));
        ctx.fillStyle = "rgba(192, 57, 43, 0.65)";
        band(x0, jamFrom, end);
      }
    }

    ctx.restore();
    ctx.save();
    ctx.beginPath();
    ctx.rect(M.left, M.top, W, H);
    ctx.clip();
    ctx.strokeStyle = "#888";
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(M.left, yNow);
    ctx.lineTo(M.left + W, yNow);
    ctx.stroke();
    ctx.setLineDash([]);

    // Station lines.
    ctx.strokeStyle = "#e2e2dc";
    ctx.lineWidth = 1;
    for (const p of pos) {
      ctx.beginPath();
      ctx.moveTo(x(p), M.top);
      ctx.lineTo(x(p), M.top + H);
      ctx.stroke();
    }

    // The interframe gaps that transmissions waited out (clause 4.2.3.2.1).
    ctx.lineWidth = 5;
    for (const e of events) {
      if (e.gap_start_ps == null) continue;
      const px = x(pos[e.station]);
      const g = e.gap_start_ps;
      ctx.strokeStyle = "#e6a23c";
      ctx.beginPath();
      ctx.moveTo(px, y(g));
      ctx.lineTo(px, y(g + layout.ifg_part1_ps));
      ctx.stroke();
      ctx.strokeStyle = "#7fb77e";
      ctx.beginPath();
      ctx.moveTo(px, y(g + layout.ifg_part1_ps));
      ctx.lineTo(px, y(g + layout.ifg_ps));
      ctx.stroke();
    }

    // Events.
    this.hits = [];
    ctx.lineWidth = 2;
    for (const e of events) {
      const ex = x(pos[e.station]);
      const ey = y(e.time_ps);
      if (ey < M.top - 4 || ey > M.top + H + 4) continue;
      const s = KIND_STYLE[e.kind];
      ctx.strokeStyle = s.color;
      ctx.fillStyle = s.color;
      const r = e.i === selected ? 6 : 3.5;
      ctx.beginPath();
      if (s.shape === "dot") {
        ctx.arc(ex, ey, r, 0, 2 * Math.PI);
        ctx.fill();
      } else if (s.shape === "ring") {
        ctx.arc(ex, ey, r, 0, 2 * Math.PI);
        ctx.stroke();
      } else if (s.shape === "cross") {
        ctx.moveTo(ex - r, ey - r); ctx.lineTo(ex + r, ey + r);
        ctx.moveTo(ex + r, ey - r); ctx.lineTo(ex - r, ey + r);
        ctx.stroke();
      } else {
        ctx.moveTo(ex - r, ey); ctx.lineTo(ex - r / 3, ey + r); ctx.lineTo(ex + r, ey - r);
        ctx.stroke();
      }
      if (e.i === selected) {
        ctx.strokeStyle = "#000";
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.arc(ex, ey, 9, 0, 2 * Math.PI);
        ctx.stroke();
        ctx.lineWidth = 2;
      }
      this.hits.push({ x: ex, y: ey, i: e.i });
    }
    ctx.restore();

    // Axes: stations across the top, time down the left.
    ctx.fillStyle = "#444";
    ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = "center";
    const every = Math.max(1, Math.ceil(pos.length / 24));
    pos.forEach((p, k) => {
      if (k % every === 0 || k === pos.length - 1) ctx.fillText(String(k), x(p), 16);
    });
    ctx.textAlign = "right";
    for (let j = 0; j <= 5; j++) {
      const t = top + (span * j) / 5;
      ctx.fillText(timeLabel(t), M.left - 4, y(t) + 4);
    }
    ctx.strokeStyle = "#999";
    ctx.strokeRect(M.left, M.top, W, H);
  }

  // The event marker nearest to the canvas point (cx, cy) in CSS pixels, if close.
  hit(cx, cy) {
    const scale = this.canvas.width / this.canvas.getBoundingClientRect().width;
    const px = cx * scale;
    const py = cy * scale;
    let best = null;
    let bestD = 81;
    for (const h of this.hits) {
      const d = (h.x - px) ** 2 + (h.y - py) ** 2;
      if (d < bestD) {
        bestD = d;
        best = h.i;
      }
    }
    return best;
  }
}

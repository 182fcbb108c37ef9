// Small charts on a canvas: axes, lines, bars and points with error bars. No
// library: the page makes no request beyond its own folder.

const M = { left: 46, right: 10, top: 10, bottom: 26 };

function niceTicks(lo, hi, n) {
  const span = hi - lo || 1;
  const step0 = span / n;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0) || step0;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(v);
  return out;
}

function fmt(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-2) return v.toExponential(0);
  return String(Number(v.toPrecision(3)));
}

// A frame with axes over [x0, x1] x [y0, y1] (log10 y if `logY`); returns scales.
export function frame(canvas, { x0, x1, y0, y1, logY = false, xlabel = "", ylabel = "", xticks = null }) {
  const ctx = canvas.getContext("2d");
  const W = canvas.width - M.left - M.right;
  const H = canvas.height - M.top - M.bottom;
  const ty = (v) => (logY ? Math.log10(Math.max(v, 1e-12)) : v);
  const [a, b] = [ty(y0), ty(y1)];
  const sx = (v) => M.left + ((v - x0) / (x1 - x0 || 1)) * W;
  const sy = (v) => M.top + H - ((ty(v) - a) / (b - a || 1)) * H;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#bbb";
  ctx.fillStyle = "#555";
  ctx.font = "10px system-ui, sans-serif";
  ctx.lineWidth = 1;
  ctx.strokeRect(M.left, M.top, W, H);
  ctx.textAlign = "right";
  const yt = logY
    ? Array.from({ length: Math.floor(b) - Math.ceil(a) + 1 }, (_, i) => 10 ** (Math.ceil(a) + i))
    : niceTicks(y0, y1, 4);
  for (const v of yt) {
    ctx.fillText(fmt(v), M.left - 3, sy(v) + 3);
    ctx.strokeStyle = "#eee";
    ctx.beginPath();
    ctx.moveTo(M.left, sy(v));
    ctx.lineTo(M.left + W, sy(v));
    ctx.stroke();
  }
  ctx.textAlign = "center";
  for (const v of xticks || niceTicks(x0, x1, 6)) ctx.fillText(fmt(v), sx(v), M.top + H + 12);
  ctx.fillText(xlabel, M.left + W / 2, canvas.height - 2);
  ctx.save();
  ctx.translate(10, M.top + H / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(ylabel, 0, 0);
  ctx.restore();
  return { ctx, sx, sy, W, H };
}

export function line(f, points, color, dash = []) {
  const { ctx, sx, sy } = f;
  if (points.length === 0) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.6;
  ctx.setLineDash(dash);
  ctx.beginPath();
  points.forEach(([px, py], i) => (i ? ctx.lineTo(sx(px), sy(py)) : ctx.moveTo(sx(px), sy(py))));
  ctx.stroke();
  ctx.setLineDash([]);
}

// Bars of width `w` (in x units) from y = `base`.
export function bars(f, points, w, color, base = 0) {
  const { ctx, sx, sy } = f;
  ctx.fillStyle = color;
  for (const [px, py] of points) {
    const x0 = sx(px - w / 2);
    const x1 = sx(px + w / 2);
    const top = sy(py);
    const bottom = sy(base);
    ctx.fillRect(x0, Math.min(top, bottom), Math.max(1, x1 - x0 - 1), Math.abs(bottom - top));
  }
}

export function points(f, pts, color, errors = null) {
  const { ctx, sx, sy } = f;
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  pts.forEach(([px, py], i) => {
    if (errors && errors[i] > 0) {
      ctx.beginPath();
      ctx.moveTo(sx(px), sy(py - errors[i]));
      ctx.lineTo(sx(px), sy(py + errors[i]));
      ctx.stroke();
    }
    ctx.beginPath();
    ctx.arc(sx(px), sy(py), 3, 0, 2 * Math.PI);
    ctx.fill();
  });
}

export function legend(f, items) {
  const { ctx } = f;
  ctx.font = "10px system-ui, sans-serif";
  ctx.textAlign = "left";
  items.forEach(([label, color], i) => {
    ctx.fillStyle = color;
    ctx.fillRect(M.left + 6, M.top + 6 + i * 13, 10, 3);
    ctx.fillStyle = "#333";
    ctx.fillText(label, M.left + 20, M.top + 10 + i * 13);
  });
}

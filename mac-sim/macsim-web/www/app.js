// The page: controls generated from the scenario schema, the run driven through the
// WebAssembly engine (pkg/macsim_web.js), the diagram, the tables and the charts.

import init, { Sim, fields, check, fromToml, toToml, explore } from "./pkg/macsim_web.js";
import { Diagram, timeLabel } from "./diagram.js";
import { frame, line, bars, points, legend } from "./charts.js";

const $ = (id) => document.getElementById(id);

// The parameters a student changes most, shown first; the rest of the schema is
// under "More parameters".
const BASIC = ["stations", "frames", "load", "medium", "length_m", "placement", "backoff",
  "seed", "ifg_rule", "jam_rule", "duration"];
const KEPT_EVENTS = 3000;
const TABLE_EVENTS = 200;

const page = {
  sim: null,
  layout: null,
  values: {},
  playing: false,
  // A run to the end under way (see runToEnd), or null.
  running: null,
  events: [],
  next: 0,
  selected: null,
  lastFrame: 0,
  lastCharts: 0,
  runStart: null,
  diagram: null,
  fields: [],
  tableDirty: true,
  frames: 0,
  work: [],
  phase: false,
  prof: {},
};
window.macsimPage = page; // for the tests and the curious: the page's state

function showError(message) {
  const el = $("error");
  el.textContent = message;
  el.hidden = !message;
}

// ---- controls ---------------------------------------------------------------

function buildControls() {
  page.fields = JSON.parse(fields());
  const byKey = Object.fromEntries(page.fields.map((f) => [f.key, f]));
  const add = (f, parent) => {
    const label = document.createElement("label");
    const title = f.help.split(/(?<=\.)\s/)[0];
    label.title = f.help;
    let input;
    // A parameter that is a choice of names (the schema's own list) is a menu.
    if (f.choices.length) {
      input = document.createElement("select");
      const d = document.createElement("option");
      d.value = "";
      d.textContent = `${f.default} (default)`;
      input.append(d);
      for (const c of f.choices) {
        if (c === f.default) continue;
        const o = document.createElement("option");
        o.value = c;
        o.textContent = c;
        input.append(o);
      }
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.placeholder = f.default ?? "";
    }
    input.id = `p-${f.key}`;
    input.name = f.key;
    label.append(`${f.key.replace(/_/g, " ")} `);
    const hint = document.createElement("span");
    hint.textContent = title;
    label.append(input, hint);
    parent.append(label);
  };
  for (const k of BASIC) if (byKey[k]) add(byKey[k], $("basic-fields"));
  for (const f of page.fields) if (!BASIC.includes(f.key)) add(f, $("more-fields"));
}

function readControls() {
  const v = {};
  for (const f of page.fields) {
    const text = $(`p-${f.key}`).value.trim();
    if (text !== "") v[f.key] = text;
  }
  return v;
}

function writeControls(values) {
  for (const f of page.fields) {
    const el = $(`p-${f.key}`);
    const v = values[f.key] ?? "";
    if (el.tagName === "SELECT" && v !== "" && ![...el.options].some((o) => o.value === v)) {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = v;
      el.append(o);
    }
    el.value = v;
  }
}

function valuesFromUrl() {
  const q = new URLSearchParams(location.search);
  const v = {};
  for (const f of page.fields) if (q.has(f.key)) v[f.key] = q.get(f.key);
  return v;
}

// ---- the run ----------------------------------------------------------------

// Starts a run of `values`; on a bad value shows the command line's message and
// keeps the run that was there.
function start(values) {
  let sim;
  try {
    check(JSON.stringify(values));
    sim = new Sim(JSON.stringify(values));
  } catch (e) {
    showError(e.message);
    return false;
  }
  showError("");
  if (page.sim) page.sim.free();
  page.sim = sim;
  page.values = values;
  page.layout = JSON.parse(sim.layout());
  page.events = [];
  page.next = 0;
  page.selected = null;
  page.playing = false;
  page.running = null;
  page.runStart = null;
  page.tableDirty = true;
  $("event-detail").hidden = true;
  $("perf").textContent = "";
  const q = new URLSearchParams(values).toString();
  history.replaceState(null, "", q ? `?${q}` : location.pathname);
  buildStationRows();
  updatePlay();
  render(true);
  drawExplorer();
  return true;
}

function updatePlay() {
  $("play").textContent = page.playing ? "Pause" : "Play";
  $("run-end").textContent = page.running ? "Stop" : "Run to end";
}

function setPlaying(on) {
  if (!page.sim) return;
  stopRunning();
  if (on && page.sim.done()) return;
  page.playing = on;
  if (on && page.sim.now_ps() === 0) page.runStart = { wall: performance.now(), speed: $("speed").value };
  updatePlay();
}

// ---- running to the end ---------------------------------------------------

// "Run to end" runs in slices of about RUN_SLICE_MS of the engine's work, each a task
// of its own, so that the page answers clicks and keys between them: the same button,
// now "Stop", halts a run of any length within one slice. The view is drawn every
// SHOW_EVERY_MS meanwhile. Each slice advances in steps of
// simulated time that double or halve to take about STEP_MS each, so that no step of
// a long run holds the page for long. The events are the same as in one call, so the
// end is the same as `mac-sim run`'s.
const RUN_SLICE_MS = 25;
const STEP_MS = 4;
const SHOW_EVERY_MS = 250;

function runToEnd() {
  setPlaying(false);
  const sim = page.sim;
  if (!sim || sim.done()) return;
  const run = { sim, engineMs: 0, longestSliceMs: 0, longestTaskMs: 0, step: 1e6, shown: performance.now() };
  page.running = run;
  updatePlay();
  const slice = () => {
    if (page.running !== run || page.sim !== sim) return;
    const t0 = performance.now();
    while (!sim.done() && performance.now() - t0 < RUN_SLICE_MS) {
      const s0 = performance.now();
      sim.advance(run.step);
      const took = performance.now() - s0;
      if (took < STEP_MS / 2) run.step *= 2;
      else if (took > 2 * STEP_MS) run.step = Math.max(1, Math.floor(run.step / 2));
    }
    const ms = performance.now() - t0;
    run.engineMs += ms;
    run.longestSliceMs = Math.max(run.longestSliceMs, ms);
    if (sim.done()) {
      page.running = null;
      const ev = sim.engine_events();
      $("perf").textContent = `Ran to the end: ${ev} events in ${run.engineMs.toFixed(0)} ms.`;
      $("perf").dataset.engineMs = run.engineMs.toFixed(1);
      $("perf").dataset.events = String(ev);
      $("perf").dataset.longestSliceMs = run.longestSliceMs.toFixed(1);
      updatePlay();
      render(true);
      return;
    }
    if (performance.now() - run.shown > SHOW_EVERY_MS) {
      run.shown = performance.now();
      const pct = (100 * sim.now_ps()) / page.layout.duration_ps;
      $("perf").textContent = `Running to the end: ${pct.toFixed(1)} % of the simulated time.`;
      render(false);
    }
    // The longest the page went without answering: a slice and its drawing.
    run.longestTaskMs = Math.max(run.longestTaskMs, performance.now() - t0);
    // A task, not an animation frame: clicks and keys are handled between slices.
    setTimeout(slice, 0);
  };
  slice();
}

// Stop a run to the end where it is; Play, Step or Run to end go on from there.
function stopRunning() {
  const run = page.running;
  if (!run) return;
  page.running = null;
  $("perf").textContent = `Stopped at ${(page.sim.now_ps() / 1e9).toFixed(3)} ms of simulated time.`;
  $("perf").dataset.longestSliceMs = run.longestSliceMs.toFixed(1);
  $("perf").dataset.longestTaskMs = run.longestTaskMs.toFixed(1);
  updatePlay();
  render(true);
}

function finished() {
  page.playing = false;
  updatePlay();
  if (page.runStart && page.runStart.speed === "max") {
    const ms = performance.now() - page.runStart.wall;
    const ev = page.sim.engine_events();
    $("perf").textContent =
      `Played to the end at full speed: ${ev} events in ${ms.toFixed(0)} ms ` +
      `(${(ev / ms / 1000).toFixed(2)} M events/s, drawing included).`;
    $("perf").dataset.ms = ms.toFixed(1);
    $("perf").dataset.events = String(ev);
  }
  page.runStart = null;
}

function tick(now) {
  page.frames += 1;
  const dt = page.lastFrame ? Math.min(now - page.lastFrame, 100) : 0;
  page.lastFrame = now;
  const sim = page.sim;
  if (sim && page.playing) {
    const w0 = performance.now();
    const speed = $("speed").value;
    timed("engine", () => {
    if (speed === "max") {
      const t0 = performance.now();
      const chunk = page.layout.duration_ps / 500;
      while (!sim.done() && performance.now() - t0 < 12) sim.advance(chunk);
    } else {
      sim.advance(Number(speed) * dt * 1e9);
    }
    });
    if (sim.done()) finished();
    render(false);
    // The work of this frame (engine and drawing), for the benchmark of the
    // animation's frame rate.
    page.work.push(performance.now() - w0);
    if (page.work.length > 2000) page.work.shift();
  }
  requestAnimationFrame(tick);
}

// ---- drawing ----------------------------------------------------------------

function fetchEvents() {
  const sim = page.sim;
  const total = sim.recorded();
  if (total <= page.next) return;
  // Playing at full speed, only the newest events can be on screen.
  const keep = !page.playing ? KEPT_EVENTS : $("speed").value === "max" ? 400 : 1000;
  const from = Math.max(page.next, total - keep);
  const fresh = JSON.parse(sim.events(from, total - from));
  page.events.push(...fresh);
  if (page.events.length > KEPT_EVENTS) page.events.splice(0, page.events.length - KEPT_EVENTS);
  page.next = total;
  page.tableDirty = true;
}

// Runs `fn`, keeping how long it took under `name` (the newest 500), for the
// benchmark's breakdown of a frame.
function timed(name, fn) {
  const t0 = performance.now();
  fn();
  const list = (page.prof[name] ||= []);
  list.push(performance.now() - t0);
  if (list.length > 500) list.shift();
}

function render(all) {
  const sim = page.sim;
  if (!sim) return;
  timed("events", fetchEvents);
  const now = sim.now_ps();
  const span = Number($("zoom").value) * 1e6;
  // Now sits at 85 % of the height once the run is that far: the newest events are
  // in view with room below them for what comes next.
  const top = Math.max(0, now - 0.85 * span);
  timed("diagram", () => {
    const signals = sim.signals(top, now);
    const shown = page.events.filter((e) => e.time_ps >= top - page.layout.ifg_ps && e.time_ps <= now);
    page.diagram.draw(page.layout, top, span, now, signals, shown, page.selected);
  });
  timed("stations", updateStations);
  // While playing, the tables and the charts are redrawn a few times a second, on
  // alternate frames so that no frame does both.
  const t = performance.now();
  if (all || !page.playing) {
    updateEventTable();
    updateResults();
  } else if (t - page.lastCharts > 150) {
    page.lastCharts = t;
    page.phase = !page.phase;
    if (page.phase) timed("event table", updateEventTable);
    else timed("results", updateResults);
  }
  $("status").textContent =
    `t = ${timeLabel(now)} of ${timeLabel(page.layout.duration_ps)}` +
    ` \u00b7 ${sim.engine_events()} events` + (sim.done() ? " \u00b7 done" : "");
  $("status").dataset.done = sim.done() ? "1" : "0";
}

function buildStationRows() {
  const body = $("stations").tBodies[0];
  body.textContent = "";
  for (let k = 0; k < page.layout.stations; k++) {
    const tr = body.insertRow();
    for (let j = 0; j < 5; j++) tr.insertCell();
    tr.cells[0].textContent = String(k);
  }
}

function updateStations() {
  const states = JSON.parse(page.sim.states());
  const rows = $("stations").tBodies[0].rows;
  states.forEach((s, k) => {
    const c = rows[k].cells;
    let state = s.state;
    if (state === "backoff") state = `backoff, ${s.remaining_slots} slots left`;
    if (state === "dropped") state = `dropped after ${s.collisions} attempts`;
    if (c[1].textContent !== state) {
      c[1].textContent = state;
      c[1].className = s.state;
    }
    const texts = [String(s.collisions), s.window == null ? "" : `[0, ${s.window})`, s.r == null ? "" : String(s.r)];
    texts.forEach((v, j) => {
      if (c[j + 2].textContent !== v) c[j + 2].textContent = v;
    });
  });
}

// The newest events, newest first, written as one piece of HTML (the values are
// numbers and the model's event names).
function updateEventTable() {
  if (!page.tableDirty) return;
  page.tableDirty = false;
  const rows = page.events.slice(-TABLE_EVENTS).reverse().map((e) =>
    `<tr data-i="${e.i}" data-time-ps="${e.time_ps}" data-station="${e.station}" data-kind="${e.kind}"` +
    ` data-collisions="${e.collisions}" data-backoff-slots="${e.backoff_slots ?? ""}"` +
    (e.i === page.selected ? ' class="selected"' : "") +
    `><td>${(e.time_ps / 1e6).toFixed(6)}</td><td>${e.station}</td><td>${e.kind.replace("_", " ")}</td>` +
    `<td>${e.collisions}</td><td>${e.backoff_slots ?? ""}</td></tr>`);
  $("events").tBodies[0].innerHTML = rows.join("");
}

function select(i) {
  const e = page.events.find((x) => x.i === i);
  if (!e) return;
  let told;
  try {
    told = JSON.parse(page.sim.explain(i));
  } catch (err) {
    showError(err.message);
    return;
  }
  page.selected = i;
  const d = $("event-detail");
  d.hidden = false;
  d.textContent = "";
  const head = document.createElement("strong");
  head.textContent = `Station ${e.station}, ${e.kind.replace("_", " ")} at ${(e.time_ps / 1e6).toFixed(6)} \u00b5s. `;
  const why = document.createElement("span");
  why.className = "why";
  why.textContent = told.why + " ";
  const clause = document.createElement("span");
  clause.className = "clause";
  clause.textContent = `IEEE 802.3 ${told.clause}`;
  d.append(head, why, clause);
  page.tableDirty = true;
  render(true);
}

const show = (v, digits) => (v == null ? "\u2013" : digits == null ? String(v) : Number(v).toFixed(digits));

function updateResults() {
  const live = JSON.parse(page.sim.live());
  const r = live.result;
  $("r-time").textContent = `${(live.now_ps / 1e12).toFixed(6)} s`;
  $("r-delivered").textContent = show(r.conservation.delivered_frames);
  $("r-collisions").textContent = show(r.collision_events);
  $("r-collided").textContent = show(r.collided_attempts);
  $("r-dropped").textContent = show(r.conservation.dropped_excessive_frames);
  $("r-utilisation").textContent = show(r.utilisation_fraction);
  $("r-mb").textContent = show(r.mb_efficiency_fraction);
  $("r-delay").textContent = r.access_delay.count ? `${show(r.access_delay.mean_us, 1)} \u00b5s` : "\u2013";
  $("r-jain").textContent = show(r.jain_fairness_index, 4);
  const ec = $("ec-table").tBodies[0];
  ec.textContent = "";
  for (const row of r.backoff) {
    const tr = ec.insertRow();
    tr.dataset.c = row.collisions;
    tr.dataset.draws = row.draws;
    tr.dataset.mean = String(row.mean_slots);
    for (const v of [row.collisions, row.draws, show(row.mean_slots, 3), show(row.expected_slots)]) {
      tr.insertCell().textContent = String(v);
    }
  }
  drawCharts(live, r);
}

function drawCharts(live, r) {
  // Utilisation so far against Metcalfe & Boggs.
  const dur = live.duration_ps / 1e12;
  const n = live.series_bits.length;
  const upto = Math.min(n, Math.ceil((live.now_ps / live.duration_ps) * n));
  let cum = 0;
  const util = [];
  for (let i = 0; i < upto; i++) {
    cum += live.series_bits[i];
    const t = Math.min(((i + 1) * dur) / n, live.now_ps / 1e12);
    if (t > 0) util.push([t, cum / (t * live.bit_rate)]);
  }
  let f = frame($("chart-util"), { x0: 0, x1: dur, y0: 0, y1: 1, xlabel: "simulated time (s)", ylabel: "utilisation" });
  line(f, util, "#1f5fa8");
  if (r.mb_efficiency_fraction != null) {
    line(f, [[0, r.mb_efficiency_fraction], [dur, r.mb_efficiency_fraction]], "#c0392b", [5, 4]);
  }
  legend(f, [["measured, since the start", "#1f5fa8"], ["Metcalfe & Boggs", "#c0392b"]]);

  // Mean backoff after c collisions against E(c).
  const rows = r.backoff.filter((b) => b.draws > 0);
  const cmax = Math.max(10, ...rows.map((b) => b.collisions));
  f = frame($("chart-backoff"), { x0: 0.5, x1: cmax + 0.5, y0: 0.1, y1: 1000, logY: true, xlabel: "collisions c", ylabel: "slots",
    xticks: Array.from({ length: cmax }, (_, i) => i + 1) });
  line(f, r.backoff.map((b) => [b.collisions, Math.max(b.expected_slots, 0.1)]), "#c0392b", [5, 4]);
  points(f, rows.map((b) => [b.collisions, Math.max(b.mean_slots, 0.1)]), "#1f5fa8", rows.map((b) => 1.96 * b.std_error));
  legend(f, [["mean drawn (95 % interval)", "#1f5fa8"], ["E(c)", "#c0392b"]]);

  // Attempts per frame.
  const h = r.attempts_histogram;
  const total = h.reduce((a, b) => a + b, 0) || 1;
  f = frame($("chart-attempts"), { x0: 0.5, x1: h.length + 0.5, y0: 0, y1: Math.max(0.05, ...h.map((v) => v / total)),
    xlabel: "attempts", ylabel: "share of frames", xticks: h.map((_, i) => i + 1) });
  bars(f, h.map((v, i) => [i + 1, v / total]), 0.8, "#1f5fa8");

  // Each station's share of the successes.
  const s = live.successes;
  const all = s.reduce((a, b) => a + b, 0) || 1;
  const shares = s.map((v) => v / all);
  f = frame($("chart-share"), { x0: -0.5, x1: s.length - 0.5, y0: 0, y1: Math.max(2 / s.length, ...shares),
    xlabel: "station", ylabel: "share" });
  bars(f, shares.map((v, k) => [k, v]), 0.85, "#1f5fa8");
  line(f, [[-0.5, 1 / s.length], [s.length - 0.5, 1 / s.length]], "#c0392b", [5, 4]);
  legend(f, [["fair share 1/N", "#c0392b"]]);
}

// ---- the backoff explorer ---------------------------------------------------

function drawExplorer() {
  const err = $("ex-error");
  let v;
  try {
    v = JSON.parse(explore(JSON.stringify(page.values), Number($("ex-c").value), Number($("ex-n").value),
      BigInt(Math.max(0, Math.floor(Number($("ex-seed").value) || 0)))));
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
    return;
  }
  err.hidden = true;
  $("ex-summary").textContent =
    `After collision ${v.collisions}: W = ${v.window}, mean of ${v.samples} draws ${v.mean_slots.toFixed(3)} slots, ` +
    `E(c) = ${v.expected_slots}. Total over collisions 1..${v.collisions}: mean ${v.total_mean_slots.toFixed(2)} slots ` +
    `(closed form ${v.total_expected_slots}, sd ${v.total_sd_slots.toFixed(2)}); one slot is ${v.slot_us} \u00b5s.`;
  for (const [id, hist] of [["ex-after", v.after], ["ex-total", v.total]]) {
    const w = hist.bin_slots;
    const nb = hist.drawn.length;
    const ymax = Math.max(...hist.drawn, ...hist.closed_form) * 1.1 || 1;
    const f = frame($(id), { x0: 0, x1: nb * w, y0: 0, y1: ymax, xlabel: `slots (bins of ${w})`, ylabel: "probability" });
    bars(f, hist.drawn.map((p, b) => [b * w + w / 2, p]), w, "rgba(31, 95, 168, 0.6)");
    line(f, hist.closed_form.map((p, b) => [b * w + w / 2, p]), "#c0392b");
    legend(f, [["drawn by backoff-core", "#1f5fa8"], ["closed form", "#c0392b"]]);
  }
}

// ---- sharing ------------------------------------------------------------------

function download(name, type, data) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function importToml(text) {
  try {
    const values = JSON.parse(fromToml(text));
    writeControls(values);
    start(values);
  } catch (e) {
    showError(e.message);
  }
}

// ---- wiring -----------------------------------------------------------------

function wire() {
  $("scenario-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    start(readControls());
  });
  $("defaults").addEventListener("click", () => {
    writeControls({});
    start({});
  });
  $("play").addEventListener("click", () => setPlaying(!page.playing));
  $("step").addEventListener("click", () => {
    setPlaying(false);
    page.sim.step();
    render(true);
  });
  $("next-collision").addEventListener("click", () => {
    setPlaying(false);
    page.sim.step_to_collision();
    render(true);
  });
  $("run-end").addEventListener("click", () => (page.running ? stopRunning() : runToEnd()));
  $("reset").addEventListener("click", () => start(page.values));
  $("zoom").addEventListener("change", () => render(true));
  $("diagram").addEventListener("click", (ev) => {
    const r = ev.target.getBoundingClientRect();
    const i = page.diagram.hit(ev.clientX - r.left, ev.clientY - r.top);
    if (i != null) select(i);
  });
  $("events").addEventListener("click", (ev) => {
    const tr = ev.target.closest("tr");
    if (tr && tr.dataset.i) select(Number(tr.dataset.i));
  });
  $("share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $("status").textContent = "Link copied.";
    } catch {
      $("status").textContent = location.href;
    }
  });
  $("export-toml").addEventListener("click", () => {
    try {
      download("scenario.toml", "text/plain", toToml(JSON.stringify(page.values)));
    } catch (e) {
      showError(e.message);
    }
  });
  $("import-toml").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (file) importToml(await file.text());
    ev.target.value = "";
  });
  $("pcap").addEventListener("click", () => {
    try {
      download("macsim-run.pcapng", "application/octet-stream", page.sim.pcapng());
    } catch (e) {
      showError(e.message);
    }
  });
  $("ex-draw").addEventListener("click", drawExplorer);
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key === " ") setPlaying(!page.playing);
    else if (key === "s" || key === "arrowright") $("step").click();
    else if (key === "c") $("next-collision").click();
    else if (key === "r") $("reset").click();
    else return;
    ev.preventDefault();
  });
}

// Exposed for the tests: the TOML of the scenario shown, and importing one.
page.exportToml = () => toToml(JSON.stringify(page.values));
page.importToml = importToml;

async function main() {
  await init();
  page.diagram = new Diagram($("diagram"));
  buildControls();
  wire();
  const values = valuesFromUrl();
  writeControls(values);
  if (!start(values)) {
    // A link with a bad value: say so, and show the defaults.
    const message = $("error").textContent;
    start({});
    showError(message);
  }
  document.body.dataset.ready = "1";
  requestAnimationFrame(tick);
}

main();

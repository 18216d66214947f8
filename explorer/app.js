/*
 * app.js — the explorer: reads the controls, asks libposenc (WebAssembly,
 * explorer/explorer.c) for the numbers and redraws every plot on each input
 * event. Line plots are uPlot (vendored by `make explorer`); the two heat
 * maps are drawn on canvases here (uPlot has none). Nothing is computed in
 * JavaScript except colours and formatting: the page shows what the library
 * returns, and `window.explorer.last` keeps the full-precision arrays so that
 * tests/browser/ can hold them against the CLI's JSON.
 */
'use strict';

const BASES = [100, 500, 1000, 5000, 10000, 50000, 100000, 500000, 1000000, 10000000];
/* D = 2 is one pair: every view still draws (NTK alone is refused there, see draw()). */
const HEAD_DIMS = [2, 8, 16, 32, 64, 96, 128, 256];
const SCHEMES = ['default', 'linear', 'ntk', 'yarn', 'llama3'];
const SEED = 1; /* the CLI's default --seed for q, k */
const SCORE_POINTS = 801;
const SIM_N = 64;
const SIN_ROWS = 128;
/* Tick steps of a pair axis: whole pairs only (at D = 8 uPlot chose 0.5). */
const PAIR_TICKS = [1, 2, 4, 5, 8, 10, 16, 20, 32, 64];

const $ = (id) => document.getElementById(id);
/* Shown numbers: 6 significant digits, the same rounding the test applies to the CLI's. */
const fmt = (x) => Number(x.toPrecision(6)).toString();

function params() {
  return {
    base: BASES[+$('base').value],
    headDim: HEAD_DIMS[+$('head-dim').value],
    offset: +$('offset').value,
    position: +$('position').value,
    scaling: $('scaling').value,
    factor: +$('factor').value,
    l0: +$('l0').value,
    layout: +$('layout').value,
    logOffset: $('log-offset').checked,
  };
}

/* The CLI options that give the same frequencies (cli/freq_opts.c). */
function freqOpts(p, scheme) {
  let s = `--head-dim ${p.headDim} --base ${p.base}`;
  if (scheme !== 'default') s += ` --scaling ${scheme} --factor ${p.factor}`;
  if (scheme === 'yarn' || scheme === 'llama3') s += ` --original-max-position ${p.l0}`;
  return s;
}

class Lib {
  constructor(M) {
    this.M = M;
    this.freqs = M._malloc(M._px_freqs_size());
    this.bufs = {};
  }
  /* A reusable f64 buffer of n values in the module's memory. */
  buf(name, n) {
    const b = this.bufs[name];
    if (b && b.n >= n) return b.ptr;
    if (b) this.M._free(b.ptr);
    const ptr = this.M._malloc(8 * n);
    if (!ptr) throw new Error('out of memory');
    this.bufs[name] = { ptr, n };
    return ptr;
  }
  read(ptr, n) { return Array.from(this.M.HEAPF64.subarray(ptr / 8, ptr / 8 + n)); }
  check(st, what) {
    if (st !== 0) throw new Error(`${what}: ${this.M.UTF8ToString(this.M._px_last_error())}`);
  }
  setFreqs(p, scheme) {
    const M = this.M;
    const st = M.ccall('px_freqs', 'number',
      ['number', 'string', 'number', 'number', 'number', 'number'],
      [this.freqs, scheme, p.headDim, p.base, p.factor, p.l0]);
    this.check(st, `frequencies (${scheme})`);
    const n = M._px_pairs(this.freqs);
    const w = [];
    for (let i = 0; i < n; i++) w.push(M._px_inv_freq(this.freqs, i));
    return { invFreq: w, attentionFactor: M._px_attention_factor(this.freqs) };
  }
  periods(offset, pairs) {
    const wl = this.buf('wl', pairs), fl = this.buf('fl', pairs),
      ph = this.buf('ph', pairs), tu = this.buf('tu', pairs);
    this.check(this.M._px_pair_periods(this.freqs, offset, wl, fl, ph, tu), 'pair periods');
    return { wavelength: this.read(wl, pairs), flip: this.read(fl, pairs),
      phase: this.read(ph, pairs), turns: this.read(tu, pairs) };
  }
  /* unit: q = k = 1 in every pair (the CLI's sinusoidal_dot) instead of random q, k. */
  scores(p, start, step, n, unit) {
    const a = this.buf('sp', n), b = this.buf('sm', n);
    this.check(this.M._px_score_curve(this.freqs, p.headDim, p.layout, p.position, start, step,
      n, SEED, unit ? 1 : 0, a, b), 'score curve');
    return { plus: this.read(a, n), minus: this.read(b, n) };
  }
  simRope(p, n) {
    const o = this.buf('simr', n * n);
    this.check(this.M._px_similarity_rope(this.freqs, p.headDim, p.layout, p.position, n, SEED, o),
      'RoPE similarity');
    return this.read(o, n * n);
  }
  simSin(p, n) {
    const o = this.buf('sims', n * n);
    this.check(this.M._px_similarity_sinusoidal(p.headDim, p.base, p.position, n, o),
      'sinusoidal similarity');
    return this.read(o, n * n);
  }
  /* the four terms and the logit (posenc analyze logit-terms) */
  logitTerms(sinusoidal, m, n) {
    const o = this.buf('terms', 5);
    this.check(this.M._px_logit_terms(sinusoidal ? 1 : 0, 8, m, n, SEED, o), 'logit terms');
    return this.read(o, 5);
  }
  /* PE(m), M_k PE(m), PE(m + k): (3, D) */
  shift(p) {
    const o = this.buf('shift', 3 * p.headDim);
    this.check(this.M._px_shift(p.headDim, p.base, p.position, p.offset, o), 'shift matrix');
    return this.read(o, 3 * p.headDim);
  }
  sinRows(p, n) {
    const o = this.buf('sin', n * p.headDim);
    this.check(this.M._px_sinusoidal_rows(p.headDim, p.base, 0, p.position, n, o),
      'sinusoidal rows');
    return this.read(o, n * p.headDim);
  }
}

/* ------------------------------------------------------------ drawing */

function plotWidth(id) { return Math.max(280, $(id).clientWidth || 600); }

/* Vertical dashed markers, drawn after uPlot's own series. */
function markersPlugin(get) {
  return {
    hooks: {
      draw: (u) => {
        const ctx = u.ctx;
        ctx.save();
        get().forEach((m, row) => {
          if (!(m.x >= u.scales.x.min && m.x <= u.scales.x.max)) return;
          const x = u.valToPos(m.x, 'x', true);
          ctx.strokeStyle = m.color;
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.setLineDash(m.dash ? [6 * devicePixelRatio, 4 * devicePixelRatio] : []);
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top);
          ctx.lineTo(x, u.bbox.top + u.bbox.height);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.fillStyle = m.color;
          ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
          /* One text row per marker: close markers must not print over each other. */
          ctx.fillText(m.label, x + 4 * devicePixelRatio, u.bbox.top + 14 * (row + 1) * devicePixelRatio);
        });
        ctx.restore();
      },
    },
  };
}

/* Diverging blue-white-red for v in [-1, 1]. */
function diverging(v) {
  const t = Math.max(-1, Math.min(1, v));
  if (t >= 0) return [255, Math.round(255 * (1 - t * 0.8)), Math.round(255 * (1 - t * 0.85))];
  return [Math.round(255 * (1 + t * 0.85)), Math.round(255 * (1 + t * 0.6)), 255];
}

function heatmap(canvas, values, rows, cols, scale) {
  canvas.width = cols;
  canvas.height = rows;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    const [r, g, b] = diverging(values[i] / scale);
    img.data[4 * i] = r; img.data[4 * i + 1] = g; img.data[4 * i + 2] = b; img.data[4 * i + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}

/* A unit circle with q's hand (blue) and k's hand (red) at the given angles
 * in degrees, counter-clockwise from the right; the arc between them. */
function drawClock(canvas, qDeg, kDeg) {
  const ctx = canvas.getContext('2d'), w = canvas.width, h = canvas.height, c = w / 2, r = 0.4 * w;
  ctx.clearRect(0, 0, w, h);
  ctx.strokeStyle = '#c8c8c0';
  ctx.lineWidth = 1;
  ctx.beginPath(); ctx.arc(c, c, r, 0, 2 * Math.PI); ctx.stroke();
  const rad = (d) => d * Math.PI / 180;
  ctx.strokeStyle = '#999';
  ctx.beginPath(); ctx.arc(c, c, 0.3 * r, -rad(qDeg), -rad(kDeg), true); ctx.stroke();
  for (const [d, colour, name] of [[qDeg, '#1f5fbf', 'q'], [kDeg, '#b3261e', 'k']]) {
    const x = c + r * Math.cos(rad(d)), y = c - r * Math.sin(rad(d));
    ctx.strokeStyle = colour; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.moveTo(c, c); ctx.lineTo(x, y); ctx.stroke();
    ctx.fillStyle = colour; ctx.font = '14px system-ui, sans-serif';
    ctx.fillText(name, c + 1.12 * r * Math.cos(rad(d)) - 4, c - 1.12 * r * Math.sin(rad(d)) + 5);
  }
}

/* Bars of the given values around a zero line, each labelled below. */
function drawBars(canvas, values, labels) {
  const ctx = canvas.getContext('2d'), w = canvas.width, h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  const top = Math.max(...values.map(Math.abs), 1e-12), mid = h / 2 - 8, half = mid - 12;
  const colours = ['#0072b2', '#d55e00', '#009e73', '#e69f00'];
  ctx.strokeStyle = '#888';
  ctx.beginPath(); ctx.moveTo(0, mid); ctx.lineTo(w, mid); ctx.stroke();
  const bw = w / values.length;
  values.forEach((v, i) => {
    const y = v / top * half;
    ctx.fillStyle = colours[i % colours.length];
    ctx.fillRect(i * bw + 0.2 * bw, Math.min(mid, mid - y), 0.6 * bw, Math.abs(y));
    ctx.fillStyle = '#1d2330';
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillText(labels[i], i * bw + 0.3 * bw, h - 4);
  });
}

const maxAbs = (a) => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;

/* ------------------------------------------------------------ the app */

class Explorer {
  constructor(lib) {
    this.lib = lib;
    this.last = {};
    this.markers = [];
    this.plots = {};
  }

  makePlots() {
    const w = (id) => plotWidth(id);
    this.makeScorePlot(false);
    this.plots.pairs = new uPlot({
      width: w('plot-pairs'), height: 260,
      scales: { x: { time: false }, wl: { distr: 3 }, ph: { range: [0, 2 * Math.PI] } },
      /* size: room for the widest tick label, so the axis title does not print over it */
      axes: [{ label: 'pair i', incrs: PAIR_TICKS },
        { scale: 'wl', label: 'wavelength (tokens, log)', size: 72 },
        { scale: 'ph', side: 1, label: 'phase at k (rad)', grid: { show: false }, size: 40 }],
      series: [{ label: 'pair' },
        { label: 'wavelength', scale: 'wl', stroke: '#1f5fbf', width: 2 },
        { label: 'phase k·ω mod 2π', scale: 'ph', stroke: '#b3261e', width: 0,
          points: { show: true, size: 5, fill: '#b3261e' } }],
    }, [[0], [1], [0]], $('plot-pairs'));
    const colours = { default: '#444', linear: '#1f5fbf', ntk: '#2e8b57', yarn: '#b3261e', llama3: '#8e44ad' };
    this.plots.scaling = new uPlot({
      width: w('plot-scaling'), height: 260,
      scales: { x: { time: false }, y: { distr: 3 } },
      axes: [{ label: 'pair i', incrs: PAIR_TICKS }, { label: 'wavelength 2π/ω (tokens, log)', size: 72 }],
      series: [{ label: 'pair' }].concat(SCHEMES.map((s) => ({ label: s, stroke: colours[s], width: 1 }))),
    }, [[0]].concat(SCHEMES.map(() => [1])), $('plot-scaling'));
    window.addEventListener('resize', () => {
      for (const [id, p] of Object.entries(this.plots)) p.setSize({ width: plotWidth(`plot-${id}`), height: 260 });
    });
  }

  /* The score plot, on a linear or a logarithmic offset axis (rebuilt when
   * the learner switches: uPlot fixes a scale's distribution at creation).
   * On the log axis the offsets start at 1 and the first tokens' fall is
   * spread out instead of squeezed into the left edge. */
  makeScorePlot(log) {
    if (this.plots.score) this.plots.score.destroy();
    this.scoreLog = log;
    this.plots.score = new uPlot({
      width: plotWidth('plot-score'), height: 260,
      /* The axis spans -span .. +span: RoPE's score at -k differs from +k for
       * general q, k. The "log" axis is uPlot's asinh scale (logarithmic
       * away from 0 on both sides, linear within one token of it). */
      scales: { x: log ? { time: false, distr: 4, asinh: 1 } : { time: false } },
      axes: [{ label: log ? 'offset k = n − m (tokens, symmetric log)' : 'offset k = n − m (tokens)', space: 60 },
        { label: 'score', size: 50 }],
      series: [{ label: 'k' },
        { label: 'random q, k', stroke: '#9db4d8', width: 1 },
        { label: 'q = k = 1 per pair: Σ cos(k ωᵢ)', stroke: '#1d2330', width: 2 }],
      plugins: [markersPlugin(() => this.markers)],
    }, [[-1, 1], [0, 0], [0, 0]], $('plot-score'));
  }

  update() {
    const p = params();
    $('base-out').textContent = p.base.toLocaleString('en-US');
    $('head-dim-out').textContent = p.headDim;
    $('offset-out').textContent = p.offset;
    $('position-out').textContent = p.position;
    $('factor-out').textContent = p.factor;
    try {
      this.draw(p);
      $('status').textContent = '';
    } catch (e) {
      $('status').textContent = e.message;
    }
  }

  draw(p) {
    const lib = this.lib;
    const opts = freqOpts(p, p.scaling);
    const layoutName = p.layout ? 'half' : 'interleaved';
    const last = { params: p };

    /* Scaling: every scheme's wavelengths; the selected one's frequencies last. */
    const curves = [];
    /* A scheme the library refuses at these parameters (NTK at D = 2: its
     * exponent d/(d-2) needs d > 2) gets no curve and its refusal is named
     * under the plot; the selected scheme's refusal stops the page as before. */
    const refused = [];
    for (const s of SCHEMES) {
      if (s === p.scaling) continue;
      try {
        curves[SCHEMES.indexOf(s)] = lib.setFreqs(p, s).invFreq.map((w) => 2 * Math.PI / w);
      } catch (e) {
        refused.push(e.message);
      }
    }
    last.refusedSchemes = refused;
    $('scaling-refused').textContent = refused.length ? `Not drawn: ${refused.join('; ')}.` : '';
    const sel = lib.setFreqs(p, p.scaling);
    curves[SCHEMES.indexOf(p.scaling)] = sel.invFreq.map((w) => 2 * Math.PI / w);
    for (let i = 0; i < SCHEMES.length; i++)
      if (!curves[i]) curves[i] = sel.invFreq.map(() => null);
    last.invFreq = sel.invFreq;
    last.attentionFactor = sel.attentionFactor;
    const pairs = sel.invFreq.length;
    const idx = sel.invFreq.map((_, i) => i);
    SCHEMES.forEach((s, i) => this.plots.scaling.setSeries(i + 1, { width: s === p.scaling ? 3.5 : 1 }));
    this.plots.scaling.setData([idx].concat(curves));
    $('num-freq-last').textContent = fmt(sel.invFreq[pairs - 1]);
    $('num-attention').textContent = fmt(sel.attentionFactor);
    $('cmd-scaling').textContent = `posenc freqs ${opts} --format json`;

    /* Pairs at offset k. */
    const per = lib.periods(p.offset, pairs);
    last.periods = per;
    /* Two different counts: pairs whose cosine is negative at k (pointing
     * backwards now; `posenc analyze flip` calls it past_flip), and pairs
     * that have passed their flip distance pi/w_i at least once (past the
     * slowest pair's flip, every one has: 64 of 64 at k = 32000, D = 128).
     * A negative k turns the pairs the other way, as far: |k| counts. */
    last.pastFlip = per.phase.filter((ph) => Math.cos(ph) < 0).length;
    last.flippedOnce = per.flip.filter((f) => Math.abs(p.offset) >= f).length;
    this.plots.pairs.setData([idx, per.wavelength, per.phase]);
    $('num-wavelength').textContent = fmt(per.wavelength[pairs - 1]);
    $('num-phase').textContent = fmt(per.phase[pairs - 1]);
    $('num-past').textContent = `${last.pastFlip} of ${pairs}`;
    $('num-flipped').textContent = `${last.flippedOnce} of ${pairs}`;
    $('cmd-pairs').textContent = `posenc analyze flip ${opts} --offset ${p.offset} --format json`;

    /* One pair as a clock: q's hand at alpha + m w_i, k's at beta + n w_i,
     * n = m + k; the phases come from the library (m w_i and n w_i mod 2 pi). */
    const ci = Math.min(+$('clock-pair').value, pairs - 1);
    $('clock-pair').max = pairs - 1;
    const alpha = +$('clock-alpha').value, beta = +$('clock-beta').value;
    const phM = lib.periods(p.position, pairs).phase[ci], phN = lib.periods(p.position + p.offset, pairs).phase[ci];
    const deg = (r) => r * 180 / Math.PI, wrap = (d) => ((d % 360) + 360) % 360;
    const qDeg = wrap(alpha + deg(phM)), kDeg = wrap(beta + deg(phN)), between = wrap(kDeg - qDeg);
    last.clock = { pair: ci, alpha, beta, qDeg, kDeg, between, cos: Math.cos(between * Math.PI / 180),
      invFreq: sel.invFreq[ci] };
    drawClock($('clock'), qDeg, kDeg);
    $('clock-pair-out').textContent = ci;
    $('clock-alpha-out').textContent = alpha;
    $('clock-beta-out').textContent = beta;
    $('num-clock-freq').textContent = fmt(sel.invFreq[ci]);
    $('num-clock-q').textContent = fmt(qDeg);
    $('num-clock-k').textContent = fmt(kDeg);
    $('num-clock-angle').textContent = fmt(between);
    $('num-clock-cos').textContent = fmt(last.clock.cos);
    $('cmd-clock').textContent = `posenc analyze flip ${opts} --offset ${p.offset} --format json ` +
      `(phase_rad[${ci}] is the angle between the hands when α = β)`;

    /* The four terms with added positions (their own m, n: raw positions
     * make sense near the start, where the page's m does not sit). */
    const tsin = +$('terms-scheme').value === 1, tm = +$('terms-m').value, tn = +$('terms-n').value;
    const terms = lib.logitTerms(tsin, tm, tn);
    last.terms = { sinusoidal: tsin, m: tm, n: tn, values: terms };
    drawBars($('terms'), terms.slice(0, 4), ['c-c', 'c-p', 'p-c', 'p-p']);
    $('terms-m-out').textContent = tm;
    $('terms-n-out').textContent = tn;
    ['num-cc', 'num-cp', 'num-pc', 'num-pp', 'num-logit'].forEach((id, i) => { $(id).textContent = fmt(terms[i]); });
    $('cmd-terms').textContent = `posenc analyze logit-terms --scheme ${tsin ? 'sinusoidal' : 'raw'} --dim 8 ` +
      `--m ${tm} --n ${tn} --format json`;

    /* Score vs offset: 0 .. past the slowest pair's flip (and past k). */
    const flipSlowest = per.flip[pairs - 1];
    last.flipSlowest = flipSlowest;
    const span = Math.min(2e9, Math.max(2.2 * flipSlowest, 1.2 * Math.abs(p.offset), 64));
    const step = Math.max(1, Math.ceil(span / (SCORE_POINTS - 1)));
    if (p.logOffset !== this.scoreLog) this.makeScorePlot(p.logOffset);
    let sc, su, ks;
    if (p.logOffset) {
      /* offsets 1 .. span spaced evenly in log k, each asked of the library */
      const top = Math.log(span);
      ks = [...new Set(Array.from({ length: SCORE_POINTS }, (_, j) => Math.round(Math.exp(top * j / (SCORE_POINTS - 1)))))];
      const one = (unit) => {
        const at = ks.map((k) => lib.scores(p, k, 1, 1, unit));
        return { plus: at.map((r) => r.plus[0]), minus: at.map((r) => r.minus[0]), zero: lib.scores(p, 0, 1, 1, unit).plus[0] };
      };
      sc = one(false);
      su = one(true);
    } else {
      sc = lib.scores(p, 0, step, SCORE_POINTS, false);
      su = lib.scores(p, 0, step, SCORE_POINTS, true);
      ks = sc.plus.map((_, j) => j * step);
    }
    last.scoreOffsets = ks;
    last.unitScores = su.plus;
    /* The whole axis, -span .. +span: the negative half from the library's
     * scores at -k (the minus arrays), mirrored; offset 0 once. */
    const both = (c) => {
      const pos = ks[0] === 0 ? c.plus : [c.zero].concat(c.plus);
      const neg = (ks[0] === 0 ? c.minus.slice(1) : c.minus).slice().reverse();
      return neg.concat(pos);
    };
    const posK = ks[0] === 0 ? ks : [0].concat(ks);
    const axis = posK.slice(1).map((k) => -k).reverse().concat(posK);
    last.scoreAxis = { offsets: axis, random: both(sc), unit: both(su) };
    this.markers = [
      { x: flipSlowest, color: '#b3261e', dash: true, label: `flip ${fmt(flipSlowest)}` },
      { x: p.offset, color: '#2e8b57', dash: false, label: `k = ${p.offset}` },
      { x: -p.offset, color: '#2e8b57', dash: true, label: `−k` },
    ];
    this.plots.score.setData([axis, last.scoreAxis.random, last.scoreAxis.unit]);
    const atK = lib.scores(p, p.offset, 1, 1, false);
    const unitK = lib.scores(p, p.offset, 1, 1, true);
    last.scoreAtOffset = atK.plus[0];
    last.unitScoreAtOffset = unitK.plus[0];
    $('num-offset').textContent = p.offset;
    $('num-score').textContent = fmt(atK.plus[0]);
    last.scoreAtMinusOffset = atK.minus[0];
    $('num-score-minus').textContent = fmt(atK.minus[0]);
    $('num-unit-score').textContent = fmt(unitK.plus[0]);
    $('num-flip').textContent = fmt(flipSlowest);
    $('cmd-score').textContent = `posenc analyze relativity ${opts} --layout ${layoutName} ` +
      `--m ${p.position} --range ${p.offset}:${p.offset + 1} --format json`;

    /* Similarity matrices over positions m .. m+63. */
    const sr = lib.simRope(p, SIM_N);
    heatmap($('heat-rope'), sr, SIM_N, SIM_N, maxAbs(sr));
    const ss = lib.simSin(p, SIM_N);
    heatmap($('heat-sin-sim'), ss, SIM_N, SIM_N, maxAbs(ss));
    last.simRope01 = sr[1];
    last.simSin01 = ss[1];
    $('num-sim').textContent = fmt(sr[1]);
    $('num-sin-sim').textContent = fmt(ss[1]);
    $('cmd-similarity').textContent = `posenc analyze similarity --scheme rope ${opts} ` +
      `--layout ${layoutName} --range ${p.position}:${p.position + SIM_N} --format json; ` +
      `posenc analyze similarity --scheme sinusoidal --dim ${p.headDim} --base ${p.base} ` +
      `--range ${p.position}:${p.position + SIM_N} --format json`;

    /* The shift matrix: PE(m), M_k PE(m), PE(m + k). */
    const sh = lib.shift(p);
    const D = p.headDim;
    let gap = 0;
    for (let j = 0; j < D; j++) gap = Math.max(gap, Math.abs(sh[D + j] - sh[2 * D + j]));
    last.shift = { rows: sh, gap };
    heatmap($('shift'), sh, 3, D, 1);
    $('num-shift-gap').textContent = gap.toExponential(1);
    $('num-shift-pe').textContent = `(${fmt(sh[2 * D])}, ${fmt(sh[2 * D + 1])})`;
    $('cmd-shift').textContent = `posenc encode sinusoidal --dim ${D} --base ${p.base} ` +
      `--range ${p.position + p.offset}:${p.position + p.offset + 1} --format json`;

    /* Sinusoidal rows m .. m+127. */
    const rows = lib.sinRows(p, SIN_ROWS);
    heatmap($('heat-sin'), rows, SIN_ROWS, p.headDim, 1);
    last.peFirstPair = [rows[0], rows[1]];
    $('num-pe').textContent = `(${fmt(rows[0])}, ${fmt(rows[1])})`;
    $('cmd-sinusoidal').textContent = `posenc encode sinusoidal --dim ${p.headDim} --base ${p.base} ` +
      `--range ${p.position}:${p.position + SIN_ROWS} --format json`;

    this.last = last;
    this.updates = (this.updates || 0) + 1;
  }
}

createPosenc().then((M) => {
  const app = new Explorer(new Lib(M));
  window.explorer = app;
  $('version').textContent = `libposenc ${M.UTF8ToString(M._px_version())} (WebAssembly).`;
  app.makePlots();
  /* the exact offset box and the offset slider move together; the box's
   * buttons step one token either way or turn the sign (RoPE tells +k from
   * -k: the key after or before the query) */
  const setOffset = (v) => {
    if (!(Number.isFinite(v) && v >= -200000 && v <= 200000)) return false;
    $('offset').value = v;
    $('offset-num').value = v;
    return true;
  };
  $('offset-num').addEventListener('input', () => { setOffset(Math.round(+$('offset-num').value)); });
  $('offset').addEventListener('input', () => { $('offset-num').value = $('offset').value; });
  for (const [id, f] of [['offset-down', (k) => k - 1], ['offset-up', (k) => k + 1], ['offset-sign', (k) => -k]])
    $(id).addEventListener('click', () => { if (setOffset(f(+$('offset').value))) app.update(); });
  for (const el of document.querySelectorAll('#controls input, #controls select, #panel-clock input, ' +
    '#panel-terms input, #panel-terms select'))
    el.addEventListener('input', () => app.update());
  app.update();
  document.body.dataset.ready = '1';
}).catch((e) => {
  document.getElementById('status').textContent = `libposenc failed to load: ${e.message}`;
});

// run.mjs — `make test-browser`: the tour and the explorer in a real browser
// (Debian's chromium driven by playwright-core, both pinned by the lockfile).
//
//   node tests/browser/run.mjs --posenc build/posenc --tour DIR --out DIR
//
// DIR/index.html is a tour built with `posenc tour --no-experiment` and
// DIR/explorer/index.html the explorer beside it, both opened from file://
// (the way a learner opens them, offline). Checks, each printed as ok/FAIL:
//   - every image and script of both pages loaded, no request failed, no
//     console error and no uncaught exception;
//   - the explorer's numbers equal `posenc`'s JSON for the same parameters,
//     before and after sliders are moved with the keyboard (the shown,
//     rounded numbers exactly; the full arrays within the tolerance below);
//   - moving a slider changes the shown numbers and the plots' pixels;
//   - screenshots at 1280 and 420 px wide (written to --out) are not blank:
//     their pixel standard deviation is well above a flat page's 0; the
//     explorer also fits 420 px without sideways scrolling.
// Exit status 0 when every check passed, 1 otherwise.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? acc.concat([[a.slice(2), all[i + 1]]]) : acc), []));
for (const k of ['posenc', 'tour', 'out'])
  if (!args[k]) { console.error(`run.mjs: --${k} is required`); process.exit(2); }
const POSENC = resolve(args.posenc), TOUR = resolve(args.tour), OUT = resolve(args.out);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
mkdirSync(OUT, { recursive: true });

let passed = 0, failed = 0;
function check(name, cond, detail = '') {
  if (cond) { passed++; console.log(`ok   ${name}`); }
  else { failed++; console.log(`FAIL ${name}${detail ? `: ${detail}` : ''}`); }
  return cond;
}

/* The CLI's JSON for a command line of the form the page shows. */
function cli(cmdline) {
  const argv = cmdline.replace(/^posenc /, '').split(/\s+/).filter(Boolean);
  return JSON.parse(execFileSync(POSENC, argv, { encoding: 'utf8' }));
}
const fmt = (x) => Number(x.toPrecision(6)).toString(); /* explorer/app.js's rounding */

/*
 * Tolerance between the page's full-precision numbers and the CLI's. They
 * are the same C, but emscripten's C library evaluates long double expl and
 * logl (80-bit on x86-64, 128-bit in WebAssembly) only to double precision,
 * so w_i = base^(-2i/d) carries a relative error of about |ln w_i| 2^-53
 * <= 16 * 1.1e-16 = 1.8e-15 for base <= 1e7 (measured: 3 ulp). Frequencies,
 * wavelengths and flip distances: relative 1e-13. A phase k w_i grows that
 * error by k w_i: absolute 1e-13 (1 + k w_i) rad. A score sums D/2 products
 * of |q||k| <= 2 rotated by such angles: absolute 1e-13 D (1 + k + m).
 */
const near = (a, b, tol) => Math.abs(a - b) <= tol;
const rel = (a, b, r) => near(a, b, r * Math.max(Math.abs(a), Math.abs(b)));

async function variance(page, png) {
  /* Decode the screenshot in the browser (no PNG decoder in node's stdlib). */
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let s = 0, s2 = 0, n = 0;
    for (let i = 0; i < d.length; i += 4) {
      const y = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
      s += y; s2 += y * y; n++;
    }
    const mean = s / n;
    return { std: Math.sqrt(Math.max(0, s2 / n - mean * mean)), width: c.width, height: c.height };
  }, png.toString('base64'));
}

async function screenshots(browser, url, name, extra) {
  for (const width of [1280, 420]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(url);
    if (extra) await extra(page);
    /* the tour's figures load lazily: load them all, so the full-page
     * screenshot shows every figure as a learner scrolling would see it */
    const images = await page.evaluate(async () => {
      const imgs = [...document.querySelectorAll('img')];
      imgs.forEach((i) => { i.loading = 'eager'; });
      await Promise.all(imgs.map((i) => (i.complete ? null : new Promise((r) => { i.onload = i.onerror = r; }))));
      return { n: imgs.length, broken: imgs.filter((i) => !(i.naturalWidth > 0)).map((i) => i.src) };
    });
    check(`${name}_images_${width}_all_loaded`, images.broken.length === 0, images.broken.join(', '));
    const file = join(OUT, `${name}-${width}.png`);
    const png = await page.screenshot({ path: file, fullPage: true });
    const v = await variance(page, png);
    check(`${name}_screenshot_${width}_not_blank`, v.std > 20 && v.width === width,
      `pixel std ${v.std.toFixed(1)}, ${v.width}x${v.height}, ${file}`);
    if (name === 'explorer' && width === 420) {
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      check('explorer_fits_420px', sw <= 420, `page is ${sw} px wide`);
    }
    await page.close();
  }
}

/* Opens url, collecting everything that went wrong while it loaded. */
async function openWatched(browser, url, ready) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url, { waitUntil: 'load' });
  if (ready) await page.waitForSelector(ready, { timeout: 20000 }).catch(() => problems.push(`never became ready (${ready})`));
  const assets = await page.evaluate(async () => {
    /* Lazy images load only near the viewport: ask for all of them now. */
    const imgs = [...document.images];
    for (const i of imgs) i.loading = 'eager';
    await Promise.all(imgs.map((i) => i.decode().catch(() => {})));
    return {
      images: imgs.map((i) => ({ src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0 })),
      scripts: [...document.scripts].length,
    };
  });
  return { page, problems, assets };
}

async function tourChecks(browser) {
  const url = pathToFileURL(join(TOUR, 'index.html')).href;
  const { page, problems, assets } = await openWatched(browser, url);
  const broken = assets.images.filter((i) => !i.ok).map((i) => i.src);
  check('tour_images_loaded', assets.images.length > 0 && broken.length === 0,
    `${assets.images.length} images, broken: ${broken.join(', ')}`);
  check('tour_no_errors', problems.length === 0, problems.join('; '));
  await glyphChecks(page);
  await page.close();
  await screenshots(browser, url, 'tour');
}

/*
 * Every character of the tour's formulas and prose that is not ASCII (Greek
 * letters, ∑, ≈, ·, …) is drawn with a real glyph, not the empty box a
 * browser draws when no installed font has it (Debian's chromium brings no
 * fonts of its own: scripts/setup-deps.sh adds fonts-dejavu-core). Each
 * character is drawn on a canvas in the font of the element it stands in,
 * beside a code point no font has (U+10FFFD, private use): pixels equal to
 * that one are the missing-glyph box. Invisible format characters (U+2061
 * function application, U+2062 invisible times) are left out: they draw
 * nothing on purpose.
 */
async function glyphChecks(page) {
  const missing = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 48; canvas.height = 48;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    const draw = (ch, font) => {
      ctx.clearRect(0, 0, 48, 48);
      ctx.font = font; ctx.fillStyle = '#000'; ctx.textBaseline = 'top';
      ctx.fillText(ch, 4, 4);
      return ctx.getImageData(0, 0, 48, 48).data.join(',');
    };
    const seen = new Map();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const family = getComputedStyle(n.parentElement).fontFamily;
      for (const ch of n.data)
        if (ch.codePointAt(0) > 127 && !/[\s\p{Cf}]/u.test(ch)) seen.set(`${ch}\u0000${family}`, [ch, family]);
    }
    const out = [];
    for (const [ch, family] of seen.values()) {
      const font = `24px ${family}`;
      if (draw(ch, font) === draw('\u{10FFFD}', font)) out.push(`${ch} (U+${ch.codePointAt(0).toString(16).toUpperCase()}, ${family})`);
    }
    return { count: seen.size, missing: out };
  });
  check('tour_glyphs_drawn', missing.count > 0 && missing.missing.length === 0,
    missing.count === 0 ? 'no non-ASCII characters found in the tour' : `no glyph for ${missing.missing.join(', ')}`);
}

/* Everything the explorer shows, against the CLI's JSON for the same parameters. */
async function compareWithCli(page, label) {
  const s = await page.evaluate(() => {
    const t = (id) => document.getElementById(id).textContent;
    return { last: window.explorer.last, updates: window.explorer.updates,
      cmds: { scaling: t('cmd-scaling'), pairs: t('cmd-pairs'), score: t('cmd-score'), sim: t('cmd-similarity'), sin: t('cmd-sinusoidal') },
      shown: { freqLast: t('num-freq-last'), attention: t('num-attention'), wavelength: t('num-wavelength'),
        phase: t('num-phase'), past: t('num-past'), score: t('num-score'), unitScore: t('num-unit-score'), flip: t('num-flip'),
        sim: t('num-sim'), sinSim: t('num-sin-sim'), pe: t('num-pe') } };
  });
  const { last, shown, cmds } = s;
  const p = last.params;
  const fr = cli(cmds.scaling);
  check(`${label}_freqs_equal_cli`, fr.inv_freq.length === last.invFreq.length &&
    fr.inv_freq.every((w, i) => rel(w, last.invFreq[i], 1e-13)) && rel(fr.attention_factor, last.attentionFactor, 1e-13),
    `${cmds.scaling}: ${JSON.stringify(fr.inv_freq.slice(-2))} vs ${JSON.stringify(last.invFreq.slice(-2))}`);
  const n = fr.inv_freq.length;
  check(`${label}_shown_freq_equals_cli`, shown.freqLast === fmt(fr.inv_freq[n - 1]) && shown.attention === fmt(fr.attention_factor),
    `${shown.freqLast} vs ${fmt(fr.inv_freq[n - 1])}`);
  const fl = cli(cmds.pairs);
  const phaseTol = (i) => 1e-13 * (1 + p.offset * fl.inv_freq[i]);
  check(`${label}_pairs_equal_cli`, fl.wavelength.every((w, i) => rel(w, last.periods.wavelength[i], 1e-13)) &&
    fl.flip_distance.every((w, i) => rel(w, last.periods.flip[i], 1e-13)) &&
    fl.phase_rad.every((w, i) => near(w, last.periods.phase[i], phaseTol(i))) && fl.past_flip === last.pastFlip,
    cmds.pairs);
  check(`${label}_shown_pairs_equal_cli`, shown.wavelength === fmt(fl.wavelength[n - 1]) &&
    shown.phase === fmt(fl.phase_rad[n - 1]) && shown.flip === fmt(fl.flip_distance[n - 1]) &&
    shown.past === `${fl.past_flip} of ${n}`,
    `${shown.wavelength}/${shown.phase}/${shown.flip}/${shown.past} vs ${fmt(fl.wavelength[n - 1])}/${fmt(fl.phase_rad[n - 1])}/${fmt(fl.flip_distance[n - 1])}/${fl.past_flip}`);
  const rv = cli(cmds.score);
  const scoreTol = 1e-13 * p.headDim * (1 + p.offset + p.position);
  check(`${label}_score_equals_cli`, near(rv.rope_score[0], last.scoreAtOffset, scoreTol) && shown.score === fmt(rv.rope_score[0]) &&
    near(rv.sinusoidal_dot[0], last.unitScoreAtOffset, scoreTol) && shown.unitScore === fmt(rv.sinusoidal_dot[0]),
    `${cmds.score}: ${rv.rope_score[0]} vs ${last.scoreAtOffset} (shown ${shown.score})`);
  const [simRopeCmd, simSinCmd] = cmds.sim.split('; ');
  const sr = cli(simRopeCmd), ss = cli(simSinCmd);
  check(`${label}_similarity_equals_cli`, near(sr.matrix[0][1], last.simRope01, 1e-13 * p.headDim * (2 + p.position)) &&
    near(ss.matrix[0][1], last.simSin01, 1e-12 * p.headDim) && shown.sim === fmt(sr.matrix[0][1]) && shown.sinSim === fmt(ss.matrix[0][1]),
    `${sr.matrix[0][1]} vs ${last.simRope01}; ${ss.matrix[0][1]} vs ${last.simSin01}`);
  const en = cli(cmds.sin);
  check(`${label}_sinusoidal_equals_cli`, near(en.values[0][0], last.peFirstPair[0], 1e-13 * (1 + p.position)) &&
    near(en.values[0][1], last.peFirstPair[1], 1e-13 * (1 + p.position)) &&
    shown.pe === `(${fmt(en.values[0][0])}, ${fmt(en.values[0][1])})`, cmds.sin);
  return s;
}

const pixels = (page) => page.evaluate(() =>
  ['plot-score', 'plot-pairs', 'plot-scaling'].map((id) => document.querySelector(`#${id} canvas`).toDataURL())
    .concat(['heat-rope', 'heat-sin-sim', 'heat-sin'].map((id) => document.getElementById(id).toDataURL())));

async function explorerChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!check('explorer_beside_tour', existsSync(file), file)) return;
  const url = pathToFileURL(file).href;
  const { page, problems, assets } = await openWatched(browser, url, 'body[data-ready="1"]');
  check('explorer_loaded_without_errors', problems.length === 0 && assets.scripts >= 3 &&
    await page.evaluate(() => document.getElementById('status').textContent === ''), problems.join('; '));
  const before = await compareWithCli(page, 'initial');
  const pxBefore = await pixels(page);

  /* A learner's moves, by keyboard: head dim 128 -> 64, base 1e4 -> 1e6, offset to 5000. */
  await page.focus('#head-dim');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.focus('#base');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await page.locator('#offset').fill('5000');
  const moved = await compareWithCli(page, 'moved');
  check('sliders_reached_their_values', moved.last.params.headDim === 64 && moved.last.params.base === 1e6 && moved.last.params.offset === 5000,
    JSON.stringify(moved.last.params));
  check('shown_numbers_changed', moved.shown.score !== before.shown.score && moved.shown.flip !== before.shown.flip &&
    moved.shown.wavelength !== before.shown.wavelength, `${before.shown.score} -> ${moved.shown.score}`);
  const pxAfter = await pixels(page);
  const unchanged = pxAfter.map((d, i) => (d === pxBefore[i] ? i : -1)).filter((i) => i >= 0);
  check('plots_changed', unchanged.length === 0, `plots ${unchanged.join(', ')} kept their pixels`);

  /* A scaling scheme with its factor and L0: YaRN, f 16, L0 8192, interleaved pairs. */
  await page.selectOption('#scaling', 'yarn');
  await page.locator('#factor').fill('16');
  await page.selectOption('#l0', '8192');
  await page.selectOption('#layout', '0');
  const yarn = await compareWithCli(page, 'yarn');
  check('yarn_magnitude_shown', yarn.last.params.scaling === 'yarn' && yarn.last.attentionFactor > 1, yarn.shown.attention);
  check('explorer_no_errors_after_moves', problems.length === 0 &&
    await page.evaluate(() => document.getElementById('status').textContent === ''), problems.join('; '));
  await page.close();
  await screenshots(browser, url, 'explorer', (pg) => pg.waitForSelector('body[data-ready="1"]'));
}

/* Issue 27 (kept apart from the checks above): the explorer's flip count
 * and the exact offset box. "Pairs past their flip" counts pairs with
 * k >= pi/w_i, recomputed here from the CLI's flip distances: at the
 * default D = 128, base 1e4, k = 32000 every pair has flipped (the slowest
 * flips at 27207); at k = 100 the first 25 have. The exact box sets the
 * notes' small offsets (7, 34, 44) that a slider of 200000 steps cannot. */
async function flipCountChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  const state = () => page.evaluate(() => ({ last: window.explorer.last,
    flipped: document.getElementById('num-flipped').textContent,
    cmd: document.getElementById('cmd-pairs').textContent,
    slider: document.getElementById('offset').value }));
  /* the command the page shows, run, its flip distances counted */
  const cliFlipped = (st) => {
    const fl = cli(st.cmd);
    return fl.flip_distance.filter((f) => fl.offset >= f).length;
  };
  let s = await state();
  check('flip_count_all_pairs_at_32000', s.flipped === '64 of 64' && cliFlipped(s) === 64, s.flipped);
  for (const [k, want] of [[100, 25], [7, null], [34, null], [44, null]]) {
    await page.locator('#offset-num').fill(String(k));
    s = await state();
    const n = cliFlipped(s);
    check(`offset_box_sets_k_${k}`, s.last.params.offset === k && s.slider === String(k) &&
      s.flipped === `${n} of 64` && (want === null || n === want), `${s.last.params.offset}, ${s.flipped}, cli ${n}`);
  }
  check('flip_checks_no_errors', problems.length === 0, problems.join('; '));
  await page.close();
}

/* Issue 27: the clock view. With alpha = beta the angle between the hands
 * is pair i's phase at offset k, the CLI's phase_rad[i]; turning q's hand
 * by alpha subtracts alpha; moving m turns both hands and leaves the angle
 * (relativity); the canvas repaints. */
async function clockChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  const state = () => page.evaluate(() => ({ clock: window.explorer.last.clock, params: window.explorer.last.params,
    shown: document.getElementById('num-clock-angle').textContent,
    cmd: document.getElementById('cmd-pairs').textContent,
    px: document.getElementById('clock').toDataURL() }));
  const angleNear = (a, b) => Math.abs(((a - b + 540) % 360) - 180) < 1e-6;
  let s = await state();
  const fl = cli(s.cmd);
  const want = fl.phase_rad[s.clock.pair] * 180 / Math.PI;
  check('clock_angle_is_cli_phase', s.clock.pair === fl.phase_rad.length - 1 && angleNear(s.clock.between, want) &&
    s.shown === fmt(s.clock.between), `${s.clock.between} vs ${want}`);
  const before = s;
  await page.locator('#clock-alpha').fill('30');
  s = await state();
  check('clock_alpha_turns_q', angleNear(s.clock.between, before.clock.between - 30) && s.px !== before.px,
    `${before.clock.between} -> ${s.clock.between}`);
  const atM = s;
  await page.locator('#position').fill('3000');
  s = await state();
  check('clock_m_turns_both_hands_only', s.params.position === 3000 && !angleNear(s.clock.qDeg, atM.clock.qDeg) &&
    angleNear(s.clock.between, atM.clock.between), `q ${atM.clock.qDeg} -> ${s.clock.qDeg}, between ${s.clock.between}`);
  await page.locator('#clock-pair').fill('0');
  s = await state();
  const fl0 = cli(s.cmd);
  check('clock_pair_0', s.clock.pair === 0 && angleNear(s.clock.between, fl0.phase_rad[0] * 180 / Math.PI - 30),
    `${s.clock.between}`);
  check('clock_no_errors', problems.length === 0 &&
    await page.evaluate(() => document.getElementById('status').textContent === ''), problems.join('; '));
  await page.close();
}

/* Issue 27: the log offset axis. Its offsets run from 1, increasing, past
 * the slowest pair's flip; the q = k = 1 curve there is the library's
 * sum of cos(k w_i), checked at k = 1, 10, 100 against the CLI's w_i. */
async function logAxisChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  const pxLinear = await page.evaluate(() => document.querySelector('#plot-score canvas').toDataURL());
  await page.locator('#log-offset').check();
  const s = await page.evaluate(() => ({ last: window.explorer.last,
    cmd: document.getElementById('cmd-pairs').textContent,
    px: document.querySelector('#plot-score canvas').toDataURL() }));
  const ks = s.last.scoreOffsets;
  const fl = cli(s.cmd);
  const unitAt = (k) => fl.inv_freq.reduce((a, w) => a + Math.cos(k * w), 0);
  const ok = [1, 10, 100].every((k) => {
    const j = ks.indexOf(k);
    return j >= 0 && Math.abs(s.last.unitScores[j] - unitAt(k)) < 1e-9 * fl.inv_freq.length;
  });
  check('log_axis_offsets', ks[0] === 1 && ks.every((k, j) => j === 0 || k > ks[j - 1]) &&
    ks[ks.length - 1] >= s.last.flipSlowest, `${ks[0]} .. ${ks[ks.length - 1]}, ${ks.length} points`);
  check('log_axis_unit_scores_equal_cli', ok, '');
  /* the score at -k, against the CLI's rope_score_negated_offset */
  const rel = cli(await page.evaluate(() => document.getElementById('cmd-score').textContent));
  const minusShown = await page.evaluate(() => document.getElementById('num-score-minus').textContent);
  check('score_at_minus_k_equals_cli', minusShown === fmt(rel.rope_score_negated_offset[0]) &&
    near(s.last.scoreAtMinusOffset, rel.rope_score_negated_offset[0], 1e-13 * s.last.params.headDim * (1 + s.last.params.offset + s.last.params.position)) &&
    minusShown !== fmt(rel.rope_score[0]), `${minusShown} vs ${rel.rope_score_negated_offset[0]}`);
  check('log_axis_redrawn', s.px !== pxLinear && problems.length === 0, problems.join('; '));
  await page.close();
}

/* Issue 27: the four-terms view against `posenc analyze logit-terms`, at
 * the start, far out with raw positions (position-position dominates) and
 * with sinusoidal codes. */
async function termsChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  const names = ['content_content', 'content_position', 'position_content', 'position_position', 'logit'];
  const same = async (label) => {
    const s = await page.evaluate(() => ({ terms: window.explorer.last.terms,
      cmd: document.getElementById('cmd-terms').textContent,
      shown: ['num-cc', 'num-cp', 'num-pc', 'num-pp', 'num-logit'].map((id) => document.getElementById(id).textContent) }));
    const c = cli(s.cmd);
    check(`terms_${label}_equal_cli`, names.every((k, i) => near(s.terms.values[i], c[k], 1e-12 * (1 + Math.abs(c[k]))) &&
      s.shown[i] === fmt(c[k])), `${s.shown.join(' ')} vs ${names.map((k) => c[k]).join(' ')}`);
    return s;
  };
  await same('start');
  await page.locator('#terms-m').fill('1000');
  await page.locator('#terms-n').fill('900');
  const far = await same('raw_far');
  const v = far.terms.values;
  check('terms_raw_far_position_dominates', Math.abs(v[3]) > Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2]), v.join(' '));
  await page.selectOption('#terms-scheme', '1');
  await same('sinusoidal');
  check('terms_no_errors', problems.length === 0, problems.join('; '));
  await page.close();
}

/* Issue 27: the shift view. M_k·PE(m) equals PE(m + k) from the CLI's
 * `encode sinusoidal`, at the start and after D, base, m and k move. */
async function shiftChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  const same = async (label) => {
    const s = await page.evaluate(() => ({ shift: window.explorer.last.shift, p: window.explorer.last.params,
      cmd: document.getElementById('cmd-shift').textContent }));
    const enc = cli(s.cmd);
    const row = enc.values[0];
    const D = s.p.headDim, moved = s.shift.rows.slice(D, 2 * D);
    check(`shift_${label}_equals_cli`, row.length === D && moved.every((v, j) => Math.abs(v - row[j]) < 1e-9) &&
      s.shift.gap < 1e-9, `gap ${s.shift.gap}, ${row.length} values`);
  };
  await same('initial');
  await page.locator('#offset-num').fill('17');
  await page.locator('#position').fill('1000');
  await same('k17_m1000');
  check('shift_no_errors', problems.length === 0, problems.join('; '));
  await page.close();
}

/* Issue 27: D = 2, one pair. The slider reaches it, every view draws
 * without an error, and the numbers are the CLI's: the one frequency, the
 * score at +k and -k, the shifted code, the flip count out of 1. NTK is
 * refused there by the library (d/(d-2) needs d > 2): its curve is left out
 * and the refusal named, not hidden. */
async function headDimTwoChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  await page.locator('#head-dim').fill('0');
  await page.locator('#offset-num').fill('7');
  const s = await page.evaluate(() => ({ last: window.explorer.last,
    status: document.getElementById('status').textContent,
    refused: document.getElementById('scaling-refused').textContent,
    flipped: document.getElementById('num-flipped').textContent,
    score: document.getElementById('num-score').textContent,
    cmds: ['cmd-scaling', 'cmd-score', 'cmd-shift', 'cmd-pairs'].map((id) => document.getElementById(id).textContent) }));
  const [fr, relv, enc, fl] = s.cmds.map(cli);
  check('d2_selected_without_errors', s.last.params.headDim === 2 && s.status === '' && problems.length === 0,
    `${s.last.params.headDim}: ${s.status} ${problems.join('; ')}`);
  check('d2_one_frequency_equals_cli', fr.head_dim === 2 && fr.inv_freq.length === 1 && s.last.invFreq.length === 1 &&
    rel(s.last.invFreq[0], fr.inv_freq[0], 1e-13), JSON.stringify(s.last.invFreq));
  const tol = 1e-13 * 2 * (1 + 7 + s.last.params.position);
  check('d2_scores_equal_cli', near(s.last.scoreAtOffset, relv.rope_score[0], tol) && s.score === fmt(relv.rope_score[0]) &&
    near(s.last.scoreAtMinusOffset, relv.rope_score_negated_offset[0], tol), `${s.score} vs ${relv.rope_score[0]}`);
  const D = 2, moved = s.last.shift.rows.slice(D, 2 * D);
  check('d2_shift_equals_cli', enc.values[0].length === 2 && moved.every((v, j) => Math.abs(v - enc.values[0][j]) < 1e-9),
    JSON.stringify(moved));
  check('d2_flip_count_of_one', s.flipped === `${fl.flip_distance.filter((f) => fl.offset >= f).length} of 1`, s.flipped);
  check('d2_ntk_refusal_named', s.last.refusedSchemes.length === 1 && /NTK/.test(s.refused), s.refused);
  await page.close();
}

/* Issue 27: negative offsets on the score plot's axis. On the linear axis
 * and on the symmetric log axis the offsets run -span .. +span through 0;
 * the random q, k score at -k is the CLI's rope_score_negated_offset (and
 * differs from +k somewhere), the q = k = 1 curve is mirror-symmetric. */
async function negativeOffsetChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  const state = () => page.evaluate(() => ({ axis: window.explorer.last.scoreAxis, p: window.explorer.last.params,
    cmd: document.getElementById('cmd-score').textContent,
    px: document.querySelector('#plot-score canvas').toDataURL() }));
  const axisChecks = (s, label) => {
    const x = s.axis.offsets, n = x.length, mid = (n - 1) / 2;
    check(`negative_axis_${label}_symmetric`, n % 2 === 1 && x[mid] === 0 && x.every((k, j) => k === -x[n - 1 - j]) &&
      x.every((k, j) => j === 0 || k > x[j - 1]) && x[0] < 0, `${x[0]} .. ${x[n - 1]}, ${n} points`);
    /* three negative offsets of the axis, each against the CLI at +|k| */
    const picks = [mid - 1, mid - Math.floor(mid / 3), 0];
    const bad = picks.filter((j) => {
      const k = -x[j];
      const c = cli(s.cmd.replace(/--range \S+/, `--range ${k}:${k + 1}`));
      const tol = 1e-13 * s.p.headDim * (1 + k + s.p.position);
      return !(near(s.axis.random[j], c.rope_score_negated_offset[0], tol) && near(s.axis.random[n - 1 - j], c.rope_score[0], tol));
    });
    check(`negative_axis_${label}_scores_equal_cli`, bad.length === 0, `offsets ${bad.map((j) => x[j]).join(', ')}`);
    check(`negative_axis_${label}_directions`, s.axis.random.some((v, j) => Math.abs(v - s.axis.random[n - 1 - j]) > 1e-3) &&
      s.axis.unit.every((v, j) => Math.abs(v - s.axis.unit[n - 1 - j]) < 1e-9 * s.p.headDim), '');
  };
  const lin = await state();
  axisChecks(lin, 'linear');
  await page.locator('#log-offset').check();
  const lg = await state();
  axisChecks(lg, 'log');
  check('negative_axis_log_reaches_minus_1', lg.axis.offsets.includes(-1) && lg.px !== lin.px, '');
  check('negative_axis_no_errors', problems.length === 0 &&
    await page.evaluate(() => document.getElementById('status').textContent === ''), problems.join('; '));
  await page.close();
}

/* Issue 27: a negative offset is settable (the key before the query, the
 * causal case): typed into the exact box, by the box's -1 / +1 steps and
 * by its sign button. At each, the shown score is the CLI's for the
 * command the page shows (its --range -k), score(k) != score(-k), the
 * flip count is the CLI's flip distances counted against |k|, the clock
 * and the shift strip follow, and nothing on the page errs. */
async function settableNegativeOffsetChecks(browser) {
  const file = join(TOUR, 'explorer', 'index.html');
  if (!existsSync(file)) return;
  const { page, problems } = await openWatched(browser, pathToFileURL(file).href, 'body[data-ready="1"]');
  const state = () => page.evaluate(() => ({ last: window.explorer.last,
    score: document.getElementById('num-score').textContent,
    flipped: document.getElementById('num-flipped').textContent,
    cmdScore: document.getElementById('cmd-score').textContent,
    cmdPairs: document.getElementById('cmd-pairs').textContent,
    cmdShift: document.getElementById('cmd-shift').textContent,
    box: document.getElementById('offset-num').value,
    slider: document.getElementById('offset').value,
    status: document.getElementById('status').textContent }));
  const agrees = (s, k) => {
    const rel = cli(s.cmdScore), fl = cli(s.cmdPairs), enc = cli(s.cmdShift);
    const n = fl.flip_distance.filter((f) => Math.abs(fl.offset) >= f).length;
    const D = s.last.params.headDim;
    return s.last.params.offset === k && s.box === String(k) && s.slider === String(k) && rel.offsets[0] === k &&
      s.score === fmt(rel.rope_score[0]) && s.flipped === `${n} of ${D / 2}` && fl.offset === k &&
      near(s.last.clock.between, ((fl.phase_rad[s.last.clock.pair] * 180 / Math.PI) % 360 + 360) % 360, 1e-9) &&
      enc.positions[0] === s.last.params.position + k && s.status === '';
  };
  for (const k of [-7, -34, -44, -32000]) {
    await page.locator('#offset-num').fill(String(k));
    const s = await state();
    check(`negative_offset_box_sets_${k}`, agrees(s, k),
      `${s.last.params.offset} box ${s.box} slider ${s.slider}, score ${s.score}, ${s.flipped}, ${s.status}`);
  }
  let s = await state();
  check('negative_offset_direction_differs', s.last.scoreAtOffset !== s.last.scoreAtMinusOffset, '');
  await page.locator('#offset-num').fill('-7');
  await page.locator('#offset-up').click();
  s = await state();
  check('offset_step_up_from_minus_7', agrees(s, -6), `${s.last.params.offset}`);
  await page.locator('#offset-down').click();
  await page.locator('#offset-down').click();
  s = await state();
  check('offset_step_down_to_minus_8', agrees(s, -8), `${s.last.params.offset}`);
  const before = s.last.scoreAtOffset;
  await page.locator('#offset-sign').click();
  s = await state();
  check('offset_sign_turns_minus_8_to_8', agrees(s, 8) && s.last.scoreAtMinusOffset === before, `${s.last.params.offset}`);
  /* the slider reaches the negative end, and a number past it is not taken */
  await page.locator('#offset').fill('-200000');
  s = await state();
  check('offset_slider_reaches_minus_200000', agrees(s, -200000), `${s.last.params.offset}`);
  await page.locator('#offset-num').fill('-200001');
  s = await state();
  check('offset_box_refuses_past_range', s.last.params.offset === -200000, `${s.last.params.offset}`);
  check('negative_offset_no_errors', problems.length === 0, problems.join('; '));
  await page.close();
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  /* Chromium's sandbox refuses to start as root (CI containers). */
  args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
});
try {
  await tourChecks(browser);
  await explorerChecks(browser);
  await flipCountChecks(browser);
  await clockChecks(browser);
  await logAxisChecks(browser);
  await termsChecks(browser);
  await shiftChecks(browser);
  await headDimTwoChecks(browser);
  await negativeOffsetChecks(browser);
  await settableNegativeOffsetChecks(browser);
} catch (e) {
  check('browser_run_completed', false, e.stack || String(e));
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed (screenshots in ${OUT})`);
process.exit(failed === 0 ? 0 : 1);

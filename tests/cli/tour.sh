# tour.sh — tests of `posenc tour`, sourced by tests/cli/run.sh (uses its
# POSENC, TMP, expect, ok and bad). The tour's claims are predicates over
# numbers computed now: these tests check the numbers, the page, and that
# every predicate can fail (POSENC_TOUR_FAULT, a test-only hook, replaces
# one input of one claim) and is then reported as failed.

expect tour_golden 0 'PE\(7\) = \(0\.65699, 0\.75390, 0\.06994, 0\.99755\)' -- tour --no-figures --no-experiment
expect tour_remark 0 '0\.0698; sin\(0\.07\) = 0\.069942847 rounds to 0\.0699' -- tour --no-figures --no-experiment
expect tour_relativity 0 'largest difference [0-9.]+e-1[0-9]\)' -- tour --no-figures --no-experiment
expect tour_direction 0 'RoPE score\(\+7\) - score\(-7\) = [0-9.]+; sinusoidal .*: -?[0-9.e-]+$' -- tour --no-figures --no-experiment
expect tour_flip 0 'phase at k = 32000: 3\.2000 rad = 183\.35°' -- tour --no-figures --no-experiment
expect tour_learned 0 'position 512 -> refused' -- tour --no-figures --no-experiment
# a learned table's similarity structure: none at the random start, neighbours alike only in the rows trained.
# Trained rows are PE(m) to a residual 0.8^50 = 1.4e-5 of the start, so their mean cosines are the sinusoidal
# codes' (1/8) sum_i cos(k w_i), w_i = 10^(-i/2), i = 0..7: 0.935646 at k = 1, 0.435921 at k = 100 (numpy)
expect tour_learned_similarity 0 'mean cosine of rows \(m, m\+1\) / \(m, m\+100\): start -0\.0107 / 0\.0086, trained 0\.9356 / 0\.4359; rows 256\.\.511: -0\.0023' -- tour --no-figures --no-experiment
# ... and the trained rows' whole cosine map (the figure's right panel) is the codes' own, PE(m).PE(n)/8, to the
# start's residual (~1e-6): the heat map shows the claim's structure, not a look-alike
expect tour_learned_similarity_map 0 'largest \|cosine - the codes. cosine\| over rows 0\.\.255: [0-9.]+e-0[6-9]$' -- tour --no-figures --no-experiment
expect tour_learned_similarity_figure 0 'learned-similarity\.png' -- tour --no-experiment --out "$TMP/tour_ls"
# the toy drift's sentence follows the sign of its slope (positive here)
expect tour_drift_sign 0 'slope \(Q e_m\)ᵀK1 = \+0\.1094 is positive, so later keys .*the last keys win' -- tour --no-figures --no-experiment
# near-collisions: the closest offsets are inside their ranges, not at an edge
expect tour_collisions 0 'D = 8: closest k = 69115 at 0\.0386 \(k = 1 at 0\.9641; 2π·11·1000 = 69115\.038\)' -- tour --no-figures --no-experiment
# locality is said of octave averages, checked over every offset up to 65535
expect tour_locality 0 'octave averages for j = 0\.\.15: 30\.92 26\.95 .* rises on 989 of the steps' -- tour --no-figures --no-experiment
# the notes' own slips are said where they happen
expect tour_note_dim127 0 'dim 127 in \[0\.99999999991[0-9], 1\]' -- tour --no-figures --no-experiment
expect tour_note_90deg 0 'it is negative already past 90°' -- tour --no-figures --no-experiment
expect tour_causal 0 '0 without a mask .*; 0\.870 with a causal mask' -- tour --no-figures --no-experiment
expect tour_all_hold 0 '^27 claims checked\.$' -- tour --no-figures --no-experiment

expect tour_html 0 'claims checked; open .*/index\.html' -- tour --no-experiment --out "$TMP/tour"
# a page that cannot be written says why, naming the file
mkdir -p "$TMP/tour_blocked/index.html/x"
expect tour_html_unwritable 1 'posenc tour: error: cannot create .*/tour_blocked/index\.html: Is a directory' -- tour --no-experiment --out "$TMP/tour_blocked"
# the page references only files that exist, holds every claim with a
# figure, its sections in the notes' order with MathML formulas, no script
missing=""
for img in $(grep -o 'src="[^"]*"' "$TMP/tour/index.html" | sed 's/src="//; s/"$//'); do
    [ -s "$TMP/tour/$img" ] || missing="$missing $img"
done
nclaims=$("$POSENC" tour --no-figures --no-experiment | grep -c '^\[[0-9]*\] ')
nhtml=$(grep -c 'class="claim ok"' "$TMP/tour/index.html")
nimg=$(grep -c '<img src=' "$TMP/tour/index.html")
# seven claims carry no figure: toy-regimes, sine-alone, layout, gap34, every-layer, ntk, compare (a table)
nbare=$(grep -cE 'data-key="(toy-regimes|sine-alone|layout|gap34|every-layer|ntk|compare)"' "$TMP/tour/index.html")
order=$(grep -o '<section id="[a-z]*"' "$TMP/tour/index.html" | sed 's/.*id="//; s/"//' | tr '\n' ' ')
nmath=$(grep -c '<math display="block">' "$TMP/tour/index.html")
if [ -z "$missing" ] && [ "$nclaims" -eq 27 ] && [ "$nclaims" -eq "$nhtml" ] && [ "$nbare" -eq 7 ] && [ "$nimg" -eq $((nclaims - 7)) ] &&
   [ "$order" = "bag raw normalized binary sinusoidal learned rope scaling compare " ] && [ "$nmath" -eq 9 ] &&
   grep -q '<td>binary</td><td>1.41 ✓</td><td>0 ✓</td><td>3.16 ✗</td>' "$TMP/tour/index.html" &&
   ! grep -q '<script' "$TMP/tour/index.html" && grep -q '>27 claims checked\.<' "$TMP/tour/index.html"; then
    ok tour_html_complete
else
    bad tour_html_complete "missing:$missing; claims $nclaims, ok in html $nhtml, images $nimg, math $nmath, order $order"
fi
# claim numbers stand apart from their text (no "[10]The")
if grep -q '<span class="n">10</span><span class="verdict">✓ holds</span><span>' "$TMP/tour/index.html" &&
   ! grep -q 'class="n">\[' "$TMP/tour/index.html"; then ok tour_html_numbers; else bad tour_html_numbers "run-in numbering"; fi
# the explorer link appears only when the explorer is there
if ! grep -q 'explorer/index.html' "$TMP/tour/index.html"; then ok tour_no_explorer_link; else
    bad tour_no_explorer_link "link to a missing explorer"; fi
mkdir -p "$TMP/tourx/explorer" && echo '<!doctype html>' >"$TMP/tourx/explorer/index.html"
"$POSENC" tour --no-experiment --out "$TMP/tourx" >/dev/null 2>&1
if grep -q 'href="explorer/index.html">Explore interactively' "$TMP/tourx/index.html"; then ok tour_explorer_link; else
    bad tour_explorer_link "no link to explorer/index.html"; fi
expect tour_bad_out 1 'cannot create' -- tour --no-experiment --out /nonexistent/dir/tour

# Every claim's predicate can fail under a perturbation of its INPUTS (not
# of its computed numbers): one input of the experiment the sentence is
# about is changed (a causal mask, a base, a shift, the number of table rows,
# YaRN's magnitude on a rotation, ...), the library recomputes, and the claim
# must turn into "FAILED", exit 3 (a verdict, not an error), and be left out of the count.
# key:index=value per claim; a claim may appear more than once.
faults="bag:0=1 toy-terms:0=0 toy-drift:0=0 normalized:1=3 binary:0=1 pe7:1=100 base:2=1e4 shift:0=16
entangle:0=0 symmetry:1=8 learned:0=513 learned:1=300 rotation:0=1.23 relativity:2=6 direction:1=7 locality:0=10
flip:1=16000 aliasing:1=40 collisions:1=20000 scaling:2=8192 scaling:0=1 sine-alone:0=0 layout:0=1 layout:1=0
gap34:0=3400 ntk:0=4 toy-regimes:0=0 compare:1=10 every-layer:0=0 learned-similarity:0=0 learned-similarity:1=0
learned-similarity:0=5"
for f in $faults; do
    key=${f%%:*}
    out=$(POSENC_TOUR_FAULT="$f" "$POSENC" tour --no-figures --no-experiment 2>&1)
    rc=$?
    if [ "$rc" -eq 3 ] && grep -q '^\[[0-9]*\] FAILED: ' <<<"$out" && grep -q '^26 of 27 claims hold, 1 FAILED\.$' <<<"$out" &&
       grep -q "1 claim FAILED: \[[0-9]*\] $key\$" <<<"$out"; then
        ok "tour_fault_$f"
    else
        bad "tour_fault_$f" "exit $rc; $(grep -E 'FAILED|checked|error' <<<"$out" | head -3)"
    fi
done
# ... and the page marks it, with the count of the claims that held
POSENC_TOUR_FAULT=relativity:2=6 "$POSENC" tour --no-experiment --out "$TMP/tourf" >"$TMP/tourf.out" 2>&1
rc=$?
if [ "$rc" -eq 3 ] && [ "$(grep -c 'class="claim failed"' "$TMP/tourf/index.html")" -eq 1 ] &&
   grep -q 'data-key="relativity"' "$TMP/tourf/index.html" &&
   grep -q '26 of 27 claims hold; 1 FAILED' "$TMP/tourf/index.html" &&
   grep -q 'do NOT score the same for m = 0, 1000 and 10\^6' "$TMP/tourf/index.html"; then
    ok tour_fault_page
else
    bad tour_fault_page "exit $rc; $(grep -c 'claim failed' "$TMP/tourf/index.html" 2>/dev/null) failed claims on the page"
fi
POSENC_TOUR_FAULT=nonsense expect tour_fault_malformed 2 "POSENC_TOUR_FAULT='nonsense' is not KEY:INDEX=VALUE" -- tour --no-figures --no-experiment

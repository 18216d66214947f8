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
# the toy drift's sentence follows the sign of its slope (positive here)
expect tour_drift_sign 0 'slope \(Q e_m\)ᵀK1 = \+0\.1094 is positive, so later keys .*the last keys win' -- tour --no-figures --no-experiment
# near-collisions: the closest offsets are inside their ranges, not at an edge
expect tour_collisions 0 'D = 8: closest k in \[2, 10\^5\] is 69115 at 0\.0386' -- tour --no-figures --no-experiment
expect tour_all_hold 0 '^19 claims checked\.$' -- tour --no-figures --no-experiment

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
order=$(grep -o '<section id="[a-z]*"' "$TMP/tour/index.html" | sed 's/.*id="//; s/"//' | tr '\n' ' ')
nmath=$(grep -c '<math display="block">' "$TMP/tour/index.html")
if [ -z "$missing" ] && [ "$nclaims" -eq 19 ] && [ "$nclaims" -eq "$nhtml" ] && [ "$nimg" -eq "$nclaims" ] &&
   [ "$order" = "bag raw normalized binary sinusoidal learned rope scaling " ] && [ "$nmath" -eq 8 ] &&
   ! grep -q '<script' "$TMP/tour/index.html" && grep -q '>19 claims checked\.<' "$TMP/tour/index.html"; then
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

# Every claim's predicate can fail: one input changed so the claim no longer
# holds must turn into "FAILED", exit 1, and be left out of the count.
# key:index=value per claim.
faults="bag:0=1 toy-terms:3=0 toy-drift:0=0 normalized:1=1 binary:0=1 pe7:2=0.0698 base:0=63 shift:0=1e-3
entangle:4=-3.176 symmetry:1=0 learned:1=0 rotation:1=5 relativity:2=0.5 direction:3=0 locality:3=40 flip:0=3
aliasing:1=0.5 collisions:1=2 scaling:6=0"
for f in $faults; do
    key=${f%%:*}
    out=$(POSENC_TOUR_FAULT="$f" "$POSENC" tour --no-figures --no-experiment 2>&1)
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q '^\[[0-9]*\] FAILED: ' <<<"$out" && grep -q '^18 claims checked, some FAILED\.$' <<<"$out" &&
       grep -q "1 claim FAILED: \[[0-9]*\] $key\$" <<<"$out"; then
        ok "tour_fault_$key"
    else
        bad "tour_fault_$key" "exit $rc; $(grep -E 'FAILED|checked|error' <<<"$out" | head -3)"
    fi
done
# ... and the page marks it, with the count of the claims that held
POSENC_TOUR_FAULT=relativity:2=0.5 "$POSENC" tour --no-experiment --out "$TMP/tourf" >"$TMP/tourf.out" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && [ "$(grep -c 'class="claim failed"' "$TMP/tourf/index.html")" -eq 1 ] &&
   grep -q 'data-key="relativity"' "$TMP/tourf/index.html" &&
   grep -q '18 claims checked; 1 FAILED' "$TMP/tourf/index.html" &&
   grep -q 'do NOT score the same for m = 0, 1000 and 10\^6' "$TMP/tourf/index.html"; then
    ok tour_fault_page
else
    bad tour_fault_page "exit $rc; $(grep -c 'claim failed' "$TMP/tourf/index.html" 2>/dev/null) failed claims on the page"
fi
POSENC_TOUR_FAULT=nonsense expect tour_fault_malformed 2 "POSENC_TOUR_FAULT='nonsense' is not KEY:INDEX=VALUE" -- tour --no-figures --no-experiment

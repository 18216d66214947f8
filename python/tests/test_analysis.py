"""The analyses of the design notes through the binding, against numpy float64."""
import numpy as np
import pytest

import posenc
import reference as ref


def test_logit_terms_sum_to_the_logit(rng):
    d = 6
    Q, K = rng.standard_normal((d, d)), rng.standard_normal((d, d))
    em, en, pm, pn = (rng.standard_normal(d) for _ in range(4))
    t = posenc.logit_terms(Q, K, em, en, pm, pn)
    assert t["content_content"] == pytest.approx((Q @ em) @ (K @ en), rel=1e-13)
    assert t["position_content"] == pytest.approx((Q @ pm) @ (K @ en), rel=1e-13)
    want = (Q @ (em + pm)) @ (K @ (en + pn))
    parts = t["content_content"] + t["content_position"] + t["position_content"] + t["position_position"]
    assert t["logit"] == pytest.approx(want, rel=1e-12) and parts == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match=r"K has shape \(6, 5\), want \(6, 6\)"):
        posenc.logit_terms(Q, K[:, :5], em, en, pm, pn)


def test_toy_regimes(rng):
    d = 4
    ones = np.ones(d)
    # K 1 = 0 and Q 1 != 0: regime iii
    K = rng.standard_normal((d, d))
    K -= np.outer(K @ ones, ones) / d
    Q = rng.standard_normal((d, d))
    keys = rng.standard_normal((5, d))
    r = posenc.toy_analyze(Q, K, rng.standard_normal(d), 3, keys, np.arange(5))
    assert r["regime"] == "query_scale" and r["regime_number"] == 3
    assert r["k_ones_norm"] < 1e-9 < r["q_ones_norm"]


def test_normalized_and_binary():
    vals, sp = posenc.normalized_inconsistency(1, [2, 3, 10, 100])
    np.testing.assert_allclose(vals, [1, 0.5, 1 / 9, 1 / 99], rtol=1e-15)
    np.testing.assert_allclose(sp, [1, 0.5, 1 / 9, 1 / 99], rtol=1e-15)
    dist, rep = posenc.binary_hamming(0, 128)
    want = [bin(p ^ (p + 1)).count("1") for p in range(128)]
    assert dist.tolist() == want
    assert rep["max_distance"] == 8 and rep["argmax"] == 127 and rep["min_distance"] == 1
    assert rep["jumps"] == sum(w > 1 for w in want)


def test_pair_periods_and_flip():
    f = posenc.freqs_from_scaling("explicit", 2, divisors=[10000.0])  # w = 1e-4
    p = posenc.pair_periods(f, 32000)
    assert p["wavelength"][0] == pytest.approx(2 * np.pi * 1e4, rel=1e-15)
    assert p["flip"][0] == pytest.approx(np.pi * 1e4, rel=1e-15)
    assert p["phase"][0] == pytest.approx(3.2, rel=1e-13)  # past pi: the pair has flipped
    assert p["turns"][0] == pytest.approx(3.2 / (2 * np.pi), rel=1e-13)


def test_near_collisions_are_the_closest_offsets():
    f = posenc.freqs_default(8)
    offs, dist = posenc.near_collisions(f, 500, top=3)
    om = f.inv_freq
    k = np.arange(100, 501)  # the default min_offset skips the trivial neighbours
    d = np.sqrt((2 - 2 * np.cos(np.outer(k, om))).sum(axis=1))
    order = np.argsort(d, kind="stable")[:3]
    assert offs.tolist() == (k[order]).tolist()
    np.testing.assert_allclose(dist, d[order], rtol=1e-12)


def test_near_collisions_default_matches_the_cli(posenc_cli):
    import json
    import subprocess

    f = posenc.freqs_default(8)
    offs, dist = posenc.near_collisions(f, 500, top=3)
    out = subprocess.run([str(posenc_cli), "analyze", "collisions", "--head-dim", "8", "--max-offset", "500",
                          "--top", "3", "--format", "json"], check=True, capture_output=True, text=True).stdout
    cli = json.loads(out)
    assert cli["min_offset"] == 100
    assert offs.tolist() == cli["offsets"]
    np.testing.assert_allclose(dist, cli["distances"], rtol=1e-15)
    # An explicit min_offset=1 still searches the near neighbourhood.
    assert posenc.near_collisions(f, 500, min_offset=1, top=1)[0][0] < 100


def test_score_curve_relativity_and_similarity(rng):
    f = posenc.freqs_default(16)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    offs = np.arange(-20, 21)
    om = f.inv_freq
    for layout in ("interleaved", "half"):
        s0 = posenc.rope_score_curve(f, q, k, offs, layout=layout)
        s1 = posenc.rope_score_curve(f, q, k, offs, m=1000, layout=layout)
        np.testing.assert_allclose(s0, s1, atol=1e-11)  # depends on the offset only
        want = [ref.rope(q[None], om, [0], layout)[0] @ ref.rope(k[None], om, [o], layout)[0] for o in offs]
        np.testing.assert_allclose(s0, want, atol=1e-12)
    assert abs(s0[30] - s0[10]) > 1e-3  # score(+10) != score(-10): direction-aware
    sim = posenc.similarity_rope(f, q, k, range(5))
    want = np.array([[ref.rope(q[None], om, [i], "half")[0] @ ref.rope(k[None], om, [j], "half")[0]
                      for j in range(5)] for i in range(5)])
    np.testing.assert_allclose(sim, want, atol=1e-12)
    sa = posenc.similarity_additive("sinusoidal", range(10), 32)
    pe = ref.sinusoidal(np.arange(10), 32)
    np.testing.assert_allclose(sa, pe @ pe.T, atol=1e-12)
    np.testing.assert_allclose(sa, sa.T, atol=1e-12)  # symmetric: direction-agnostic


def test_permutation_gap_against_numpy(rng):
    y = rng.standard_normal((7, 5)).astype(np.float32)
    perm = np.array([3, 0, 6, 1, 5, 2, 4])
    y_perm = y[perm].copy()
    assert posenc.permutation_gap(y, y_perm, perm) == 0.0
    y_perm[2, 3] += np.float32(0.75)
    want = np.max(np.abs(y_perm.astype(np.float64) - y[perm].astype(np.float64)))
    assert posenc.permutation_gap(y, y_perm, perm) == want
    with pytest.raises(ValueError, match=r"perm\[0\]=7 outside \[0, rows=7\)"):
        posenc.permutation_gap(y, y_perm, np.array([7, 0, 1, 2, 3, 4, 5]))


def test_zero_row_sums_and_softmax_against_numpy(rng):
    m = rng.uniform(-3, 5, (4, 9))
    z = posenc.zero_row_sums(m)
    np.testing.assert_allclose(z, m - m.mean(axis=1, keepdims=True), rtol=0, atol=1e-14)
    np.testing.assert_allclose(z.sum(axis=1), 0, atol=1e-13)
    x = rng.uniform(-20, 20, 30)
    e = np.exp(x - x.max())
    np.testing.assert_allclose(posenc.softmax(x), e / e.sum(), rtol=1e-14, atol=0)
    np.testing.assert_array_equal(posenc.softmax([0.0, -np.inf, 0.0]), [0.5, 0.0, 0.5])
    with pytest.raises(ValueError, match="must be a number below"):
        posenc.softmax([0.0, np.nan])

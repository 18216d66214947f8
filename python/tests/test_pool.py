"""posenc.Pool: worker threads kept between calls, passed as threads= to every rotating call.
The same bits as threads started per call and as one thread (the C scheduler's chunks do not
depend on who runs them); one pool shared by two Python threads at once; refusals."""
import threading

import numpy as np
import pytest

import posenc

T, H, D = 2048, 8, 64  # several MiB: the scheduler really splits the work


def every_rotating_call(x, k, f, g, threads):
    pos = (np.arange(T) * 7919) % 100003
    out = []
    out.append(posenc.rope_apply(x, f, positions=pos, threads=threads))
    out.extend(posenc.rope_apply_qk(x, k, f, start=5, direction="inverse", threads=threads))
    out.extend(posenc.rope_cos_sin(f, positions=pos, dtype="float64", threads=threads))
    out.append(posenc.rope_shift(k, f, np.arange(T) - 1000, threads=threads))
    out.append(posenc.rope_rebase(k, f, g, positions=pos, threads=threads))
    c, s = posenc.rope_cos_sin(f, T, dtype="float32")
    out.append(posenc.rope_apply_table(x, c, s, threads=threads))
    out.extend(posenc.rope_apply_table_qk(x, k, c, s, threads=threads))
    out.append(posenc.rope_apply_varlen(x, f, [0, 1000, T], seq_starts=[7, 2**30], threads=threads))
    p3 = np.stack([np.arange(T) // 64, (np.arange(T) // 8) % 8, np.arange(T) % 8], 1)
    out.append(posenc.mrope_apply(x, f, p3, [16, 8, 8], threads=threads))
    out.extend(posenc.mrope_apply_qk(x, k, f, p3, [16, 8, 8], threads=threads))
    return out


@pytest.fixture
def inputs(rng):
    x = rng.uniform(-1, 1, (T, H, D)).astype(np.float32)
    k = rng.uniform(-1, 1, (T, 2, D)).astype(np.float32)
    f = posenc.freqs_default(D, 10000.0)
    g = posenc.freqs_from_scaling("yarn", D, base=10000.0, factor=4.0, original_max_position=1024)
    return x, k, f, g


def test_pool_gives_the_same_bits(inputs):
    ref = every_rotating_call(*inputs, threads=1)
    started = every_rotating_call(*inputs, threads=3)
    pool = posenc.Pool(3)
    assert pool.threads == 3 and repr(pool) == "posenc.Pool(threads=3)"
    for _ in range(3):  # one pool, many calls
        got = every_rotating_call(*inputs, threads=pool)
        assert len(got) == len(ref) and all(np.array_equal(a, b) for a, b in zip(got, ref))
    assert all(np.array_equal(a, b) for a, b in zip(started, ref))


def test_fused_qkv_on_a_pool(rng):
    qkv = rng.uniform(-1, 1, (T, 4 + 2 * 2, D)).astype(np.float32)
    f = posenc.freqs_default(D, 10000.0)
    want = [np.zeros((T, 2, D), np.float16) for _ in range(2)]
    q1 = posenc.rope_fused_qkv(qkv.copy(), f, 4, 2, k_cache=want[0], v_cache=want[1], start=3)
    got = [np.zeros((T, 2, D), np.float16) for _ in range(2)]
    q2 = posenc.rope_fused_qkv(qkv.copy(), f, 4, 2, k_cache=got[0], v_cache=got[1], start=3,
                               threads=posenc.Pool(2))
    assert np.array_equal(q1, q2) and np.array_equal(want[0], got[0]) and np.array_equal(want[1], got[1])


def test_one_pool_shared_by_two_python_threads(inputs):
    ref = every_rotating_call(*inputs, threads=1)
    pool = posenc.Pool(2)
    results, errors = [None, None], []

    def run(i):
        try:
            results[i] = [every_rotating_call(*inputs, threads=pool) for _ in range(2)]
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    for r in results:
        for got in r:
            assert all(np.array_equal(a, b) for a, b in zip(got, ref))


def test_pool_refusals(inputs):
    x, k, f, g = inputs
    with pytest.raises(posenc.Error, match=r"pool threads=0 must be in \[1, 64\]"):
        posenc.Pool(0)
    with pytest.raises(posenc.Error, match=r"pool threads=65"):
        posenc.Pool(65)
    with pytest.raises(TypeError, match="threads must be an int or a posenc.Pool"):
        posenc.rope_apply(x, f, threads="2")
    with pytest.raises(posenc.Error, match=r"threads=0 must be in \[1, 1024\]"):
        posenc.rope_apply(x, f, threads=0)

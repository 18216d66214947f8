"""Independent float64 references (numpy only) that the binding is tested against.

Each function restates a formula of SPEC.md directly, with no call into posenc, so a
test compares two implementations that share nothing but the specification.
"""
import math

import numpy as np


# 2 pi to the precision of longdouble (np.pi alone is a double: 2.4e-16 off, which
# would cost 7e-8 rad after the 3e8 turns of p = 2^31).
TWO_PI = 2 * np.longdouble("3.141592653589793238462643383279502884197")


def pairs(x, d, layout):
    """Index arrays (a, b) of the d/2 rotated pairs of a head in a layout."""
    if layout == "interleaved":
        return np.arange(0, d, 2), np.arange(1, d, 2)
    return np.arange(d // 2), np.arange(d // 2, d)


def rope(x, omega, positions, layout, attention_factor=1.0, direction="forward"):
    """Rotate the last axis of x (tokens, ..., D) at positions, in float64.

    omega: the d/2 angular frequencies (float64 or longdouble). The angle p * omega is
    formed in longdouble and reduced modulo 2 pi there, so the reference stays exact to
    ~1e-10 rad even at |p| ~ 2^31 (float64 alone would lose 2e-7 rad there).
    """
    x = np.asarray(x, dtype=np.float64)
    d = 2 * len(omega)
    a_idx, b_idx = pairs(x, d, layout)
    p = np.asarray(positions, dtype=np.longdouble).reshape((-1,) + (1,) * (x.ndim - 1))
    theta = p * np.asarray(omega, dtype=np.longdouble)
    theta = np.fmod(theta, TWO_PI)
    sign = 1.0 if direction == "forward" else -1.0
    mag = attention_factor if direction != "inverse" else 1.0 / attention_factor
    c = np.cos(theta).astype(np.float64)
    s = sign * np.sin(theta).astype(np.float64)
    a, b = x[..., a_idx], x[..., b_idx]
    out = x.copy()
    out[..., a_idx] = mag * (a * c - b * s)
    out[..., b_idx] = mag * (a * s + b * c)
    return out


def rope_tolerance(x, ref, omega, layout, attention_factor=1.0):
    """The documented bound of a float32 rotation (include/posenc.h, vector kernels; the
    scalar kernels' half an ulp lies inside it): for output x' of input x whose pair
    partner is y, |err| <= 2^-24 (|x'| + A(|x| + 2|y|)) + 1e-11 A(|x| + |y|), with A the
    magnitude applied (A, or 1/A inverse: the larger is used). Elements past rotary_dim
    must be exact copies (tolerance 0)."""
    x = np.asarray(x, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    d = 2 * len(omega)
    a_idx, b_idx = pairs(x, d, layout)
    tol = np.zeros_like(ref)
    A = max(attention_factor, 1.0 / attention_factor)
    xa, xb = np.abs(x[..., a_idx]), np.abs(x[..., b_idx])
    angle = 1e-11 * A * (xa + xb)
    # 1.0001: the bound itself is computed in float64
    tol[..., a_idx] = 1.0001 * (2.0**-24 * (np.abs(ref[..., a_idx]) + A * (xa + 2 * xb)) + angle) + 1e-14
    tol[..., b_idx] = 1.0001 * (2.0**-24 * (np.abs(ref[..., b_idx]) + A * (xb + 2 * xa)) + angle) + 1e-14
    return tol


def default_omega(d, base=10000.0):
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def sinusoidal(positions, dim, base=10000.0, layout="interleaved", convention="paper"):
    i = np.arange(dim // 2, dtype=np.float64)
    expo = 2 * i / dim if convention == "paper" else i / (dim / 2 - 1)
    omega = base ** (-expo)
    ang = np.outer(np.asarray(positions, dtype=np.float64), omega)
    out = np.empty((len(ang), dim))
    if layout == "interleaved":
        out[:, 0::2], out[:, 1::2] = np.sin(ang), np.cos(ang)
    else:
        out[:, : dim // 2], out[:, dim // 2 :] = np.sin(ang), np.cos(ang)
    return out


def binary(positions, length, dim):
    nbits = max(1, math.ceil(math.log2(length))) if length > 1 else 1
    out = np.zeros((len(positions), dim))
    for r, p in enumerate(positions):
        bits = [(p >> (nbits - 1 - j)) & 1 for j in range(nbits)]
        out[r, dim - nbits :] = bits
    return out


def alibi_slopes(n):
    """Press et al.'s get_slopes, as published."""

    def power_of_2(k):
        start = 2 ** (-(2 ** -(math.log2(k) - 3)))
        return [start * start**i for i in range(k)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    c = 2 ** math.floor(math.log2(n))
    return power_of_2(c) + power_of_2(2 * c)[0::2][: n - c]


def t5_bucket(r, bidirectional=True, num_buckets=32, max_distance=128):
    """HF T5Attention._relative_position_bucket, with the logarithm decided exactly:
    n lies in bucket e + k when e * (max_distance/e)^(k/(nb-e)) <= n, i.e. when
    n^(nb-e) * e^k >= e^(nb-e) * max_distance^k, compared in integers."""
    offset = 0
    nb = num_buckets
    if bidirectional:
        nb //= 2
        offset = nb if r > 0 else 0
        n = abs(r)
    else:
        n = max(-r, 0)
    e = nb // 2
    if n < e:
        return offset + n
    span = nb - e
    k = 0
    while k + 1 < span and n**span * e ** (k + 1) >= e**span * max_distance ** (k + 1):
        k += 1
    return offset + min(nb - 1, e + k)


def attention(q, k, v, bias=None, causal=False, scale=None):
    q, k, v = (np.asarray(t, dtype=np.float64) for t in (q, k, v))
    scale = 1.0 / math.sqrt(q.shape[1]) if scale is None else scale
    logits = scale * q @ k.T
    if bias is not None:
        logits = logits + bias
    if causal:
        nq, nk = logits.shape
        i = np.arange(nq)[:, None] + (nk - nq)
        logits = np.where(np.arange(nk)[None, :] <= i, logits, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    w = np.exp(logits)
    return (w / w.sum(axis=1, keepdims=True)) @ v


def hf_permute(w, n_heads):
    """convert_llama_weights_to_hf.py's permute: Meta (interleaved) rows -> HF (half)."""
    dim1 = w.shape[0]
    rest = w.shape[1:]
    return (
        w.reshape((n_heads, dim1 // n_heads // 2, 2) + rest)
        .swapaxes(1, 2)
        .reshape((dim1,) + rest)
    )


def bf16_to_f32(u16):
    return (np.asarray(u16, dtype=np.uint32) << 16).view(np.float32)


def f32_to_bf16(x):
    """Round float32 to bfloat16 (nearest even), as uint16."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def exact_cos_sin(positions, hi, lo):
    """cos and sin of p * (hi + lo) to ~1e-40 with Python decimals: the angle is formed
    exactly (doubles are exact rationals), reduced with a 60-digit pi, and expanded in
    Taylor series. Slow, for a few dozen values; used where longdouble (1e-19 relative,
    1e-13 absolute at p = 1e6) is not exact enough."""
    import decimal
    from fractions import Fraction

    ctx = decimal.Context(prec=60)
    pi = decimal.Decimal("3.14159265358979323846264338327950288419716939937510582097494459")
    two_pi = 2 * pi

    def to_dec(fr):
        return ctx.divide(decimal.Decimal(fr.numerator), decimal.Decimal(fr.denominator))

    def series(x, start):
        term, total, k = decimal.Decimal(1) if start == 0 else x, decimal.Decimal(0), start
        while True:
            total = ctx.add(total, term)
            term = ctx.divide(ctx.multiply(-term, ctx.multiply(x, x)), (k + 1) * (k + 2))
            k += 2
            if abs(term) < decimal.Decimal("1e-50"):
                return float(total)

    c = np.empty((len(positions), len(hi)))
    s = np.empty_like(c)
    for t, p in enumerate(positions):
        for i in range(len(hi)):
            angle = to_dec(Fraction(int(p)) * (Fraction(float(hi[i])) + Fraction(float(lo[i]))))
            r = ctx.remainder_near(angle, two_pi)
            c[t, i], s[t, i] = series(r, 0), series(r, 1)
    return c, s

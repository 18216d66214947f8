"""Part 3 of the derivation notebook, through posenc: one vector rotated by RoPE at
positions 0, 5, 10, 20 and 50, seen in a fast (dims 0-1), a medium (30-31) and a slow
(62-63) pair, and the relative-position property q_m . k_n = f(q, k, m - n). The
notebook pairs (x[2i], x[2i+1]): the interleaved layout.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/rope_rotation_figure.py --out rope.png
"""
import argparse

import numpy as np

import posenc
from atomic_save import savefig_atomic


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="save the figure here instead of showing it")
    args = ap.parse_args()
    import matplotlib

    if args.out:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # relativity: the same offset m - n = 2 gives the same score at any m
    f4 = posenc.freqs_default(4)
    q = np.array([[1.0, 0.5, -0.3, 0.8]], dtype=np.float32)
    k = np.array([[0.2, -0.1, 0.7, 0.4]], dtype=np.float32)
    scores = []
    for m, n in [(5, 3), (10, 8), (50, 48)]:
        qm = posenc.rope_apply(q, f4, layout="interleaved", start=m)
        kn = posenc.rope_apply(k, f4, layout="interleaved", start=n)
        scores.append(float(qm[0] @ kn[0]))
        print(f"  q@{m}, k@{n}: {scores[-1]:.6f}")
    print(f"All equal: {np.allclose(scores, scores[0])}")

    d_head = 64
    f = posenc.freqs_default(d_head)
    v = np.ones((1, d_head), dtype=np.float32) / np.sqrt(d_head)
    positions = [0, 5, 10, 20, 50]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for ax, (a, b), speed in zip(axes, [(0, 1), (30, 31), (62, 63)], ["Fast", "Medium", "Slow"]):
        for pos in positions:
            v_rot = posenc.rope_apply(v, f, layout="interleaved", start=pos)
            ax.scatter(v_rot[0, a], v_rot[0, b], s=100, label=f"pos={pos}")
        ax.set(xlabel=f"Dim {a}", ylabel=f"Dim {b}", title=f"{speed} rotation (dims {a}-{b})")
        ax.legend()
        ax.axis("equal")
    fig.tight_layout()
    if args.out:
        savefig_atomic(fig, args.out, dpi=100)
        print(f"wrote {args.out}")
    else:
        plt.show()


if __name__ == "__main__":
    main()

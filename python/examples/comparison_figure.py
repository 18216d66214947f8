"""Part 4 of the derivation notebook, through posenc: how similarity decays with
distance for the sinusoidal encoding (PE(pos) . PE(0)), a learned table at its random
initialisation (W[pos] . W[0]), and RoPE (the score q_m . k_0 of fixed q, k).

    PYTHONPATH=build/python /usr/bin/python3 python/examples/comparison_figure.py --out cmp.png
"""
import argparse

import numpy as np

import posenc
from atomic_save import savefig_atomic


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="save the figure here instead of showing it")
    ap.add_argument("--seed", type=int, default=42, help="learned table and q, k vectors")
    args = ap.parse_args()
    import matplotlib

    if args.out:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    T, d = 100, 64
    sim_sin = posenc.similarity_additive("sinusoidal", range(T), d)[:, 0]
    table = posenc.LearnedTable(T, d, seed=args.seed)  # N(0, 0.02^2), as the notebook
    W = table.weights.astype(np.float64)
    sim_learn = W @ W[0]
    rng = np.random.default_rng(args.seed)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    # q rotated to position m, k at 0: the score as a function of m - 0
    scores = posenc.rope_score_curve(posenc.freqs_default(d), q, k, -np.arange(T), m=0,
                                     layout="interleaved")

    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for ax, y, title, xl, yl in [
        (axes[0], sim_sin, "Sinusoidal: PE(pos) · PE(0)", "Position", "Similarity to position 0"),
        (axes[1], sim_learn, "Learned (random init): PE(pos) · PE(0)", "Position", "Similarity to position 0"),
        (axes[2], scores, "RoPE: q_m · k_0 (fixed q, k vectors)", "Relative position (m - n)", "Attention score"),
    ]:
        ax.plot(y)
        ax.set(xlabel=xl, ylabel=yl, title=title)
        ax.axhline(y=0, color="gray", linestyle="--", alpha=0.5)
    fig.tight_layout()
    if args.out:
        savefig_atomic(fig, args.out, dpi=100)
        print(f"wrote {args.out}")
    else:
        plt.show()


if __name__ == "__main__":
    main()

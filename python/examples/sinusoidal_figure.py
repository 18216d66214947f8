"""Part 1 of the derivation notebook, through posenc: the sinusoidal encoding as a
heatmap, a few of its dimensions, the wavelength of each pair, and the dot-product
similarity PE(i) . PE(j). Also checks the notebook's relative-position property
PE(pos + k) = M_k PE(pos) with posenc.shift_matrix.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/sinusoidal_figure.py --out sin.png
"""
import argparse

import numpy as np

import posenc
from atomic_save import savefig_atomic


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="save the figure here (PNG, SVG, PDF) instead of showing it")
    args = ap.parse_args()
    import matplotlib

    if args.out:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    T, d = 100, 64
    PE = posenc.encode("sinusoidal", range(T), d, dtype="float64")  # (T, d), interleaved sin/cos
    print(f"Positional encoding shape: {PE.shape}")
    print("First few positions, first 8 dims:")
    print(np.array2string(PE[:5, :8], precision=4, suppress_small=True))

    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    im = axes[0, 0].imshow(PE.T, aspect="auto", cmap="RdBu", vmin=-1, vmax=1)
    axes[0, 0].set(xlabel="Position", ylabel="Dimension", title="Sinusoidal Positional Encoding")
    plt.colorbar(im, ax=axes[0, 0])

    for dim in [0, 1, 10, 11, 30, 31]:
        axes[0, 1].plot(np.arange(T), PE[:, dim], label=f"dim {dim}", alpha=0.7)
    axes[0, 1].set(xlabel="Position", ylabel="Value", title="Individual Dimensions (different frequencies)")
    axes[0, 1].legend(fontsize=8)
    axes[0, 1].set_xlim(0, 50)

    # wavelength 2 pi / w_i of each pair, from the library's analysis
    freqs = posenc.Freqs([posenc.sinusoidal_frequency(d, i) for i in range(d // 2)])
    wavelengths = posenc.pair_periods(freqs)["wavelength"]
    axes[1, 0].semilogy(2 * np.arange(d // 2), wavelengths)
    axes[1, 0].axhline(y=2 * np.pi, color="r", linestyle="--", alpha=0.5, label="2π")
    axes[1, 0].set(xlabel="Dimension index", ylabel="Wavelength", title="Wavelength per dimension pair (log scale)")
    axes[1, 0].legend()

    dots = posenc.similarity_additive("sinusoidal", range(50), d)  # PE PE^T
    im = axes[1, 1].imshow(dots, cmap="RdBu")
    axes[1, 1].set(xlabel="Position j", ylabel="Position i", title="PE(i) · PE(j) - Position similarity")
    plt.colorbar(im, ax=axes[1, 1])
    fig.tight_layout()

    # the relative-position property, as the notebook verifies it
    pos, k, d2 = 10, 5, 32
    PE2 = posenc.encode("sinusoidal", range(50), d2, dtype="float64")
    M_k = posenc.shift_matrix(d2, k)
    print(f"PE(pos+k) directly:    {PE2[pos + k][:8]}")
    print(f"M_k @ PE(pos):         {(M_k @ PE2[pos])[:8]}")
    print(f"Max difference: {np.abs(PE2[pos + k] - M_k @ PE2[pos]).max():.2e}")

    if args.out:
        savefig_atomic(fig, args.out, dpi=100)
        print(f"wrote {args.out}")
    else:
        plt.show()


if __name__ == "__main__":
    main()

/*
 * python.c — extra lines for numpy and PyTorch RoPE, only when
 * /usr/bin/python3 exists and can import them (nothing is installed here).
 * The script applies half-split RoPE the way Hugging Face does (float32
 * angles, x * cos + rotate_half(x) * sin) to the same 4096 x 32 x 128 f32
 * shape and prints the median seconds per call and the max error against a
 * float64 evaluation; the ratio uses this run's in-place scale baseline.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PYTHON "/usr/bin/python3"

/* argv[1]: "numpy" or "torch"; argv[2]: repeats. Prints "<sec> <err>". */
static const char script[] =
    "import sys, time\n"
    "import numpy as np\n"
    "lib, reps = sys.argv[1], int(sys.argv[2])\n"
    "T, H, D = 4096, 32, 128\n"
    "rng = np.random.default_rng(0)\n"
    "x = rng.uniform(-1, 1, (T, H, D)).astype(np.float32)\n"
    "inv = (500000.0 ** (-np.arange(0, D, 2, dtype=np.float64) / D)).astype(np.float32)\n"
    "ang = np.arange(T, dtype=np.float32)[:, None] * inv[None, :]\n"
    "emb = np.concatenate([ang, ang], axis=-1)[:, None, :]\n"
    "if lib == 'torch':\n"
    "    import torch\n"
    "    torch.set_num_threads(1)\n"
    "    xt, c, s = torch.from_numpy(x), torch.from_numpy(np.cos(emb)), torch.from_numpy(np.sin(emb))\n"
    "    def rope():\n"
    "        return xt * c + torch.cat([-xt[..., D // 2:], xt[..., :D // 2]], dim=-1) * s\n"
    "    out = lambda: rope().numpy()\n"
    "else:\n"
    "    c, s = np.cos(emb), np.sin(emb)\n"
    "    def rope():\n"
    "        return x * c + np.concatenate([-x[..., D // 2:], x[..., :D // 2]], axis=-1) * s\n"
    "    out = rope\n"
    "rope()\n"
    "ts = []\n"
    "for _ in range(reps):\n"
    "    t0 = time.perf_counter(); rope(); ts.append(time.perf_counter() - t0)\n"
    "ts.sort()\n"
    "a64 = np.arange(T, dtype=np.float64)[:, None] * (500000.0 ** (-np.arange(0, D, 2) / D))[None, :]\n"
    "e64 = np.concatenate([a64, a64], axis=-1)[:, None, :]\n"
    "x64 = x.astype(np.float64)\n"
    "ref = x64 * np.cos(e64) + np.concatenate([-x64[..., D // 2:], x64[..., :D // 2]], axis=-1) * np.sin(e64)\n"
    "print(ts[len(ts) // 2], float(np.max(np.abs(out().astype(np.float64) - ref))))\n";

static int importable(const char *module) {
    char cmd[160];
    snprintf(cmd, sizeof cmd, PYTHON " -c 'import %s' >/dev/null 2>&1", module);
    return system(cmd) == 0;
}

int bench_python(int quick, double baseline_sec, bench_result *out, int max) {
    if (access(PYTHON, X_OK) != 0 || baseline_sec <= 0) return 0;
    static const char *const libs[2] = {"numpy", "torch"};
    int n = 0;
    for (int i = 0; i < 2 && n < max; i++) {
        if (!importable(libs[i]) || !importable("numpy")) continue;
        char path[] = "/tmp/posenc-bench-XXXXXX";
        const int fd = mkstemp(path); /* atomic-ok: a scratch script, not an output */
        if (fd < 0) continue;
        const ssize_t len = (ssize_t)strlen(script);
        const int written = write(fd, script, (size_t)len) == len;
        close(fd);
        char cmd[256];
        snprintf(cmd, sizeof cmd, PYTHON " %s %s %d 2>/dev/null", path, libs[i], quick ? 3 : 7);
        FILE *p = written ? popen(cmd, "r") : NULL;
        double sec = 0, err = 0;
        const int got = p && fscanf(p, "%lf %lf", &sec, &err) == 2;
        if (p) pclose(p);
        unlink(path); /* atomic-ok: the scratch script */
        if (!got || !(sec > 0)) continue;
        const double elems = 4096.0 * 32 * 128;
        bench_result *r = &out[n++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s_rope_4096", libs[i]);
        r->threads = 1;
        r->ns_per_elem = 1e9 * sec / elems;
        r->gbps = 8.0 * elems / sec / 1e9;
        snprintf(r->baseline, sizeof r->baseline, "scale_inplace_f32");
        r->baseline_ns_per_elem = 1e9 * baseline_sec / elems;
        r->ratio = sec / baseline_sec;
        r->max_abs_err = err;
    }
    return n;
}

"""Build the `posenc` extension for the interpreter running pip.

One extension module compiled from the library's sources (src/, src/io/,
src/kernels/) and the binding (python/*.c): nothing to install first, nothing
downloaded. The two vector kernel files need their own instruction-set flags
(as in the Makefile); they run only after the CPU check in
src/kernels/dispatch.c. The library's symbols stay hidden, so the module
exports only PyInit_posenc. cJSON (Debian libcjson-dev) is linked
dynamically: Debian ships no static libcjson.
"""
import pathlib
import platform
import re

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def version():
    header = (ROOT / "include" / "posenc.h").read_text()
    parts = [re.search(rf"#define PE_VERSION_{k} (\d+)", header).group(1) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def sources():
    rel = lambda p: str(p.relative_to(ROOT))  # noqa: E731  setuptools wants relative paths
    lib = sorted(ROOT.glob("src/*.c")) + sorted(ROOT.glob("src/io/*.c")) + sorted(ROOT.glob("src/kernels/*.c"))
    return [rel(p) for p in lib + sorted(ROOT.glob("python/*.c"))]


def headers():
    found = []
    for d in ("include", "src", "src/io", "src/kernels", "python"):
        found += sorted(str(p.relative_to(ROOT)) for p in (ROOT / d).glob("*.h"))
    return found


# The Makefile's flags: C11, IEEE semantics (no FMA contraction: the exact
# angle reduction relies on separately rounded products), hidden symbols.
COMMON = ["-std=c11", "-ffp-contract=off", "-fvisibility=hidden", "-pthread", "-D_POSIX_C_SOURCE=200809L"]
X86 = platform.machine().lower() in ("x86_64", "amd64")
ISA = {
    "avx2.c": ["-mavx2", "-mfma", "-mf16c"],
    "avx512.c": ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma", "-mf16c"],
}


class BuildExt(build_ext):
    """Compile the vector kernel files with their instruction sets, the rest without."""

    def build_extension(self, ext):
        special = [s for s in ext.sources if X86 and pathlib.Path(s).name in ISA and "kernels" in s]
        objects = []
        for s in special:
            objects += self.compiler.compile(
                [s], output_dir=self.build_temp, include_dirs=ext.include_dirs,
                extra_postargs=COMMON + ISA[pathlib.Path(s).name])
        ext.sources = [s for s in ext.sources if s not in special]
        ext.extra_objects = list(ext.extra_objects or []) + objects
        super().build_extension(ext)


setup(
    version=version(),
    ext_modules=[
        Extension(
            "posenc",
            sources=sources(),
            depends=headers(),  # a changed header rebuilds the module
            include_dirs=["include"],
            extra_compile_args=COMMON,
            extra_link_args=["-pthread"],
            libraries=["cjson", "m"],
        )
    ],
    cmdclass={"build_ext": BuildExt},
    # No Python packages: without this, setuptools would take src/ (the C
    # sources) for a src-layout and `pip install -e .` would build into it.
    packages=[],
    package_dir={"": "."},
    # Out of the Makefile's own files under build/.
    options={
        "build": {"build_base": "build/setuptools"},
        "egg_info": {"egg_base": "build"},
    },
)

#!/usr/bin/env bash
# after-install.sh LIBDIR BINDIR — what `make install` does last (skipped
# with DESTDIR, a staging copy): makes the installed library findable, or
# says in two lines what the user must add.
#  - A LIBDIR the dynamic linker searches (/usr/local/lib, /usr/lib, ...): its
#    cache must learn the new soname, so run ldconfig (as root; otherwise say
#    so), or programs fail with "libposenc.so.0.2: cannot open shared object".
#  - Any other LIBDIR (PREFIX=$HOME/.local): print the PKG_CONFIG_PATH and
#    LD_LIBRARY_PATH lines that make `pkg-config --libs posenc` find it and
#    the programs linked with it start.
set -euo pipefail
libdir=$1 bindir=$2
LDCONFIG=$(command -v ldconfig || echo /sbin/ldconfig)

exports=()
if ! pkg-config --variable pc_path pkg-config 2>/dev/null | tr ':' '\n' | grep -qxF "$libdir/pkgconfig"; then
    exports+=("export PKG_CONFIG_PATH=\"$libdir/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\"")
fi
if "$LDCONFIG" -v -N -X 2>/dev/null | grep -v '^[[:space:]]' | cut -d: -f1 | grep -qxF "$libdir" ||
    [ "$libdir" = /usr/lib ] || [ "$libdir" = /lib ]; then
    if [ "$(id -u)" -eq 0 ]; then
        "$LDCONFIG"
        echo "posenc: installed; ran ldconfig so programs find libposenc in $libdir"
    else
        echo "posenc: installed; run 'sudo ldconfig' once so programs find libposenc in $libdir"
    fi
else
    exports+=("export LD_LIBRARY_PATH=\"$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"")
fi
case ":${PATH:-}:" in *":$bindir:"*) ;; *) exports+=("export PATH=\"$bindir:\$PATH\"") ;; esac
if [ ${#exports[@]} -gt 0 ]; then
    echo "posenc: installed in a prefix this system does not search; add these lines to your shell"
    echo "        (and to ~/.profile to keep them):"
    printf '    %s\n' "${exports[@]}"
fi

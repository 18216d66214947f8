"""Write a matplotlib figure the way the project writes every file: into a temporary file
beside the target, flushed to disk and renamed over it, so an existing figure survives any
failure (a full disk, an exception while drawing, Ctrl-C) and a reader never sees half a PNG."""
import os
import tempfile


def savefig_atomic(fig, path, **kwargs):
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    base = os.path.basename(path)
    # matplotlib picks the format from the name; the temporary name must not change it
    fmt = kwargs.pop("format", None) or (os.path.splitext(base)[1][1:] or "png")
    fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format=fmt, **kwargs)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise

"""build_id(): which build of the simulator this process runs, for sweep()'s cache key.

A sweep point cached by one build must not be served after the C++ code changed (a rebuilt library
with another default computes other figures), so the cache key holds a digest of the compiled
binaries: the _iwarpsim module and the libiwarp shared library it loaded.  The files are read again
(when their size or modification time changed) at every sweep(), since a rebuild between two
sweeps of one session is what the key must notice: the sweep's worker processes load the new files.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

_digests: dict[str, tuple[tuple[int, int], str]] = {}  # realpath -> ((size, mtime_ns), sha256 hex of the contents)


def _file_digest(path: str) -> str:
    st = os.stat(path)
    stamp = (st.st_size, st.st_mtime_ns)
    known = _digests.get(path)
    if known is None or known[0] != stamp:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        known = (stamp, h.hexdigest())
        _digests[path] = known
    return known[1]


def digest_of_files(paths: Iterable[str]) -> str:
    """One SHA-256 over the names and contents of `paths` (in sorted order), as 24 hex digits."""
    h = hashlib.sha256()
    for p in sorted(os.path.realpath(p) for p in paths):
        h.update(os.path.basename(p).encode() + b"\0" + _file_digest(p).encode() + b"\0")
    return h.hexdigest()[:24]


_DELETED = " (deleted)"


def mapped_libraries(maps_lines: Iterable[str]) -> set[str]:
    """The libiwarp files named in the lines of a /proc/<pid>/maps, as they are on disk now.

    A library replaced on disk since this process loaded it (a rebuild) is listed as "PATH (deleted)": the
    file a sweep's new workers load is the one at PATH now, so that is the one to digest; a PATH that no longer
    exists at all is left out (no worker could load it either)."""
    paths = set()
    for line in maps_lines:
        fields = line.split(None, 5)
        if len(fields) < 6:
            continue
        path = fields[5].strip()
        if path.endswith(_DELETED):
            path = path[: -len(_DELETED)]
        if os.path.basename(path).startswith("libiwarp") and os.path.exists(path):
            paths.add(os.path.realpath(path))
    return paths


def loaded_binaries() -> list[str]:
    """The _iwarpsim module's file and every libiwarp shared object this process has mapped."""
    from . import _iwarpsim

    paths = {os.path.realpath(_iwarpsim.__file__)}
    try:
        with open("/proc/self/maps") as f:  # Linux: the files mapped into this process
            paths |= mapped_libraries(f)
    except OSError:  # no /proc: the module alone (it links the library, so a rebuild usually relinks it)
        pass
    return sorted(paths)


def build_id() -> str:
    """The digest of loaded_binaries() as they are on disk now."""
    return digest_of_files(loaded_binaries())

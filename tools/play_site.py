"""The Play page's files, so that the docs site plays a match with no server.

The Play page (``docs/play/``) runs the library itself in the browser: Pyodide in a Web
Worker, playing through the table client of ``chickenfoot serve``. At build time this hook
adds to the site, all from our own files (no CDN; the built site works offline):

- ``pyodide/``: Pyodide's runtime from the npm package ``pyodide`` (``PYODIDE``), installed
  with npm into ``build/play/npm`` on the first build;
- ``play/wheels/``: the wheels the worker unpacks into Python's site-packages, from the
  site's own URL: chickenfoot's, made here from ``src/chickenfoot`` (pure Python: numba
  does not exist in Pyodide, the pure path serves), and attrs' (its one dependency),
  downloaded once with pip into ``build/play/wheels``; ``play/wheels/wheels.json`` names
  them (no micropip: two pure-Python wheels need no resolving, and loading micropip and
  packaging cost a first visit about two seconds);
- ``play/table.html``, ``table.js``, ``coach.js``, ``style.css``, ``favicon.svg``, ``i18n.js`` and its
  catalogs (``i18n/<lang>.json``, the page in the browser's language): the table page of
  ``chickenfoot serve`` (``src/chickenfoot/server/static``), the page only pointed at these
  files and given ``socket.js`` (in its head), the Worker transport of the same client, and
  ``review.js`` (after the client) with ``review.css``: the review after a round and hints.

``tools/docs_play.py`` (an mkdocs hook) adds them to the site; Read the Docs runs it too
(``.readthedocs.yaml`` has Node.js for npm). Nothing here needs mkdocs, so the tests use it
as it is (``tests/test_play_page.py``).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path


class SiteError(Exception):
    """A file of the Play page that cannot be made; the message says why."""


PYODIDE = "0.26.4"
"""The npm ``pyodide`` release (Python 3.12)."""
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the worker loads of the npm package (its maps, types and consoles stay out)."""
WHEELS = ("attrs==25.4.0",)
"""Unpacked in the worker beside chickenfoot: attrs, its one dependency."""
SERVER_STATIC = (
    "table.js", "coach.js", "style.css", "favicon.svg",
    "i18n.js", "i18n/el.json", "i18n/hr.json", "i18n/ro.json", "i18n/lv.json",
)  # fmt: skip
LEFT_OUT = (
    "__main__.py", "_jit/", "batch/", "cli/", "encoding.py", "openspiel/",
    "pettingzoo.py", "server/static/", "locale/",
)  # fmt: skip
"""What the browser's wheel leaves out of ``src/chickenfoot``: what needs numba or numpy
(the compiled kernels, the batch engine, the encodings), the command line and its
catalogs (``locale/``), the adapters, and the server's page files (served beside it): 0.35 MB of wheel down to 0.2."""
LOCK_KEPT: tuple[str, ...] = ()
"""What the served ``pyodide-lock.json`` keeps of Pyodide's 310 packages: none (the worker
loads none of them), but the standard library's modules Pyodide leaves out (for its error
messages); the whole file is 0.1 MB the page never needs."""

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "chickenfoot"
STATIC = SRC / "server" / "static"


def _run(command: list[str], what: str) -> None:
    try:
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=600)
    except FileNotFoundError:
        raise SiteError(f"{what} needs {command[0]} (Debian: apt-get install npm)") from None
    except subprocess.CalledProcessError as err:
        tail = (err.stderr or err.stdout or "").strip().splitlines()[-3:]
        raise SiteError(f"{what} failed: {' / '.join(tail)}") from None


def pyodide_dir(cache: Path) -> Path:
    """The npm package's folder, installed with npm on the first build."""
    where = cache / "npm" / "node_modules" / "pyodide"
    if not all((where / name).is_file() for name in PYODIDE_FILES) or _version(where) != PYODIDE:
        npm = shutil.which("npm") or "npm"
        command = [npm, "install", "--silent", "--no-audit", "--no-fund", "--no-save"]
        _run(
            [*command, "--prefix", str(cache / "npm"), f"pyodide@{PYODIDE}"], "npm install pyodide"
        )
    return where


def _version(where: Path) -> str | None:
    try:
        return str(json.loads((where / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def downloaded_wheels(cache: Path) -> list[Path]:
    """The wheels of ``WHEELS`` (attrs'), downloaded once with pip."""
    folder = cache / "wheels"
    names = [w.replace("==", "-") + "-" for w in WHEELS]
    found = [next(iter(sorted(folder.glob(f"{n}*.whl"))), None) for n in names]
    if None in found:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        _run([*command, "--only-binary", ":all:", "--dest", str(folder), *WHEELS], "pip download")
        found = [next(iter(sorted(folder.glob(f"{n}*.whl"))), None) for n in names]
    missing = [w for w, f in zip(WHEELS, found, strict=True) if f is None]
    if missing:
        raise SiteError(f"pip download gave no wheel of {missing}")
    return [f for f in found if f is not None]


def _version_of_package() -> str:
    match = re.search(r'^__version__ = "([^"]+)"', (SRC / "__init__.py").read_text(), re.M)
    if match is None:
        raise SiteError("no __version__ in src/chickenfoot/__init__.py")
    return match[1]


def _dependencies() -> list[str]:
    match = re.search(r"^dependencies = \[(.*?)\]", (ROOT / "pyproject.toml").read_text(), re.M)
    if match is None:
        raise SiteError("no dependencies in pyproject.toml")
    return re.findall(r'"([^"]+)"', match[1])


def chickenfoot_wheel() -> tuple[str, bytes]:
    """A pure-Python wheel of ``src/chickenfoot`` (name, bytes): its modules, no caches.

    Made here, not by a build backend: the docs build needs no build tools, and the wheel
    is what the source tree is now (a picture cannot be of another version).
    """
    version = _version_of_package()
    dist_info = f"chickenfoot-{version}.dist-info"
    files: list[tuple[str, bytes]] = []
    for path in sorted(SRC.rglob("*")):
        inner = path.relative_to(SRC).as_posix()
        if inner.startswith(LEFT_OUT) or not path.is_file() or "__pycache__" in path.parts:
            continue
        if path.suffix != ".pyc":
            files.append((f"chickenfoot/{path.relative_to(SRC).as_posix()}", path.read_bytes()))
    metadata = "Metadata-Version: 2.1\nName: chickenfoot\nVersion: " + version + "\n"
    metadata += "".join(f"Requires-Dist: {d}\n" for d in _dependencies())
    files.append((f"{dist_info}/METADATA", metadata.encode()))
    wheel = "Wheel-Version: 1.0\nGenerator: tools/docs_play.py\nRoot-Is-Purelib: true\n"
    files.append((f"{dist_info}/WHEEL", (wheel + "Tag: py3-none-any\n").encode()))
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as whl:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
    return f"chickenfoot-{version}-py3-none-any.whl", out.getvalue()


GLUE = ("tableplay.py", "tableplay_messages.py")
"""The worker's own Python, in ``docs/play/``: a memory snapshot holds it imported."""


def snapshot_key(wheels: dict[str, bytes]) -> str:
    """The name a browser keeps the Play page's memory snapshot under: a hash of what the
    snapshot holds (Pyodide's version, the wheels installed, the worker's Python), so that a
    site built from other files never starts from it."""
    digest = hashlib.sha256(PYODIDE.encode())
    for name, data in sorted(wheels.items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    for name in GLUE:
        digest.update(name.encode() + b"\0" + (ROOT / "docs" / "play" / name).read_bytes())
    return "snapshot-" + digest.hexdigest()[:32]


def lock_file(npm: Path) -> str:
    """Pyodide's ``pyodide-lock.json`` with only what the worker needs (``LOCK_KEPT``)."""
    lock = json.loads((npm / "pyodide-lock.json").read_text(encoding="utf-8"))
    lock["packages"] = {
        name: entry
        for name, entry in lock["packages"].items()
        if name in LOCK_KEPT or entry.get("package_type") == "cpython_module"
    }
    return json.dumps(lock, separators=(",", ":"), sort_keys=True)


def table_page() -> str:
    """The server's table page, pointed at the Play page's copies of its files, with the
    Worker transport (``socket.js``) in its head: loaded before the client, it starts the
    worker while the rest of the page loads."""
    page = (STATIC / "table.html").read_text(encoding="utf-8")
    if "/static/table.js" not in page:
        raise SiteError("src/chickenfoot/server/static/table.html loads no table.js")
    page = page.replace('"/static/', '"')
    page = page.replace('href="/"', 'href="../" target="_top"')
    if "</head>" not in page:
        raise SiteError("src/chickenfoot/server/static/table.html has no head")
    page = page.replace("</head>", '<script src="socket.js"></script>\n</head>', 1)
    # the review after a round and the hints (docs/play/review.js), after the client
    page = page.replace("</head>", '<link rel="stylesheet" href="review.css">\n</head>', 1)
    if '<script src="table.js"></script>' not in page:
        raise SiteError("src/chickenfoot/server/static/table.html loads table.js otherwise")
    return page.replace(
        '<script src="table.js"></script>',
        '<script src="table.js"></script>\n<script src="review.js"></script>',
        1,
    )


PLAY_POLICY = (
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "connect-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "frame-src 'self'",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'self'",
)
"""The Content-Security-Policy of the Play page, its table frame and its workers (before
the hashes of the theme's inline scripts, ``headers_file`` adds them): this site's files
only; ``'wasm-unsafe-eval'`` for Pyodide's WebAssembly (never ``'unsafe-eval'``), workers
from this site, the table page in a frame of this site only; ``data:`` pictures for the
theme's icons, which its style sheet holds."""
PLAY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "SAMEORIGIN"),
    ("Referrer-Policy", "no-referrer"),
)
"""The Play site's other headers: no sniffing, frames of this site only (the Play page
shows its table in one), no referrer."""
PLAY_PATHS = ("/play/*", "/pyodide/*")
"""What the policy covers (the Play page, its table, workers and wheels; Pyodide)."""

_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)


def inline_script_hashes(page: str) -> list[str]:
    """The CSP sources (``'sha256-...'``) of a page's inline scripts that run, in order
    (a ``src`` script or a JSON data block is not one).

    >>> inline_script_hashes('<script>a=1</script><script src="x.js"></script>'
    ...     '<script type="application/json">{}</script>')
    ["'sha256-wi/qXXQo5c9H72NUyXySI8ldbc3D4NIwD/eQVrH/PYU='"]
    """
    found = []
    for attributes, text in _SCRIPT.findall(page):
        kind = re.search(r"\btype\s*=\s*[\"']?([^\"'\s>]+)", attributes, re.I)
        runs = kind is None or kind.group(1).lower() in ("text/javascript", "module")
        if re.search(r"\bsrc\s*=", attributes, re.I) is None and runs:
            digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest())
            found.append(f"'sha256-{digest.decode('ascii')}'")
    return list(dict.fromkeys(found))


def play_policy(play_page: str) -> str:
    """The Play site's Content-Security-Policy: ``PLAY_POLICY`` with the hashes of the
    inline scripts of the built Play page (the theme's; the page's own are files)."""
    hashes = inline_script_hashes(play_page)
    return "; ".join(
        " ".join([d, *hashes]) if d.startswith("script-src ") else d for d in PLAY_POLICY
    )


def headers_file(play_page: str) -> str:
    """The site's ``_headers`` (the format of Netlify and Cloudflare Pages; nginx and the
    others take the same lines, see the Play page, "Serving the site"): the Play site's
    policy and headers on ``PLAY_PATHS``."""
    lines = [f"  Content-Security-Policy: {play_policy(play_page)}"]
    lines += [f"  {name}: {value}" for name, value in PLAY_HEADERS]
    return "".join(f"{path}\n" + "\n".join(lines) + "\n" for path in PLAY_PATHS)


def translated_headers(pages: dict[str, str]) -> str:
    """The ``_headers`` rules of the translated Play pages (``el/play/``: the page of each
    language, its table the English page's ``play/table.html``): each page's own policy,
    with the hashes of its own inline scripts (the theme's, which name the page's depth).

    >>> print(translated_headers({"el/play/": "<p>"}).splitlines()[0])
    /el/play/*
    """
    out = []
    for url, page in sorted(pages.items()):
        lines = [f"  Content-Security-Policy: {play_policy(page)}"]
        lines += [f"  {name}: {value}" for name, value in PLAY_HEADERS]
        out.append(f"/{url}*\n" + "\n".join(lines) + "\n")
    return "".join(out)

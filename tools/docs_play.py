"""mkdocs hook: the Play page's files (``tools/play_site.py`` makes them) added to the site.

Pyodide's runtime under ``pyodide/``, the wheels under ``play/wheels/``, and the server's
table page and its client under ``play/``; see ``tools/play_site.py``. Once the Play page is
written, the site's ``_headers`` (its Content-Security-Policy, with the hashes of the
theme's inline scripts on that page, and the other headers) goes beside it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files


def _site() -> Any:
    # loaded by path: mkdocs loads this hook by path, not as part of a package
    spec = importlib.util.spec_from_file_location(
        "cf_play_site", Path(__file__).with_name("play_site.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# after mkdocs-static-i18n sorts the pages by language (its priority is -100): the
# files made here are the same for every language, at the site's root
@event_priority(-110)
def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    site = _site()
    try:
        return _add(site, files, config)
    except site.SiteError as err:
        raise PluginError(f"docs: the Play page: {err}") from None


def _add(site: Any, files: Files, config: Any) -> Files:
    cache = site.ROOT / "build" / "play"
    npm = site.pyodide_dir(cache)
    for name in site.PYODIDE_FILES:
        if name == "pyodide-lock.json":
            files.append(File.generated(config, f"pyodide/{name}", content=site.lock_file(npm)))
        else:
            files.append(File.generated(config, f"pyodide/{name}", abs_src_path=str(npm / name)))
    names: dict[str, str] = {}
    held: dict[str, bytes] = {}
    for wheel in site.downloaded_wheels(cache):
        names[wheel.name.split("-")[0]] = wheel.name
        held[wheel.name] = wheel.read_bytes()
        files.append(File.generated(config, f"play/wheels/{wheel.name}", abs_src_path=str(wheel)))
    name, data = site.chickenfoot_wheel()
    names["chickenfoot"] = name
    held[name] = data
    files.append(File.generated(config, f"play/wheels/{name}", content=data))
    names["key"] = site.snapshot_key(held)
    manifest = json.dumps(names, indent=1, sort_keys=True)
    files.append(File.generated(config, "play/wheels/wheels.json", content=manifest))
    for static in site.SERVER_STATIC:
        path = str(site.STATIC / static)
        files.append(File.generated(config, f"play/{static}", abs_src_path=path))
    files.append(File.generated(config, "play/table.html", content=site.table_page()))
    return files


_PLAY_PAGE: dict[str, str] = {}
"""The built Play page of each language, by its address: ``play/`` (English), ``el/play/``
(mkdocs-static-i18n builds each language in turn, into its folder of the one site)."""


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    if getattr(page.file, "norm_src_uri", page.file.src_uri) == "play/index.md":
        _PLAY_PAGE[page.url] = output
    return output


def on_post_build(config: Any, **kwargs: Any) -> None:
    if "play/" not in _PLAY_PAGE:  # a build without the Play page (mkdocs serve's partial one)
        return
    site = _site()
    headers = site.headers_file(_PLAY_PAGE["play/"])
    translated = {url: html for url, html in _PLAY_PAGE.items() if url != "play/"}
    headers += site.translated_headers(translated)
    (Path(config["site_dir"]) / "_headers").write_text(headers, encoding="utf-8")

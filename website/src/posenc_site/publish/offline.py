"""The site opened from disk (``file://``): what Material's ``offline`` plugin leaves to us.

The plugin (on when the posenc plugin's ``offline`` option is, or ``POSENC_OFFLINE=true``: see
``posenc_site.config``) makes links end in ``.html`` and
writes ``search/search_index.js``, the index as a script, because a page opened from disk may
not fetch a file. Two things it does not fit here:

- it loads its Web Worker shim (iframe-worker) from a CDN, while the site loads nothing from
  other hosts: a copy of the shim ships with posenc_site (``vendor/iframe-worker``) and is
  linked instead;
- it writes the script of the merged index before ``posenc_site.publish.search_split`` splits it, at
  the root only: each language's index is written again as a script under its own root.

``python -m posenc_site.publish.classroom`` builds this variant and zips it.
"""

import shutil
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from posenc_site.i18n.languages import Languages

SHIM = Path(__file__).parents[1] / "vendor" / "iframe-worker" / "shim.js"
SHIM_PATH = "assets/javascripts/iframe-worker.js"  # in the built site


def switch(config: MkDocsConfig, offline: bool) -> None:
    """Turn Material's ``offline`` plugin on or off, before its ``on_config`` runs.

    Raises
    ------
    PluginError
        ``offline`` is asked for and mkdocs.yml's plugins lack Material's ``offline``.
    """
    plugin = config.plugins.get("material/offline") or config.plugins.get("offline")
    if plugin is None:
        if offline:
            raise PluginError(
                "the posenc plugin's option 'offline' needs Material's offline plugin: "
                "add '- offline' to mkdocs.yml's plugins"
            )
        return
    plugin.config["enabled"] = offline


def use_local_shim(config: MkDocsConfig) -> None:
    """Link the site's copy of the Web Worker shim instead of the CDN's (after the plugin)."""
    polyfills = config.extra.get("polyfills", [])
    config.extra["polyfills"] = [
        SHIM_PATH if "iframe-worker" in str(script) else script for script in polyfills
    ]


def write(site_dir: Path, languages: Languages) -> None:
    """Copy the shim into the site; write each language's search index as a script."""
    target = site_dir / SHIM_PATH
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SHIM, target)
    for language in languages.all:
        index = site_dir / language.url_prefix / "search" / "search_index.json"
        if index.exists():
            script = f"var __index = {index.read_text(encoding='utf-8')}"
            index.with_suffix(".js").write_text(script, encoding="utf-8")

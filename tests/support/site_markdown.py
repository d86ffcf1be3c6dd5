"""A page converted in this process as the site converts it, without MkDocs: mkdocs.yml's
Markdown extensions, with the options of a page in a given language."""

import copy
import functools

import markdown
import markdown_exec
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.utils.yaml import yaml_load

from posenc_site.i18n import page_language
from support.project import ROOT, SITE


@functools.cache
def config() -> MkDocsConfig:
    """mkdocs.yml's ``markdown_extensions`` as MkDocs reads them (its built-ins first)."""
    with (ROOT / "mkdocs.yml").open(encoding="utf-8") as file:
        extensions = yaml_load(file)["markdown_extensions"]
    loaded = MkDocsConfig(config_file_path=str(ROOT / "mkdocs.yml"))
    loaded.load_dict({"site_name": "test", "markdown_extensions": extensions})
    errors, warnings = loaded.validate()
    assert errors == warnings == []
    snippets = loaded.mdx_configs["pymdownx.snippets"]
    snippets["base_path"] = [str(ROOT / path) for path in snippets["base_path"]]
    return loaded


def convert(text: str, language: str = "en", *, execute: bool = False) -> str:
    """The HTML of a page whose Markdown is ``text``, in ``language`` (a code of the site's).

    With ``execute``, ``python exec="on"`` blocks run as markdown-exec runs them in a build:
    its fence on superfences, and the site's extensions for the Markdown of their outputs.
    """
    page_language.configure_markdown(config(), SITE.get(language))
    configs = copy.deepcopy(config().mdx_configs)
    if execute:
        fence = {"validator": markdown_exec.validator, "format": markdown_exec.formatter}
        configs["pymdownx.superfences"]["custom_fences"].append(
            {"name": "python", "class": "python", **fence}
        )
    md = markdown.Markdown(extensions=config().markdown_extensions, extension_configs=configs)
    markdown_exec.markdown_config.save(config().markdown_extensions, configs)
    try:
        return md.convert(text)
    finally:
        markdown_exec.markdown_config.reset()

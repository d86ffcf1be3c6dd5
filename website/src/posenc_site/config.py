"""The posenc plugin's options, and the one place that reads the variables that override them.

The options are those of ``plugins: - posenc:`` in mkdocs.yml. The publishing workflow and the
classroom command build the same ``mkdocs.yml`` with other settings, so four options may also
come from the environment (``ENVIRONMENT``): a variable that is set wins over ``mkdocs.yml``,
and its text must be one the option accepts (``on``/``off``, ``true``/``false``,
``yes``/``no``, ``1``/``0`` for a switch). The site's and the repository's addresses are
MkDocs' own ``site_url`` and ``repo_url``, read with ``!ENV`` in ``mkdocs.yml``
(``POSENC_SITE_URL``, ``POSENC_REPO_URL``): MkDocs derives ``repo_name`` from ``repo_url``
while it loads the configuration, and ``mkdocs serve`` replaces ``site_url`` with its own
address after loading it, so a plugin setting either later would leave the repository link
unnamed or point a local preview at the published site.
"""

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError


# MkDocs' Config.__init_subclass__ has no annotations.
class PosencConfig(Config):  # type: ignore[no-untyped-call]
    """The posenc plugin's options, with their defaults.

    Examples
    --------
    >>> config = PosencConfig(config_file_path="/site/mkdocs.yml")
    >>> config.load_dict({"run_ahead": False})
    >>> config.validate()
    ([], [])
    >>> (config.exec_cache, config.cache_dir, config.run_ahead, config.offline)
    (True, '/site/.cache/exec', False, False)
    """

    exec_cache = c.Type(bool, default=True)
    """Reuse the output of an executed code block from an earlier build with the same inputs."""
    cache_dir = c.Dir(exists=False, default=".cache/exec")
    """The folder of the stored outputs; relative paths are relative to mkdocs.yml."""
    run_ahead = c.Type(bool, default=True)
    """Run the blocks the cache lacks in worker processes from the start of the build."""
    offline = c.Type(bool, default=False)
    """Build the copy read from disk: turns Material's ``offline`` plugin on."""


# Environment variable -> the option it overrides.
ENVIRONMENT = {
    "POSENC_EXEC_CACHE": "exec_cache",
    "POSENC_EXEC_CACHE_DIR": "cache_dir",
    "POSENC_EXEC_AHEAD": "run_ahead",
    "POSENC_OFFLINE": "offline",
}
# The texts a switch's variable may hold, as pairs of on and off.
_SWITCHES = (("on", "off"), ("true", "false"), ("yes", "no"), ("1", "0"))
_SWITCH = {text: on == text for on, off in _SWITCHES for text in (on, off)}


def environment_overrides(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The options that the ``POSENC_*`` variables set, as the options' types.

    Parameters
    ----------
    environ : mapping of str to str, optional
        The variables to read; ``os.environ`` when None.

    Returns
    -------
    dict of str to object
        Option name -> value, for the variables of ``ENVIRONMENT`` that are set: a switch as
        bool, the cache folder as an absolute path (a relative one is taken from the working
        directory, as a shell user means it).

    Raises
    ------
    PluginError
        A switch's variable holds a text that is not one of ``_SWITCH``; the message names the
        variable and the option.

    Examples
    --------
    >>> environment_overrides({"POSENC_EXEC_AHEAD": "off", "HOME": "/root"})
    {'run_ahead': False}
    """
    found = os.environ if environ is None else environ
    overrides: dict[str, Any] = {}
    for variable, option in ENVIRONMENT.items():
        text = found.get(variable)
        if text is None:
            continue
        if option == "cache_dir":
            overrides[option] = str(Path(text).absolute())
        elif text.strip().lower() in _SWITCH:
            overrides[option] = _SWITCH[text.strip().lower()]
        else:
            accepted = ", ".join("/".join(pair) for pair in _SWITCHES)
            raise PluginError(
                f"{variable}={text!r} (the posenc plugin's option {option!r}): "
                f"expected one of {accepted}"
            )
    return overrides


def with_environment(
    options: PosencConfig, environ: Mapping[str, str] | None = None
) -> PosencConfig:
    """``options`` with the environment's overrides (``environment_overrides``) applied.

    Parameters
    ----------
    options : PosencConfig
        The plugin's options as ``mkdocs.yml`` gives them, validated.
    environ : mapping of str to str, optional
        The variables to read; ``os.environ`` when None.

    Returns
    -------
    PosencConfig
        ``options`` itself when no variable is set, else a validated copy with the overrides.

    Raises
    ------
    PluginError
        A variable's value is not one its option accepts.
    """
    overrides = environment_overrides(environ)
    if not overrides:
        return options
    merged = PosencConfig(config_file_path=options.config_file_path)
    merged.load_dict({**options, **overrides})
    errors, _ = merged.validate()
    if errors:
        variables = {option: variable for variable, option in ENVIRONMENT.items()}
        raise PluginError(
            "; ".join(f"{variables.get(name, name)}: {error}" for name, error in errors)
        )
    return merged

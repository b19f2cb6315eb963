"""LanceDB without the start-up cost of a REST client the local index never calls.

Both hooks here are registered by the storage package before anything imports lancedb.

``import lancedb`` imports ``lance_namespace``, which imports the models of
``lance_namespace_urllib3_client``, a generated client of the Lance REST namespace service.
That package's ``__init__`` also imports its nine API modules, whose ~370 methods are each
wrapped in pydantic's ``validate_call``: building those validators took about 1.0 s of the
1.9 s ``import lancedb`` cost on a 2-core laptop, paid by the first search of every process.

``defer_namespace_client`` registers the package without running its ``__init__``: the
submodules LanceDB imports (``models``) load as usual, and the first use of any name the
``__init__`` would have defined (a REST connection, ``ApiClient``) runs it then, once.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # importlib.abc imports importlib.resources, tempfile, shutil: ~15 ms
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

NAMESPACE_CLIENT = "lance_namespace_urllib3_client"
_LOCK = threading.RLock()


def defer_namespace_client(name: str = NAMESPACE_CLIENT) -> bool:
    """Register package ``name`` with its ``__init__`` deferred to its first attribute use;
    False (and nothing changed) if it is loaded already or not installed."""
    with _LOCK:
        if name in sys.modules:
            return False
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return False
        module = importlib.util.module_from_spec(spec)
        loader = spec.loader

        def load_then_get(attribute: str) -> Any:
            with _LOCK:
                if module.__dict__.pop("__getattr__", None) is not None:
                    try:
                        loader.exec_module(module)
                    except BaseException:
                        module.__getattr__ = load_then_get  # type: ignore[method-assign]
                        raise
            try:
                return module.__dict__[attribute]
            except KeyError:
                raise AttributeError(f"module {name!r} has no attribute {attribute!r}") from None

        module.__getattr__ = load_then_get  # type: ignore[method-assign]
        sys.modules[name] = module
        return True


# --- ``import lancedb`` without the work it does for classes it never uses here ---------

LANCEDB = "lancedb"


def quicken_lancedb_import() -> bool:
    """Have the first ``import lancedb`` of the process run as ``_while_lancedb_loads``
    says; False (nothing changed) if lancedb is loaded already or the hook is in place."""
    with _LOCK:
        if LANCEDB in sys.modules or any(isinstance(f, _LanceDBFinder) for f in sys.meta_path):
            return False
        sys.meta_path.insert(0, _LanceDBFinder())
        return True


class _LanceDBFinder:
    """Finds ``lancedb`` as the other finders do, and loads it inside
    ``_while_lancedb_loads``; then leaves ``sys.meta_path``."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != LANCEDB:
            return None
        with _LOCK:
            if self in sys.meta_path:
                sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = cast("Loader", _LoadingQuickly(spec.loader))
        return spec


class _LoadingQuickly:
    def __init__(self, loader: Loader) -> None:
        self._loader = loader

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__loader__ = self._loader
        with _while_lancedb_loads():
            self._loader.exec_module(module)


@contextmanager
def _while_lancedb_loads() -> Iterator[None]:
    """Two costs of ``import lancedb`` (about 0.3 s of the 0.6 s on a 2-core laptop), saved
    without changing what any class does:

    - on Python < 3.12 it decorates ~100 methods with the ``overrides`` package's
      ``@override``, which reads each method's bytecode to check its signature against the
      base class at import; on 3.12+ LanceDB uses ``typing.override`` and a plain
      ``EnforceOverrides`` base instead, and gets the same here (a check of LanceDB's own
      code, done by its tests);
    - ``lance_namespace`` defines ~200 pydantic models of the REST namespace client that a
      local index never validates: they are built with pydantic's ``defer_build``, so each
      builds its validator at its first use, if any, as it would have at import.

    Both last only while lancedb's modules load: anything imported after sees ``overrides``
    and pydantic's defaults as they were.
    """
    saved_overrides = sys.modules.get("overrides")
    if sys.version_info < (3, 12):
        sys.modules["overrides"] = _typing_overrides()
    defaults = _pydantic_config_defaults() or {}
    deferred = defaults.get("defer_build") is False
    if deferred:
        defaults["defer_build"] = True
    try:
        yield
    finally:
        if deferred:
            defaults["defer_build"] = False
        if saved_overrides is None:
            sys.modules.pop("overrides", None)
        else:
            sys.modules["overrides"] = saved_overrides


def _typing_overrides() -> types.ModuleType:
    """What LanceDB defines for itself on Python 3.12+, as a module named ``overrides``."""
    from typing_extensions import override

    stand_in = types.ModuleType("overrides")
    stand_in.override = override  # type: ignore[attr-defined]
    stand_in.EnforceOverrides = EnforceOverrides  # type: ignore[attr-defined]
    return stand_in


class EnforceOverrides:
    """LanceDB's base class on Python 3.12+: a plain one."""


def _pydantic_config_defaults() -> dict[str, Any] | None:
    """Pydantic's model config defaults (a private table: None if this pydantic has none)."""
    try:
        from pydantic._internal._config import config_defaults
    except ImportError:
        return None
    return cast("dict[str, Any]", config_defaults) if isinstance(config_defaults, dict) else None

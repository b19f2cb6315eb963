"""LanceDB without the start-up cost of code the local index never calls.

Both hooks here are registered by the storage package before anything imports lancedb.

``import lancedb`` imports ``lance_namespace``, whose ``__init__`` imports every model of
``lance_namespace_urllib3_client`` (a generated client of the Lance REST namespace
service), whose own ``__init__`` imports its nine API modules, ~370 methods each wrapped in
pydantic's ``validate_call``: about 1.0 s of a 1.9 s ``import lancedb`` on a 2-core
laptop, and ~0.15 s more for the models, paid by the first search of every process. It
also imports ``lancedb.embeddings``, whose ``__init__`` imports ~20 embedding providers.

``defer_init`` registers such a package without running its ``__init__``: its submodules
load as usual, a name it only re-exports can load alone from its own module, and the first
use of any other name runs the ``__init__`` then, once (``defer_namespace_packages``).
"""

from __future__ import annotations

import importlib.util
import re
import sys
import threading
import types
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # importlib.abc imports importlib.resources, tempfile, shutil: ~15 ms
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

NAMESPACE = "lance_namespace"
NAMESPACE_CLIENT = "lance_namespace_urllib3_client"
NAMESPACE_MODELS = f"{NAMESPACE_CLIENT}.models"
_LOCK = threading.RLock()


def defer_init(
    name: str,
    *,
    locations: Sequence[str] | None = None,
    home: Callable[[str], str | None] = lambda attribute: None,
    stand_ins: Collection[str] = (),
) -> bool:
    """Register package ``name`` with its ``__init__`` deferred to the first use of a name
    it defines; False (and nothing changed) if it is loaded already or not found.

    Its submodules import as usual meanwhile. ``home(attribute)`` may name the submodule
    that defines a name the ``__init__`` only re-exports: that module alone is loaded for
    it. Each name in ``stand_ins`` (one the ``__init__`` itself defines) is handed out as a
    ``_StandIn`` that runs the ``__init__`` when it is first called or read. ``locations``
    is the parent package's ``__path__`` for a subpackage whose parent is being imported.
    """
    with _LOCK:
        if name in sys.modules:
            return False
        if locations is None:
            spec = importlib.util.find_spec(name)
        else:
            from importlib.machinery import PathFinder

            spec = PathFinder.find_spec(name, list(locations))
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return False
        module = importlib.util.module_from_spec(spec)
        loader = spec.loader

        def run_init() -> types.ModuleType:
            with _LOCK:
                if module.__dict__.pop("__getattr__", None) is not None:
                    try:
                        loader.exec_module(module)
                    except BaseException:
                        module.__getattr__ = get  # type: ignore[method-assign]
                        raise
            return module

        def defined(attribute: str) -> Any:
            try:
                return run_init().__dict__[attribute]
            except KeyError:
                raise AttributeError(f"module {name!r} has no attribute {attribute!r}") from None

        def get(attribute: str) -> Any:
            if attribute in stand_ins:
                return _StandIn(f"{name}.{attribute}", lambda: defined(attribute))
            where = home(attribute)
            if where is not None:
                try:
                    return getattr(importlib.import_module(where), attribute)
                except (ImportError, AttributeError):
                    pass  # not where it was expected: the __init__ knows
            return defined(attribute)

        module.__getattr__ = get  # type: ignore[method-assign]
        sys.modules[name] = module
        return True


class _StandIn:
    """A name a deferred ``__init__`` defines, until it is first used: calling it, reading
    an attribute of it or an ``isinstance`` check against it loads the real one."""

    def __init__(self, qualified: str, load: Callable[[], Any]) -> None:
        self._qualified = qualified
        self._load = load

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._load()(*args, **kwargs)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._load(), attribute)

    def __instancecheck__(self, instance: Any) -> bool:
        return isinstance(instance, self._load())

    def __subclasscheck__(self, subclass: type) -> bool:
        return issubclass(subclass, self._load())

    def __repr__(self) -> str:
        return f"<deferred {self._qualified}>"


def defer_namespace_packages() -> None:
    """Register the Lance REST namespace packages with their ``__init__``s deferred.

    ``import lancedb`` imports names from ``lance_namespace``, whose ``__init__`` imports
    every model of ``lance_namespace_urllib3_client`` (~150 pydantic classes, ~0.15 s),
    and that client's ``__init__`` its nine API modules (~370 methods each wrapped in
    pydantic's ``validate_call``, ~1 s). A local index uses none of them. Here each name
    LanceDB imports from ``lance_namespace`` loads alone: a re-exported model from its own
    module, an error from ``lance_namespace.errors``, and ``LanceNamespace`` and
    ``connect`` (defined by the ``__init__`` itself) as stand-ins. Any other use of these
    packages runs their ``__init__``s then, once.
    """
    defer_init(NAMESPACE_CLIENT)
    client = sys.modules.get(NAMESPACE_CLIENT)
    defer_init(NAMESPACE_MODELS, locations=getattr(client, "__path__", None))
    defer_init(NAMESPACE, home=_namespace_home, stand_ins=("LanceNamespace", "connect"))


def _namespace_home(attribute: str) -> str | None:
    """The module a name of ``lance_namespace`` comes from, by the packages' own layout:
    errors from ``errors``; a model ``ListTablesResponse`` from ``models.list_tables_response``."""
    if attribute.endswith("Error") or attribute == "ErrorCode":
        return f"{NAMESPACE}.errors"
    if not attribute[:1].isupper():
        return None
    return f"{NAMESPACE_MODELS}.{_snake_case(attribute)}"


def _snake_case(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


# --- ``import lancedb`` without the work it does for classes it never uses here ---------

LANCEDB = "lancedb"
EMBEDDINGS = f"{LANCEDB}.embeddings"
# The two names LanceDB's own modules import from ``lancedb.embeddings``, whose ``__init__``
# imports its ~20 embedding providers (OpenAI, Cohere, SigLIP...; ~60 ms) that a local index
# given its vectors never calls; any other name of the package runs that ``__init__``.
_EMBEDDINGS_HOME = {
    "EmbeddingFunctionConfig": f"{EMBEDDINGS}.base",
    "EmbeddingFunctionRegistry": f"{EMBEDDINGS}.registry",
}


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
        where = getattr(module, "__path__", None)
        defer_init(EMBEDDINGS, locations=where, home=_EMBEDDINGS_HOME.get)
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

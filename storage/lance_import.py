"""LanceDB without the start-up cost of a REST client the local index never calls.

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
from typing import Any

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

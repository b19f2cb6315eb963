"""Every command that opens a store takes ``--store postgresql://…`` (or the global one, or
``$MEMVISOR_STORE``), against the real test server; a bad one is one line naming the option,
and a URL's password is never printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import run_cli

SECRET = "hunter2-do-not-print"


def _with_password(url: str) -> str:
    # The test server trusts its socket, so any password connects; it must still never show.
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{SECRET}@")


def test_commands_read_and_write_the_postgresql_store(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = _with_password(postgres_url)
    data = ["--data-dir", str(tmp_path / "a"), "--user", "maya", "--store", url]
    outputs: list[str] = []
    added = run_cli(capsys, "memory", "add", "--subject", "maya", "--predicate", "lives_in",
                    "--object", "Oslo", *data, "--json")  # fmt: skip
    assert added.code == 0, added.err
    note = run_cli(capsys, "memory", "add", "--text", "The allotment opens at nine", *data)
    assert note.code == 0, note.err
    # another data directory, the global option: the same records
    other = ["--data-dir", str(tmp_path / "b"), "--user", "maya"]
    listed = run_cli(capsys, "--store", url, "memory", "list", *other, "--json")
    assert listed.code == 0, listed.err
    assert [f["object"] for f in listed.json()["facts"]] == ["Oslo"]
    assert not (tmp_path / "a" / "memvisor.duckdb").exists()  # nothing embedded was made
    for args in (
        ("memory", "search", "allotment", *data),
        ("memory", "export", *data),
        ("health", *data),
        ("keys", "create", *data),
        ("keys", "list", *data),
        ("trace", "last", *data),
    ):
        result = run_cli(capsys, *args)
        assert result.code in (0, 1) and "Traceback" not in result.err, (args, result.err)
        outputs += [result.out, result.err]
    assert "allotment" in outputs[0]
    assert '"object": "Oslo"' in outputs[2]
    assert all(SECRET not in text for text in outputs + [added.out, listed.out, note.err])


def test_the_environment_names_the_store_and_embedded_overrides_it(
    postgres_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = ["--data-dir", str(tmp_path / "a"), "--user", "sam"]
    monkeypatch.setenv("MEMVISOR_STORE", postgres_url)
    added = run_cli(capsys, "memory", "add", "--subject", "sam", "--predicate", "likes",
                    "--object", "tea", *data)  # fmt: skip
    assert added.code == 0, added.err
    on_server = run_cli(capsys, "memory", "list", *data, "--json").json()
    assert [f["object"] for f in on_server["facts"]] == ["tea"]
    embedded = run_cli(capsys, "memory", "list", *data, "--store", "embedded", "--json").json()
    assert embedded["facts"] == []


@pytest.mark.parametrize(
    ("store", "says"),
    [
        ("mysql://u:{secret}@h/db", "--store: unknown store 'mysql://u:***@h/db'"),
        ("postgresql://u:{secret}%zz@/db?host=/none", "--store: not a PostgreSQL URL"),
        ("  ", "--store is empty"),
    ],
)
def test_a_bad_store_is_one_line_naming_the_option_without_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store: str, says: str
) -> None:
    url = store.format(secret=SECRET)
    for command in (("memory", "list"), ("keys", "create"), ("serve",), ("mcp",)):
        result = run_cli(capsys, *command, "--data-dir", str(tmp_path), "--store", url)
        assert result.code == 1, (command, result.err)
        assert result.err.startswith(f"error: {says}") and result.err.count("\n") == 1
        assert SECRET not in result.err + result.out


def test_a_server_that_refuses_is_one_line_naming_the_option(
    postgres_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    missing = _with_password(postgres_url).replace("/memvisor_test?", "/no_such_db?")
    result = run_cli(capsys, "memory", "list", "--data-dir", str(tmp_path), "--store", missing)
    assert result.code == 1 and result.err.count("\n") == 1
    assert result.err.startswith("error: --store: cannot use the PostgreSQL store")
    assert '"no_such_db" does not exist' in result.err and SECRET not in result.err
    monkeypatch.setenv("MEMVISOR_STORE", missing)
    result = run_cli(capsys, "memory", "list", "--data-dir", str(tmp_path))
    assert result.code == 1 and result.err.startswith("error: $MEMVISOR_STORE: cannot use")
    assert SECRET not in result.err

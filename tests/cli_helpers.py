"""Run the ``memvisor`` CLI in-process and capture exit code, stdout and stderr."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from memvisor.agent.cli import main


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    capsys.readouterr()
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)

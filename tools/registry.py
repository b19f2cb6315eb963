"""Tools are typed functions: schema from the signature (via pydantic), description from the
docstring, the first parameter (a ``ToolContext``) hidden. ``ToolRegistry.call`` validates the
model's arguments before running a tool and turns every failure into ``Error: ...`` text; only
``ToolControl`` exceptions escape."""

from __future__ import annotations

import contextlib
import difflib
import inspect
import json
import math
import os
import re
import sys
import traceback
import types
import typing
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Annotated, Any, get_args, get_origin

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaError
from jsonschema.exceptions import best_match
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.json_schema import PydanticJsonSchemaWarning
from pydantic_core import to_jsonable_python

from memvisor.errors import ToolControl, ToolDefinitionError, ToolError, UserError
from memvisor.storage.logger import logger
from memvisor.tools.context import ToolContext

_TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# A model that sends a 10k-character value of the wrong type must not get it echoed back whole.
_MAX_MESSAGE_CHARS = 300
_MAX_ERRORS_SHOWN = 3
# Deeper arguments are no tool's input, and would exhaust the recursion of the code below.
MAX_NESTING = 32
# A number a tool stores must fit a 64-bit column; bigger ones are refused before any tool.
_INT_RANGE = (-(2**63), 2**63 - 1)
# A wrong value longer than this is described by its size, not echoed. Set by hand.
_LONG_VALUE_CHARS = 60
# The arguments of one call, as JSON: the largest built-in call (a recipe of 30 steps of 500
# characters) is about 16,000; past this a call is refused before it is decoded. Set by hand.
MAX_ARGUMENT_CHARS = 20_000
# Keywords whose values are data, not sub-schemas: never strip or rewrite inside them.
_LITERAL_KEYWORDS = frozenset({"default", "enum", "const", "examples", "required"})
_NAMED_SCHEMAS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})


class ToolResult(BaseModel):
    """What one tool call produced; ``content`` is what the model reads."""

    name: str
    ok: bool
    content: str
    # None on success; otherwise the kind of failure: "unknown_tool", "invalid_arguments",
    # or the class name of the exception the tool raised (e.g. "ToolError").
    error: str | None = None


def tool(
    fn: Callable[..., Any] | None = None, *, name: str | None = None, shed: int | None = None
) -> Any:
    """Mark a function as a tool (``@tool`` or ``@tool(name=..., shed=...)``); the function is
    unchanged. ``shed``: when even bare schemas overflow a small window, tools with a ``shed``
    rank leave the offer lowest rank first (they stay callable by name); None: always offered."""

    def mark(f: Callable[..., Any]) -> Callable[..., Any]:
        setattr(f, "__memvisor_tool__", name or f.__name__)  # noqa: B010 - functions lack this attr
        setattr(f, "__memvisor_shed__", shed)  # noqa: B010
        return f

    return mark(fn) if fn is not None else mark


@dataclass(frozen=True)
class Tool:
    """One tool: its model-facing spec plus what is needed to check and run a call."""

    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., Any]
    args_model: type[BaseModel]
    validator: Draft202012Validator  # for ``parameters``
    shed: int | None = None  # see ``tool``

    @classmethod
    def from_function(cls, fn: Callable[..., Any], *, name: str | None = None) -> Tool:
        """Build a tool, refusing anything the model could not call correctly."""
        name = name or getattr(fn, "__memvisor_tool__", None) or getattr(fn, "__name__", None)
        if not isinstance(name, str) or not _TOOL_NAME.match(name):
            raise ToolDefinitionError(
                f"tool name {name!r} is invalid: use 1-64 letters, digits, '_' or '-'"
            )
        where = f"tool {name!r}"
        if inspect.iscoroutinefunction(fn):
            raise ToolDefinitionError(f"{where} is async; tools are plain (sync) functions")
        description = inspect.getdoc(fn)
        if not description:
            raise ToolDefinitionError(
                f"{where} has no docstring; the docstring is the description the model reads, "
                "so write one with a good and a bad example"
            )
        model = _arguments_model(fn, name, where)
        parameters = _parameters_schema(model, where)
        validator = Draft202012Validator(parameters)
        shed = getattr(fn, "__memvisor_shed__", None)
        return cls(name, description, parameters, fn, model, validator, shed)

    def spec(self) -> dict[str, Any]:
        """The OpenAI/Ollama function-tool entry offered to the model."""
        function = {"name": self.name, "description": self.description}
        return {"type": "function", "function": function | {"parameters": self.parameters}}

    def signature_hint(self) -> str:
        """A one-line shape of the arguments, e.g. ``{"subject": string, "tag"?: string}``."""
        props = self.parameters.get("properties", {})
        required = self.parameters.get("required", [])
        parts = [f'"{p}": {_short_type(props[p])}' for p in props if p in required]
        for p, schema in props.items():
            if p not in required:
                default = ""
                if "default" in schema:
                    default = " = " + _clip(json.dumps(schema["default"], ensure_ascii=False), 40)
                parts.append(f'"{p}"?: {_short_type(schema)}{default}')
        return "{" + ", ".join(parts) + "}"

    def parse_arguments(self, arguments: Any) -> dict[str, Any]:
        """Check the model's arguments against the schema, then coerce them; ToolError if bad."""
        args = _decode_arguments(arguments)
        _check_bounds(args)
        errors = list(self.validator.iter_errors(args))
        if errors:
            first = best_match(errors)
            ordered = [first] + [e for e in errors if e is not first]
            raise ToolError("; ".join(_describe(e) for e in ordered[:_MAX_ERRORS_SHOWN]))
        try:
            model = self.args_model.model_validate(args)
        except ValidationError as exc:
            raise ToolError(
                "; ".join(
                    _clip(f"{'/'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}")
                    for e in exc.errors()[:_MAX_ERRORS_SHOWN]
                )
            ) from exc
        return {field: getattr(model, field) for field in type(model).model_fields}


class ToolRegistry:
    """The tools offered to the model, by name, in registration order."""

    def __init__(self, tools: Iterable[Callable[..., Any] | Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for fn in tools:
            self.register(fn)

    def register(self, fn: Callable[..., Any] | Tool, *, name: str | None = None) -> Tool:
        """Add a tool; a duplicate name is refused."""
        built = fn if isinstance(fn, Tool) else Tool.from_function(fn, name=name)
        if built.name in self._tools:
            raise ToolDefinitionError(
                f"a tool named {built.name!r} is already registered; give one of them another "
                "name with @tool(name=...)"
            )
        self._tools[built.name] = built
        return built

    def register_module(self, module: types.ModuleType) -> list[str]:
        """Register every ``@tool``-marked function of a module, in definition order."""
        return [self.register(fn).name for fn in _marked_tools(module)]

    def get(self, name: str) -> Tool:
        found = self._tools.get(name) if isinstance(name, str) else None
        if found is None:
            message = f"unknown tool {name!r}; available tools: {', '.join(self._tools) or 'none'}"
            close = difflib.get_close_matches(str(name), list(self._tools), n=1)
            raise ToolError(message + (f"; did you mean {close[0]!r}?" if close else ""))
        return found

    def names(self) -> list[str]:
        return list(self._tools)

    def shed_order(self) -> list[str]:
        """Tools that may leave a small window's offer, the first to go first."""
        ranked = [t for t in self._tools.values() if t.shed is not None]
        return [t.name for t in sorted(ranked, key=lambda t: (t.shed, t.name))]

    def specs(self) -> list[dict[str, Any]]:
        """What the model is offered (and what ``memvisor tools list`` prints)."""
        return [t.spec() for t in self._tools.values()]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def call(self, name: str, arguments: Any, ctx: ToolContext) -> ToolResult:
        """Validate, run and render one call; never raises except a ``ToolControl``."""
        try:
            found = self.get(name)
        except ToolError as exc:
            return _failed(str(name), str(exc), "unknown_tool")
        try:
            kwargs = found.parse_arguments(arguments)
        except Exception as exc:  # ToolError, or a validator tripping over exotic input
            message = f"invalid arguments for {found.name}: {_message(exc)}"
            return _failed(
                found.name, f"{message}; expected {found.signature_hint()}", "invalid_arguments"
            )
        try:
            content = _render(found.fn(ctx, **kwargs))
        except ToolControl:
            raise
        except Exception as exc:
            if not isinstance(exc, ToolError):  # a bug in the tool, not a mistake by the model
                ids = {k: getattr(ctx, k, None) for k in ("trace_id", "user_id", "session_id")}
                # The type and where, never the message or a traceback with variable values:
                # both can hold the model's raw arguments (a card number, a password).
                logger.bind(**ids).warning(
                    "tool {} raised {} at {}", found.name, type(exc).__name__, _where(exc)
                )
            return _failed(found.name, _message(exc), type(exc).__name__)
        return ToolResult(name=found.name, ok=True, content=content)

    def load_entry_points(self, group: str = "memvisor.tools", *, force: bool = False) -> list[str]:
        """Register third-party tools from installed packages; skipped under pytest.

        An entry point names a tool function, a list of them, or a module whose ``@tool``
        functions are all registered. A plugin is added whole or not at all.
        """
        if not force and _under_pytest():
            return []
        loaded: list[str] = []
        for ep in metadata.entry_points(group=group):
            where = f"tool plugin {ep.name!r} ({ep.value})"
            try:
                target = ep.load()
            except Exception as exc:
                raise UserError(
                    f"{where} failed to import ({type(exc).__name__}: {exc}); "
                    "fix or uninstall the package that provides it"
                ) from exc
            try:
                built = [
                    fn if isinstance(fn, Tool) else Tool.from_function(fn)
                    for fn in _plugin_functions(target)
                ]
            except UserError as exc:
                raise ToolDefinitionError(f"{where}: {exc}") from exc
            names = [t.name for t in built]
            clash = sorted({n for n in names if n in self._tools or names.count(n) > 1})
            if clash:
                raise ToolDefinitionError(
                    f"{where} defines tools already registered: {', '.join(clash)}"
                )
            loaded += [self.register(t).name for t in built]
        return loaded


def _failed(name: str, message: str, kind: str) -> ToolResult:
    return ToolResult(name=name, ok=False, content=f"Error: {message}", error=kind)


def _under_pytest() -> bool:
    return "PYTEST_CURRENT_TEST" in os.environ or "pytest" in sys.modules


def _marked_tools(module: types.ModuleType) -> list[Callable[..., Any]]:
    marked = (v for v in vars(module).values() if callable(v) and hasattr(v, "__memvisor_tool__"))
    return list(dict.fromkeys(marked))  # a tool bound to two names registers once


def _plugin_functions(target: Any) -> list[Any]:
    if isinstance(target, types.ModuleType):
        found = _marked_tools(target)
        if not found:
            raise ToolDefinitionError("the module has no @tool functions")
        return found
    if isinstance(target, list | tuple):
        return list(target)
    return [target]


def _arguments_model(fn: Callable[..., Any], name: str, where: str) -> type[BaseModel]:
    params = list(inspect.signature(fn).parameters.values())
    hints = _parameter_hints(fn, where)
    if not params or not _is_context(hints.get(params[0].name)):
        raise ToolDefinitionError(
            f"{where}: the first parameter must be annotated `ToolContext` "
            "(it is hidden from the model and carries the user, session and store)"
        )
    fields: dict[str, Any] = {}
    for p in params[1:]:
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            raise ToolDefinitionError(f"{where}: parameter {p.name!r} must be a named parameter")
        if p.name.startswith(("_", "model_")) or hasattr(BaseModel, p.name):
            raise ToolDefinitionError(
                f"{where}: parameter name {p.name!r} clashes with pydantic internals; rename it"
            )
        if p.name not in hints:
            raise ToolDefinitionError(f"{where}: parameter {p.name!r} has no type annotation")
        default = ... if p.default is p.empty else p.default
        fields[p.name] = (_str_metadata_as_description(hints[p.name]), default)
    config = ConfigDict(extra="forbid", protected_namespaces=())
    try:
        model: type[BaseModel] = create_model(f"{name}_arguments", __config__=config, **fields)
    except Exception as exc:
        raise ToolDefinitionError(f"{where}: cannot build its arguments ({exc})") from exc
    for field, info in model.model_fields.items():
        if not info.description:
            raise ToolDefinitionError(
                f"{where}: parameter {field!r} has no description; annotate it as "
                f'Annotated[<type>, "what it is, with an example"] or '
                "Annotated[<type>, Field(description=...)]"
            )
    return model


def _parameter_hints(fn: Callable[..., Any], where: str) -> dict[str, Any]:
    # Resolve only the parameters: a return type imported under TYPE_CHECKING must not matter.
    target = getattr(fn, "__func__", fn)
    raw = {k: v for k, v in getattr(target, "__annotations__", {}).items() if k != "return"}
    globalns = getattr(inspect.unwrap(target), "__globals__", {})
    try:
        holder = types.SimpleNamespace(__annotations__=raw)
        return typing.get_type_hints(holder, globalns=globalns, include_extras=True)
    except Exception as exc:
        raise ToolDefinitionError(
            f"{where}: cannot resolve its parameter annotations ({exc}); "
            "define the types they use at module level"
        ) from exc


def _is_context(annotation: Any) -> bool:
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return isinstance(annotation, type) and issubclass(annotation, ToolContext)


def _str_metadata_as_description(annotation: Any) -> Any:
    """``Annotated[T, "text"]`` becomes ``Annotated[T, Field(description="text")]``."""
    if get_origin(annotation) is not Annotated:
        return annotation
    base, *extra = get_args(annotation)
    extra = [Field(description=m) if isinstance(m, str) else m for m in extra]
    return Annotated[(base, *extra)]  # type: ignore[valid-type]


def _parameters_schema(model: type[BaseModel], where: str) -> dict[str, Any]:
    try:
        with warnings.catch_warnings():
            # A default that is not JSON (e.g. an object) is left out of the schema; that is fine.
            warnings.simplefilter("ignore", PydanticJsonSchemaWarning)
            raw = model.model_json_schema()
    except Exception as exc:
        raise ToolDefinitionError(
            f"{where}: its parameter types have no JSON Schema ({exc})"
        ) from exc
    try:  # small local models follow a flat schema better than $ref
        schema = _tidy({k: v for k, v in raw.items() if k != "$defs"}, raw.get("$defs", {}))
    except RecursionError:  # a recursive model keeps its $defs
        schema = _tidy(raw, None)
    schema["properties"] = {
        name: _ordered(prop, ("type", "description")) if isinstance(prop, dict) else prop
        for name, prop in schema.get("properties", {}).items()
    }
    return _ordered(schema, ("type", "properties", "required", "additionalProperties"))


def _ordered(schema: dict[str, Any], head: tuple[str, ...]) -> dict[str, Any]:
    """Readable key order for the model: the keys in ``head`` first."""
    ordered = {k: schema[k] for k in head if k in schema}
    return ordered | {k: v for k, v in schema.items() if k not in ordered}


def _tidy(node: Any, defs: dict[str, Any] | None, stack: frozenset[str] = frozenset()) -> Any:
    """Drop pydantic's titles and, given ``defs``, inline ``$ref``s (RecursionError if cyclic)."""
    if isinstance(node, list):
        return [_tidy(n, defs, stack) for n in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if defs is not None and isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = ref.removeprefix("#/$defs/")
        if target in stack or target not in defs:
            raise RecursionError(target)
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        return _tidy(defs[target], defs, stack | {target}) | _tidy(siblings, defs, stack)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _NAMED_SCHEMAS and isinstance(value, dict):
            out[key] = {name: _tidy(sub, defs, stack) for name, sub in value.items()}
        else:
            out[key] = value if key in _LITERAL_KEYWORDS else _tidy(value, defs, stack)
    return out


def _short_type(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "|".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    if "anyOf" in schema:
        return "|".join(_short_type(s) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "array":
        return f"list[{_short_type(schema.get('items', {}))}]"
    if isinstance(kind, list):
        return "|".join(kind)
    return kind if isinstance(kind, str) else "any"


def _decode_arguments(arguments: Any) -> dict[str, Any]:
    if arguments is None:
        return {}
    if isinstance(arguments, Mapping):  # measured as JSON: first no nesting that breaks that
        _check_bounds(dict(arguments))
        size = len(json.dumps(arguments, ensure_ascii=False, default=str))
    else:
        size = len(arguments) if isinstance(arguments, str | bytes | bytearray) else 0
    if size > MAX_ARGUMENT_CHARS:
        raise ToolError(
            f"arguments are {size:,} characters; the limit is {MAX_ARGUMENT_CHARS:,}: send "
            "shorter values (a passage holds 8,000 characters; split longer text)"
        )
    if isinstance(arguments, bytes | bytearray):
        arguments = bytes(arguments).decode("utf-8", errors="replace")
    if isinstance(arguments, str):
        text = arguments.strip()
        if not text:
            return {}
        try:
            arguments = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ToolError(
                f"arguments are not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            ) from exc
        if isinstance(arguments, str):  # some local models JSON-encode the arguments twice
            with contextlib.suppress(json.JSONDecodeError):
                arguments = json.loads(arguments)
    if isinstance(arguments, Mapping):
        return dict(arguments)
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}
    got = kinds.get(type(arguments), type(arguments).__name__)
    raise ToolError(f"arguments must be a JSON object, got {got}")


def _check_bounds(args: dict[str, Any]) -> None:
    """Refuse nesting and numbers no tool takes, walking without recursion; ToolError if so."""
    stack: list[tuple[Any, str, int]] = [(v, str(k), 1) for k, v in args.items()]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_NESTING:
            argument = _clip(where.split("/", 1)[0], 60)
            raise ToolError(
                f"{argument}: nested more than {MAX_NESTING} levels deep; send flat values"
            )
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
            raise ToolError(
                f"{_clip(where, 60)}: a {len(str(abs(value)))}-digit number is out of range"
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ToolError(f"{_clip(where, 60)}: NaN and infinity are not accepted; send a number")
        if isinstance(value, Mapping):
            stack += [(v, f"{where}/{k}", depth + 1) for k, v in value.items()]
        elif isinstance(value, list | tuple):
            stack += [(v, f"{where}/{n}", depth + 1) for n, v in enumerate(value)]


def _where(exc: BaseException) -> str:
    """The innermost frame of ``exc``: ``file.py:LINE in function``."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{os.path.basename(last.filename)}:{last.lineno} in {last.name}"


def _describe(error: SchemaError) -> str:
    where = "/".join(str(p) for p in error.absolute_path)
    message = error.message
    if isinstance(error.instance, str) and len(error.instance) > _LONG_VALUE_CHARS:
        # "'aaaa…' is too long" clipped to 300 characters never said what was wrong
        size = f"a string of {len(error.instance):,} characters"
        message = message.replace(repr(error.instance), size)
    return _clip(f"{where}: {message}" if where else message)


def _message(exc: BaseException) -> str:
    text, kind = str(exc), type(exc).__name__
    if isinstance(exc, ToolError):
        return text or kind
    return f"{kind}: {text}" if text else kind


def _clip(text: str, limit: int = _MAX_MESSAGE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _render(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(to_jsonable_python(value, fallback=str), ensure_ascii=False)

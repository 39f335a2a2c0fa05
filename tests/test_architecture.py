"""The house keeps its drawing (docs/architecture.md): data flows one way through the Rust
core's layers, engines never import algorithms or the planning layer, no two modules import
each other (directly or round a longer circle), and the CLI is assembled in one file."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import click

SRC = Path(__file__).resolve().parents[1] / "crates" / "netcoll-core" / "src"

# The layers, bottom up; a module may import its own layer or lower ones only.
LAYERS = {
    "error": 0,
    "guard": 1,
    "params": 1,
    "spec": 2,
    "schedule": 2,
    "models": 2,
    "topology": 3,
    "routing": 4,
    "engines": 5,
    "algorithms": 6,
    "plan": 7,
    # The fuzz targets' bodies: a harness over the parsers, above everything it feeds.
    "fuzzing": 8,
}

USE = re.compile(r"\b(crate|super)((?:::\w+)+)")


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return "::".join(parts)


PATH_MOD = re.compile(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;')


def _modules() -> dict[str, Path]:
    """Module -> file, by the file's place; a `#[path = "f"] mod m;` (the flit engine's
    folders) names file `f` module `m` of its declarer, and a `mod.rs` so placed carries its
    own children along."""
    modules = {_module_of(p): p for p in SRC.rglob("*.rs")}
    for module, path in list(modules.items()):
        for rel, name in PATH_MOD.findall(path.read_text()):
            target = (path.parent / rel).resolve()
            old = _module_of(target)
            new = f"{module}::{name}" if module else name
            moved = {m: f for m, f in modules.items() if m == old or m.startswith(old + "::")}
            if target.name != "mod.rs":
                moved = {old: target}
            for m, f in moved.items():
                del modules[m]
                modules[new + m[len(old) :]] = f
    return modules


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest module that is a prefix of the path `name` (None for the crate root)."""
    parts = name.split("::")
    while parts:
        if "::".join(parts) in modules:
            return "::".join(parts)
        parts.pop()
    return None


def _parent(module: str, path: Path) -> str:
    """What `super` means in a file: the parent of its module (mod.rs files are their dir)."""
    return module.rsplit("::", 1)[0] if "::" in module else ""


def _code(text: str) -> str:
    """The Rust text without comments and string literals (paths in docs do not count)."""
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def import_graph() -> dict[str, set[str]]:
    """Module -> modules it names through `crate::` or `super::` paths (use lines and inline
    paths alike; a `use a::{b, c}` group counts its head)."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for root, tail in USE.findall(_code(path.read_text())):
            base = "" if root == "crate" else _parent(module, path)
            name = "::".join(x for x in (base, tail.strip(":")) if x)
            target = _resolve(name, modules)
            if target and target != module and not module.startswith(target + "::"):
                graph[module].add(target)
    return graph


def _layer(module: str) -> str:
    return module.split("::")[0]


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, or None (depth-first search with colours)."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        colour[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if colour.get(n) == 1:
                return stack[stack.index(n) :] + [n]
            if not colour.get(n) and (found := visit(n)):
                return found
        stack.pop()
        colour[m] = 2
        return None

    for m in sorted(graph):
        if not colour.get(m) and (found := visit(m)):
            return found
    return None


def _is_test(module: str) -> bool:
    """Unit-test modules (compiled only under cfg(test)) may build fixtures from any layer:
    an engine's tests run it on schedules that real algorithms build."""
    return any(
        p == "tests" or p.startswith("tests_") or p.endswith("_tests") for p in module.split("::")
    )


def _checked_graph() -> dict[str, set[str]]:
    """The library's graph: no crate root (lib.rs only declares), no tests."""
    return {m: deps for m, deps in import_graph().items() if m and not _is_test(m)}


def test_the_graph_sees_the_known_arrows():
    g = import_graph()
    assert "spec" in g["topology::ibt"] and "params" in g["spec"]
    assert "engines::analytic" in g["plan::tune"] and "algorithms" in g["plan::tune"]
    # Files placed by `#[path]` keep their module names (engines/flit/router/router.rs).
    assert "engines::flit::network" in g["engines::flit::router"]
    assert "engines::flit::network" in g["engines::flit::exec::build"]


def test_no_module_imports_a_higher_layer():
    bad = [
        f"{m} -> {n}"
        for m, deps in _checked_graph().items()
        for n in deps
        if m and n and LAYERS[_layer(n)] > LAYERS[_layer(m)]
    ]
    assert not bad, "arrows running up the layers: " + ", ".join(sorted(bad))


def test_engines_never_import_algorithms_or_plan():
    bad = [
        f"{m} -> {n}"
        for m, deps in _checked_graph().items()
        for n in deps
        if _layer(m) == "engines" and _layer(n) in ("algorithms", "plan")
    ]
    assert not bad, ", ".join(sorted(bad))


def test_no_import_circle_between_modules():
    assert _cycle(_checked_graph()) is None


def test_no_import_circle_between_layers():
    layers: dict[str, set[str]] = {}
    for m, deps in _checked_graph().items():
        layers.setdefault(_layer(m), set()).update(_layer(n) for n in deps if n)
    for layer, deps in layers.items():
        deps.discard(layer)
    assert _cycle(layers) is None


def test_every_cli_module_is_registered_in_cli_init():
    """Each command defined in a cli/ module is reachable from the top-level group, and each
    module is registered by cli/__init__.py by name (``add_lazy("cmd", "module", "attr")``
    lines: the modules are imported when a command runs, cli/lazy.py; no import_module
    there)."""
    import netcoll.cli as cli

    reachable: set[int] = set()

    def walk(cmd: click.Command) -> None:
        reachable.add(id(cmd))
        if isinstance(cmd, click.Group):
            for sub in cmd.commands.values():
                walk(sub)

    walk(cli.app)
    init = Path(cli.__file__).read_text()
    assert "import_module" not in init
    imported = set(re.findall(r'add_lazy\("[^"]+", "(\w+)", "\w+"\)', init))
    for info in pkgutil.iter_modules(cli.__path__):
        module = importlib.import_module(f"netcoll.cli.{info.name}")
        commands = {
            name: obj
            for name, obj in vars(module).items()
            if isinstance(obj, click.Command) and obj.callback.__module__ == module.__name__
        }
        if not commands:  # a helper (common options, parameter types), not a command group
            continue
        assert info.name in imported, f"cli/{info.name}.py is not registered in cli/__init__.py"
        for name, obj in commands.items():
            assert id(obj) in reachable, f"netcoll.cli.{info.name}.{name} is not registered"

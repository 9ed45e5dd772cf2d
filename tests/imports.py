"""The project's import graph, read from the sources with `ast` (issue 23).

Every import counts: at module level, inside a function, under ``if TYPE_CHECKING``. An
import of a package's name (``from engine.wwe import state``) is an edge to the submodule
when that submodule exists, else to the package itself.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("engine", "companion", "hardware", "web")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = ROOT, folders=FOLDERS) -> dict[str, Path]:
    """Module name → source file, for every .py file under ``folders``."""
    return {module_name(p, root): p
            for folder in folders for p in sorted((root / folder).rglob("*.py"))}


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports(path: Path, module: str, known) -> list[tuple[int, str]]:
    """(line, imported module) for every import in ``path`` that names a module in ``known``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (_absolute(module, is_package, node.level, node.module) if node.level
                    else node.module)
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
            targets = subs if len(subs) == len(node.names) else [base, *subs]
        else:
            continue
        out += [(node.lineno, t) for t in targets if t in known and t != module]
    return out


def graph(root: Path = ROOT, folders=FOLDERS) -> dict[str, set[str]]:
    """Module → the project modules it imports."""
    known = modules(root, folders)
    return {m: {t for _, t in imports(p, m, known)} for m, p in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def declared_layers(init: Path) -> tuple[tuple[str, ...], ...]:
    """The ``LAYERS`` tuple a game package declares in its ``__init__.py`` (read, not run)."""
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "LAYERS"):
            return ast.literal_eval(node.value)
    raise LookupError(f"{init} declares no LAYERS")


def layer_violations(package: Path, root: Path = ROOT) -> list[str]:
    """Every import inside ``package`` that does not point down its declared order.

    The order is the LAYERS tuple read bottom first, each layer's modules in reading order:
    a module may import only modules listed before it. Every module of the package must be
    listed exactly once."""
    layers = declared_layers(package / "__init__.py")
    order = [m for layer in layers for m in layer]
    name = module_name(package / "__init__.py", root)
    known = modules(root, (str(package.relative_to(root)),))

    def own(module: str) -> str:  # engine.wwe.data.x -> data
        return module[len(name) + 1:].split(".")[0]

    listed = {own(m) for m in known if m != name}
    problems = [f"{m} is listed {order.count(m)} times" for m in sorted(set(order))
                if order.count(m) > 1]
    problems += [f"{m} is in no layer" for m in sorted(listed - set(order))]
    problems += [f"{m} is listed but is no module" for m in sorted(set(order) - listed)]
    rank = {m: i for i, m in enumerate(order)}
    for m, path in known.items():
        if m == name:
            continue  # the package itself is the top: it assembles the game module
        for line, target in imports(path, m, known):
            where = f"{path.relative_to(root)}:{line}"
            if target == name:
                problems.append(f"{where} imports the package itself")
            elif (own(target) != own(m) and own(m) in rank and own(target) in rank
                  and rank[own(target)] >= rank[own(m)]):
                problems.append(f"{where} imports {target}, which is not below it in LAYERS")
    return problems

"""Line numbers of every key and item in a YAML document, by field path."""

from __future__ import annotations

import yaml

# libyaml's parser when PyYAML was built with it (the wheels are): ~10x faster than the pure-Python one on a
# 300-assertion spec; both are YAML 1.1 safe loaders building the same data.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_with_lines(text: str) -> tuple[object, dict[tuple, int]]:
    """The document's data (as ``yaml.safe_load`` builds it) and its lines by field path, from one parse."""
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    finally:
        loader.dispose()
    return data, node_lines(root)


def node_lines(root: yaml.Node | None) -> dict[tuple, int]:
    """Map a field path like ``("assertions", 3, "condition", "value")`` to its 1-based line."""
    lines: dict[tuple, int] = {}

    def walk(node, path: tuple) -> None:
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                child = path + (key.value,)
                lines[child] = key.start_mark.line + 1
                walk(value, child)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, path + (i,))

    if root is not None:
        walk(root, ())
    return lines


def line_for(lines: dict[tuple, int], path: tuple) -> int | None:
    """The line of the deepest known prefix of ``path`` (a missing key reports its parent's line)."""
    path = tuple(path)
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path)


def format_path(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out

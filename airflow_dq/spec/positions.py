"""Line numbers of every key and item in a YAML document, by field path."""

from __future__ import annotations

import yaml


def node_lines(text: str) -> dict[tuple, int]:
    """Map a field path like ``("assertions", 3, "condition", "value")`` to its 1-based line."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
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

"""Inline SVG bar chart of dimension impact scores (no scripts, no fonts or images fetched)."""

from __future__ import annotations

from html import escape

BAR_HEIGHT = 22
GAP = 6
LABEL_WIDTH = 170
BAR_WIDTH = 360
VALUE_WIDTH = 300


def label_of(group: dict) -> str:
    if group.get("others"):
        return f"Others ({group.get('groups', 0)} groups)"
    value = group.get("value")
    return "NULL" if value is None else str(value)


def impact_chart(column: str, groups: list[dict]) -> str:
    """Horizontal bars, one per group; bar lengths are relative to the largest impact in the chart (the printed
    value is the absolute score, 0..1)."""
    top = max((float(g.get("impact") or 0.0) for g in groups), default=0.0)
    height = len(groups) * (BAR_HEIGHT + GAP) + GAP
    width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH
    parts = [f'<svg class="chart" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}"><title>Impact by {escape(column)}</title>']
    for i, g in enumerate(groups):
        y = GAP + i * (BAR_HEIGHT + GAP)
        impact = max(0.0, min(1.0, float(g.get("impact") or 0.0)))
        length = max(2.0, impact / top * BAR_WIDTH) if top > 0 and g.get("failing_rows") else 0.0
        css = "others" if g.get("others") else g.get("status", "pass")
        label = label_of(g)
        short = label if len(label) <= 24 else label[:23] + "…"
        text_y = y + BAR_HEIGHT * 0.7
        parts.append(f'<text x="{LABEL_WIDTH - 8}" y="{text_y:.1f}" text-anchor="end" class="lbl">'
                     f'{escape(short)}</text>')
        parts.append(f'<rect x="{LABEL_WIDTH}" y="{y}" width="{BAR_WIDTH}" height="{BAR_HEIGHT}" class="track"/>')
        parts.append(f'<rect x="{LABEL_WIDTH}" y="{y}" width="{length:.1f}" height="{BAR_HEIGHT}" class="bar {css}">'
                     f'<title>{escape(label)}: impact {impact:.4g}</title></rect>')
        parts.append(f'<text x="{LABEL_WIDTH + BAR_WIDTH + 8}" y="{text_y:.1f}" class="val">impact {impact:.3g} · '
                     f'{g.get("failing_rows", 0):,}/{g.get("total_rows", 0):,} failing</text>')
    parts.append("</svg>")
    return "".join(parts)

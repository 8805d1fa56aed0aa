"""SHACL shapes → data-quality assertions (seed 001): rdflib parses, the spec loader validates, Spark executes.

The light names (``ShaclShapes``, ``ShaclConfig``, ``is_shapes_path``) import without rdflib; the converter
(``convert_file``, ``convert_graph``, ``load_shapes``, ...) loads rdflib on first use.
"""

from airflow_dq.shacl.config import ShaclConfig
from airflow_dq.shacl.formats import SHAPES_SUFFIXES, is_shapes_path
from airflow_dq.shacl.source import ShaclShapes

_LAZY = {
    "Conversion": "airflow_dq.shacl.convert", "convert_file": "airflow_dq.shacl.convert",
    "convert_graph": "airflow_dq.shacl.convert", "load_shapes": "airflow_dq.shacl.convert",
    "parse_shapes": "airflow_dq.shacl.parser", "parse_shapes_text": "airflow_dq.shacl.parser",
    "ConversionReport": "airflow_dq.shacl.report",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ShaclConfig", "ShaclShapes", "SHAPES_SUFFIXES", "is_shapes_path", *_LAZY]

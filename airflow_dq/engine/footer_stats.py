"""Exact dataset facts from Parquet footers, read on the driver through the JVM's parquet-mr (no Spark job).

Answered only where the footer is exact for what Spark would compute over the whole dataset:
* the row count (sum of the row groups' row counts);
* a top-level column's null count, when every row group of every file records it;
* min/max of integer, decimal (over INT32/INT64) and date columns, when every row group that holds a non-null
  value records both (floating columns are never answered: footers say nothing about NaN).
Anything else, or any doubt (not a bare Parquet file relation, a column missing from a file, a footer that cannot
be read, more than ``MAX_FILES`` files), returns None and the value is computed by the fused scan instead.

Local files are read with pyarrow when it is installed (microseconds per footer); other file systems, or a driver
without pyarrow, go through the JVM's parquet-mr over py4j (about ten py4j calls per column chunk, so those footers
are only read while the number of column chunks stays under ``MAX_JVM_CHUNKS``).
"""

from __future__ import annotations

import datetime as _dt
import logging
from dataclasses import dataclass
from decimal import Decimal

from pyspark.sql import types as T

from airflow_dq.engine.context import first_line

log = logging.getLogger(__name__)

MAX_FILES = 256  # reading footers one by one on the driver stops paying off beyond this (a scan is parallel)
MAX_JVM_CHUNKS = 400
_EPOCH = _dt.date(1970, 1, 1)
_EARLIEST_SAFE_DATE = _dt.date(1900, 1, 1)  # older dates may be calendar-rebased by Spark; leave them to the scan


@dataclass
class ColumnFacts:
    nulls: int | None = 0  # None once a row group does not record its null count
    min: object = None
    max: object = None
    min_max_exact: bool = True
    has_values: bool = False

    def unknown(self) -> None:
        self.nulls, self.min_max_exact = None, False

    def fold(self, nulls: int | None, has_values: bool, has_min_max: bool, lo, hi) -> None:
        """One row group: its null count (None if unrecorded) and, when it holds values, its recorded min/max."""
        self.nulls = None if self.nulls is None or nulls is None else self.nulls + nulls
        if not self.min_max_exact or not has_values:
            return  # an all-null row group contributes no min/max
        if not has_min_max:
            self.min_max_exact = False
            return
        self.min = lo if self.min is None or lo < self.min else self.min
        self.max = hi if self.max is None or hi > self.max else self.max
        self.has_values = True


def _integer_ok(spark_type: T.DataType, physical: str, logical: str) -> bool:
    """Signed INT32/INT64 read by Spark as the same integer values (unsigned ones are widened, skip them)."""
    if physical not in ("INT32", "INT64"):
        return False
    if isinstance(spark_type, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return logical in ("", "NONE") or ("INT" in logical.upper() and "TRUE" in logical.upper())
    return False


def _min_max_kind(spark_type: T.DataType, physical: str, logical: str, scale: int | None) -> str | None:
    """'int' / 'decimal' / 'date' when footer min/max are exactly Spark's min/max for this column, else None."""
    if _integer_ok(spark_type, physical, logical):
        return "int"
    if physical in ("INT32", "INT64") and isinstance(spark_type, T.DecimalType) and logical.upper().startswith("DECIMAL") \
            and scale == spark_type.scale:
        return "decimal"
    if physical == "INT32" and isinstance(spark_type, T.DateType) and logical.upper().startswith("DATE"):
        return "date"
    return None


def _jvm_value(kind: str, value, scale: int | None):
    if kind == "int":
        return int(value)
    if kind == "decimal":
        return Decimal(int(value)).scaleb(-scale)
    return _EPOCH + _dt.timedelta(days=int(value))


def _is_bare_parquet_relation(df) -> bool:
    try:
        plan = df._jdf.queryExecution().analyzed()
        if str(plan.getClass().getSimpleName()) != "LogicalRelation":
            return False
        return "ParquetFileFormat" in str(plan.relation().fileFormat().getClass().getSimpleName())
    except Exception:  # not a HadoopFsRelation (a table of another kind, a view, Spark Connect...)
        return False


class FooterStats:
    """Lazily read footers of one dataset's files; ``rows()`` / ``column(name)`` give exact facts or None."""

    def __init__(self, spark, df, source):
        self.spark, self.df, self.source = spark, df, source
        self._loaded = False
        self._usable = False
        self._rows: int | None = None
        self._columns: dict[str, ColumnFacts] = {}
        self.files_read = 0
        self.reason: str | None = None

    def applicable(self) -> bool:
        if self.source.kind != "path" or (self.source.format or "parquet").lower() != "parquet":
            self.reason = "not a Parquet path source"
            return False
        if not _is_bare_parquet_relation(self.df):
            self.reason = "not a bare Parquet file relation"
            return False
        return True

    def load(self, columns: list[str]) -> None:
        """Read the footers once, keeping facts for ``columns`` (top-level names of the Spark schema)."""
        if self._loaded:
            return
        self._loaded = True
        if not self.applicable():
            return
        try:
            files = list(self.df.inputFiles())
            if not files or len(files) > MAX_FILES:
                self.reason = f"{len(files)} files (footers are read for 1..{MAX_FILES})"
                return
            partition_cols = {f.name for f in self.df._jdf.queryExecution().analyzed().relation()
                              .partitionSchema().fields()} if files else set()
            wanted = {f.name: f.dataType for f in self.df.schema.fields
                      if f.name in columns and f.name not in partition_cols}
            facts = {name: ColumnFacts() for name in wanted}
            rows = 0
            for path in files:
                rows += self._read_file(path, wanted, facts)
            self._rows, self._columns, self._usable = rows, facts, True
            self.files_read = len(files)
        except Exception as exc:  # any doubt: the scan computes everything
            self.reason = f"footers not readable: {first_line(exc)}"
            log.info("Parquet footer statistics not used for %s: %s", self.source.entity, self.reason)

    def _read_file(self, path: str, wanted: dict, facts: dict) -> int:
        local = path[len("file:"):].lstrip("/") if path.startswith("file:") else None
        if local is not None:
            try:
                import pyarrow.parquet as pq
            except ImportError:
                pq = None
            if pq is not None:
                return self._read_with_pyarrow(pq, "/" + local, wanted, facts)
        return self._read_with_jvm(path, wanted, facts)

    @staticmethod
    def _read_with_pyarrow(pq, path: str, wanted: dict, facts: dict) -> int:
        from urllib.parse import unquote

        meta = pq.ParquetFile(unquote(path)).metadata
        names = [meta.schema.column(i).path for i in range(meta.num_columns)]
        rows = 0
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            rows += group.num_rows
            for name, spark_type in wanted.items():
                if name not in names or names.count(name) != 1:
                    facts[name].unknown()  # missing here (Spark adds NULLs) or nested: leave it to the scan
                    continue
                chunk = group.column(names.index(name))
                st = chunk.statistics
                if st is None:
                    facts[name].unknown()
                    continue
                logical = st.logical_type
                scale = getattr(logical, "scale", None)
                if scale is None and str(logical).startswith("Decimal"):
                    import json

                    scale = json.loads(logical.to_json()).get("scale")
                kind = _min_max_kind(spark_type, chunk.physical_type, str(logical.type), scale)
                nulls = st.null_count if st.has_null_count else None
                has_values = nulls is None or nulls < group.num_rows
                if kind is None:
                    facts[name].fold(nulls, False, False, None, None)
                    facts[name].min_max_exact = False
                    continue
                facts[name].fold(nulls, has_values, st.has_min_max, st.min if st.has_min_max else None,
                                 st.max if st.has_min_max else None)
        return rows

    def _read_with_jvm(self, path: str, wanted: dict, facts: dict) -> int:
        jvm = self.spark.sparkContext._jvm
        conf = self.spark.sparkContext._jsc.hadoopConfiguration()
        input_file = jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(jvm.org.apache.hadoop.fs.Path(path), conf)
        reader = jvm.org.apache.parquet.hadoop.ParquetFileReader.open(input_file)
        try:
            footer = reader.getFooter()
        finally:
            reader.close()
        schema = footer.getFileMetaData().getSchema()
        blocks = footer.getBlocks()
        if blocks.size() * len(wanted) > MAX_JVM_CHUNKS:
            raise ValueError(f"{blocks.size()} row groups x {len(wanted)} columns: too many to read through py4j")
        index, kinds = {}, {}
        for name, spark_type in wanted.items():
            if not schema.containsField(name) or not schema.getType(name).isPrimitive() or \
                    str(schema.getType(name).getRepetition().name()) == "REPEATED":
                facts[name].unknown()
                continue
            ptype = schema.getType(name).asPrimitiveType()
            logical = ptype.getLogicalTypeAnnotation()
            text = str(logical.toString()) if logical is not None else ""
            scale = int(logical.getScale()) if text.startswith("DECIMAL") else None
            index[name] = schema.getFieldIndex(name)
            kinds[name] = (_min_max_kind(spark_type, str(ptype.getPrimitiveTypeName().name()), text, scale), scale)
        rows = 0
        for block in blocks:
            group_rows = int(block.getRowCount())
            rows += group_rows
            chunks = block.getColumns()
            for name, i in index.items():
                st = chunks.get(i).getStatistics()
                if st is None or st.isEmpty():
                    facts[name].unknown()
                    continue
                nulls = int(st.getNumNulls()) if st.isNumNullsSet() else None
                kind, scale = kinds[name]
                if kind is None:
                    facts[name].fold(nulls, False, False, None, None)
                    facts[name].min_max_exact = False
                    continue
                has_values = bool(st.hasNonNullValue())
                lo = _jvm_value(kind, st.genericGetMin(), scale) if has_values else None
                hi = _jvm_value(kind, st.genericGetMax(), scale) if has_values else None
                facts[name].fold(nulls, has_values, has_values, lo, hi)
        return rows

    def rows(self) -> int | None:
        return self._rows if self._usable else None

    def nulls(self, column: str) -> int | None:
        facts = self._columns.get(column) if self._usable else None
        return facts.nulls if facts is not None else None

    def extreme(self, which: str, column: str):
        """(True, value) when the footer min/max is exact (value None for an all-null column), else (False, None)."""
        facts = self._columns.get(column) if self._usable else None
        if facts is None or not facts.min_max_exact:
            return False, None
        value = facts.min if which == "min" else facts.max
        if isinstance(value, _dt.date) and facts.min is not None and facts.min < _EARLIEST_SAFE_DATE:
            return False, None
        return True, value

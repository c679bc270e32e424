"""The bulk import's manifest: title, key, category, effective date and groups per file or folder.

YAML, a list of entries:

    - path: "people/**"              # a file, a folder, or a glob; ** spans folders
      groups: [people-team]          # a list, or "a, b"
      category: People
    - path: finance/travel.docx
      key: travel
      title: Travel and Expenses Policy
      effective_from: 2026-04-01

or CSV with a header row naming the columns (any order; only `path` is required):

    path,key,title,category,effective_from,groups
    people/**,,,People,,people-team
    finance/travel.docx,travel,Travel and Expenses Policy,,2026-04-01,

Paths are relative to the imported folder (or the archive's root); `*` and `?` stay within one
folder, `**` spans folders, a folder's name stands for everything under it. Entries apply in
order, and for each field the last entry that matches a file and sets it wins; an empty value
sets nothing. Every value is checked against the policy's own limits, and every problem names
the manifest and its line ("manifest.csv line 7: effective_from '2026-13-01' is not a date
(YYYY-MM-DD)"). A problem in an entry refuses the files it matches (they are never imported
with the values it failed to set, such as their groups); a manifest that cannot be read at all
(not YAML or CSV, an unknown CSV column) refuses the whole import.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from django.contrib.auth.models import Group
from django.core.validators import slug_re

from .models import Policy

FIELDS = ("path", "title", "key", "category", "effective_from", "groups")
MANIFEST_MAX_BYTES = 5 * 1024 * 1024
PATH_MAX_CHARS = 1000
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_GROUP_SEPARATORS = re.compile(r"[,;]")

# a manifest at the root of an imported folder or archive is read as its manifest, not imported
MANIFEST_NAMES = ("manifest.yaml", "manifest.yml", "manifest.csv")


class ManifestError(ValueError):
    """A manifest that cannot be read at all; the message names the file and, where known, the line."""


class FieldValueError(ValueError):
    """An invalid value; the message names the field (or option) and the limit."""


def limits() -> dict[str, int]:
    """The longest value of each field, from the models (one source for the limits)."""
    return {
        "title": Policy._meta.get_field("title").max_length,
        "key": Policy._meta.get_field("key").max_length,
        "category": Policy._meta.get_field("category").max_length,
        "group": Group._meta.get_field("name").max_length,
        "path": PATH_MAX_CHARS,
    }


def field_value(field: str, raw, *, label: str | None = None):
    """`raw` (a string, or a list of names for groups) checked and normalised for `field`; None
    when empty. `label` names the field in messages (an option such as '--category')."""
    label = label or field
    if field == "groups":
        return _groups_value(raw, label=label)
    if not isinstance(raw, str):
        raise FieldValueError(f"{label} must be text, not a list or a mapping")
    value = " ".join(raw.split())
    if not value:
        return None
    if field == "effective_from":
        try:
            if not _DATE.match(value):
                raise ValueError
            return dt.date.fromisoformat(value)
        except ValueError:
            raise FieldValueError(f"{label} {_shown(value)} is not a date (YYYY-MM-DD)") from None
    limit = limits()[field]
    if len(value) > limit:
        raise FieldValueError(f"{label} is {len(value)} characters, the limit is {limit}")
    if field == "key" and not slug_re.match(value):
        raise FieldValueError(
            f"{label} {_shown(value)} may hold only letters, digits, hyphens and underscores (for example 'travel-policy')"
        )
    if field == "path":
        return _pattern_value(raw.strip(), label=label)
    return value


def _groups_value(raw, *, label: str) -> tuple[str, ...] | None:
    if isinstance(raw, str):
        names = _GROUP_SEPARATORS.split(raw)
    elif isinstance(raw, list) and all(isinstance(name, str) for name in raw):
        names = raw
    else:
        raise FieldValueError(f"{label} must be a list of group names or names separated by commas")
    names = [" ".join(name.split()) for name in names]
    names = [name for name in names if name]
    if not names:
        return None
    limit = limits()["group"]
    for name in names:
        if len(name) > limit:
            raise FieldValueError(f"{label}: the group name {_shown(name)} is {len(name)} characters, the limit is {limit}")
    return tuple(dict.fromkeys(names))


def _pattern_value(value: str, *, label: str) -> str:
    pattern = value.replace("\\", "/")
    while pattern.startswith("./"):
        pattern = pattern[2:]
    if pattern.startswith("/") or ".." in pattern.split("/") or re.match(r"^[A-Za-z]:", pattern):
        raise FieldValueError(f"{label} {_shown(value)} must be relative to the imported folder, without '..'")
    return pattern.rstrip("/") + ("/**" if pattern.endswith("/") else "") or "**"


def _shown(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:57] + "...")


@dataclass(frozen=True)
class ManifestEntry:
    """One entry: the files it applies to and the values it sets (None: not set)."""

    line: int
    pattern: str
    title: str | None = None
    key: str | None = None
    category: str | None = None
    effective_from: dt.date | None = None
    groups: tuple[str, ...] | None = None
    problems: tuple[str, ...] = ()

    def matches(self, relative: str) -> bool:
        return bool(self._regex.match(relative))

    @cached_property
    def _regex(self) -> re.Pattern:
        return glob_regex(self.pattern)


@dataclass(frozen=True)
class Manifest:
    name: str
    entries: tuple[ManifestEntry, ...]

    def where(self, line: int) -> str:
        return f"{self.name} line {line}"


def glob_regex(pattern: str) -> re.Pattern:
    """A path glob as a regex over '/'-separated relative paths: `*`, `?` and `[...]` within one
    folder, `**` across folders; a pattern without wildcards also matches everything under it."""
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[" and (end := pattern.find("]", i + 2)) != -1:
            inner = pattern[i + 1 : end]
            negate = inner.startswith("!")
            inner = re.escape(inner[1:] if negate else inner).replace("\\-", "-")
            out.append(f"[{'^' if negate else ''}{inner}]")
            i = end + 1
        else:
            out.append(re.escape(char))
            i += 1
    body = "".join(out)
    if not any(c in pattern for c in "*?["):
        body += "(?:/.*)?"  # a folder's name covers the folder
    return re.compile(f"^{body}$", re.DOTALL)


def manifest_load(path: str | Path) -> Manifest:
    """Read a .yaml/.yml or .csv manifest."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".yaml", ".yml", ".csv"):
        raise ManifestError(f"{path.name}: a manifest is a .yaml, .yml or .csv file")
    try:
        size = path.stat().st_size
        if size > MANIFEST_MAX_BYTES:
            raise ManifestError(f"{path.name} is {size:,} bytes, the limit for a manifest is {MANIFEST_MAX_BYTES:,}")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ManifestError(f"manifest not found: {path}") from None
    except OSError as exc:
        raise ManifestError(f"{path.name} could not be read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ManifestError(f"{path.name} line {line}: not UTF-8 text") from None
    return manifest_parse(text, name=path.name, fmt="csv" if suffix == ".csv" else "yaml")


def manifest_parse(text: str, *, name: str, fmt: str) -> Manifest:
    rows = _csv_rows(text, name=name) if fmt == "csv" else _yaml_rows(text, name=name)
    return Manifest(name=name, entries=tuple(_entry(row, where=f"{name} line") for row in rows))


@dataclass(frozen=True)
class _Row:
    """One entry as read: its line, and each field with the line of its value."""

    line: int
    values: tuple[tuple[str, object, int], ...]  # (field, raw value, line)
    problems: tuple[str, ...] = ()


def _entry(row: _Row, *, where: str) -> ManifestEntry:
    problems = list(row.problems)
    values: dict[str, object] = {}
    for field, raw, line in row.values:
        if field not in FIELDS:
            problems.append(f"{where} {line}: unknown field {_shown(field)}; the fields are {', '.join(FIELDS)}")
            continue
        try:
            values[field] = field_value(field, raw)
        except FieldValueError as exc:
            problems.append(f"{where} {line}: {exc}")
    pattern = values.pop("path", None)
    if pattern is None and not any(field == "path" and str(raw).strip() for field, raw, _ in row.values):
        problems.append(f"{where} {row.line}: path is missing (a file, a folder or a glob such as 'people/**')")
    return ManifestEntry(line=row.line, pattern=pattern or "", problems=tuple(problems), **values)


def _csv_rows(text: str, *, name: str) -> list[_Row]:
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[_Row] = []
    header: list[str] | None = None
    end_of_previous = 0
    try:
        for cells in reader:
            start, end_of_previous = end_of_previous + 1, reader.line_num
            if not any(cell.strip() for cell in cells) or cells[0].lstrip().startswith("#"):
                continue  # blank lines and comments
            if header is None:
                header = [cell.strip().lower().replace(" ", "_").replace("-", "_") for cell in cells]
                _check_header(header, name=name, line=start)
                continue
            problems = ()
            if len(cells) > len(header):
                problems = (f"{name} line {start}: {len(cells)} values for {len(header)} columns (quote a value "
                            "that holds a comma)",)
            values = tuple((field, cell, start) for field, cell in zip(header, cells) if field)
            rows.append(_Row(line=start, values=values, problems=problems))
    except csv.Error as exc:
        raise ManifestError(f"{name} line {reader.line_num}: not valid CSV ({exc})") from None
    if header is None:
        raise ManifestError(f"{name}: no header row; the first row names the columns: {', '.join(FIELDS)}")
    return rows


def _check_header(header: list[str], *, name: str, line: int) -> None:
    unknown = [column for column in header if column and column not in FIELDS]
    if unknown:
        raise ManifestError(f"{name} line {line}: unknown column {_shown(unknown[0])}; the columns are {', '.join(FIELDS)}")
    if "path" not in header:
        raise ManifestError(f"{name} line {line}: the header has no 'path' column; the columns are {', '.join(FIELDS)}")
    repeated = sorted({column for column in header if column and header.count(column) > 1})
    if repeated:
        raise ManifestError(f"{name} line {line}: the column {_shown(repeated[0])} appears twice")


def _yaml_rows(text: str, *, name: str) -> list[_Row]:
    """Entries from YAML, read with PyYAML's BaseLoader: every scalar stays a string (no dates
    or booleans guessed, so '2026-13-01' is reported rather than failing the load), and the
    composed nodes keep each value's line."""
    import yaml

    try:
        root = yaml.compose(text, Loader=yaml.BaseLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{name} line {mark.line + 1}" if mark else name
        raise ManifestError(f"{where}: not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    if root is None:
        return []
    if not isinstance(root, yaml.SequenceNode):
        raise ManifestError(f"{name} line {root.start_mark.line + 1}: the manifest is a list of entries, each starting "
                            "with '- path: ...'")
    rows = []
    for item in root.value:
        line = item.start_mark.line + 1
        if not isinstance(item, yaml.MappingNode):
            rows.append(_Row(line=line, values=(), problems=(f"{name} line {line}: an entry is a mapping such as "
                                                             "'- path: people/**'",)))
            continue
        values, problems = [], []
        for key_node, value_node in item.value:
            value_line = value_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                problems.append(f"{name} line {key_node.start_mark.line + 1}: a field name must be text")
                continue
            values.append((key_node.value, _yaml_value(value_node), value_line))
        rows.append(_Row(line=line, values=tuple(values), problems=tuple(problems)))
    return rows


def _yaml_value(node):
    import yaml

    if isinstance(node, yaml.ScalarNode):
        return node.value
    if isinstance(node, yaml.SequenceNode):
        return [item.value if isinstance(item, yaml.ScalarNode) else None for item in node.value]
    return {}

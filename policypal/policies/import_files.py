"""The files of a bulk import: a folder (walked), a .zip archive (read in place) or one file.

Each file is named by its '/'-separated path relative to the import's root. Hidden files and
folders (".git", ".DS_Store"), macOS "__MACOSX" folders and Office lock files ("~$x.docx") are
passed over without a word; a folder reached through a symbolic link is not walked.

An archive is never extracted to disk: each member is read into memory, at most one byte more
than the largest policy file. The sizes the archive declares are checked against a cap on the
whole archive before anything is read (Python's zipfile never inflates a member past its
declared size, and checks its CRC), and the bytes actually read are counted against it too.
A member whose name is absolute or climbs out with '..' is refused. When every member sits in
one top-level folder (the usual result of zipping a folder), that folder is the root, so a
folder and its zip give the same paths.
"""
from __future__ import annotations

import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from django.conf import settings
from django.template.defaultfilters import filesizeformat

# What a whole archive may inflate to (counted while reading, not taken from its headers).
ZIP_MAX_TOTAL_BYTES = 2 * 1024 ** 3
# Files listed at most, folder or archive.
MAX_FILES = 10_000


class ImportSourceError(ValueError):
    """The import's PATH cannot be read as a whole: missing, not a zip, over a cap."""


class FileReadError(ValueError):
    """One file could not be read; the message says why."""


@dataclass(frozen=True)
class FoundFile:
    relative: str
    size: int  # as the filesystem or the archive states it; checked again against the bytes read
    problem: str | None = None  # refused before reading (an unsafe archive path)


def _passed_over(name: str) -> bool:
    return name.startswith(".") or name.startswith("~$") or name == "__MACOSX"


class FolderFiles:
    """The files under a folder, or one file (its folder is the root)."""

    def __init__(self, path: Path, *, exclude: tuple[Path, ...] = ()) -> None:
        self.path = path
        self.root = path if path.is_dir() else path.parent
        self.label = str(path)
        self._exclude = {p.resolve() for p in exclude}

    def list(self) -> list[FoundFile]:
        if not self.path.is_dir():
            return [FoundFile(relative=self.path.name, size=self.path.stat().st_size)]
        found = []
        for folder, dirs, files in os.walk(self.root, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not _passed_over(d))
            for name in sorted(files):
                path = Path(folder, name)
                if _passed_over(name) or path.resolve() in self._exclude:
                    continue
                relative = path.relative_to(self.root).as_posix()
                try:
                    size = path.stat().st_size
                except OSError as exc:  # a dangling symbolic link, a file removed meanwhile
                    found.append(FoundFile(relative=relative, size=0, problem=f"{relative} could not be read: {exc.strerror}"))
                    continue
                found.append(FoundFile(relative=relative, size=size))
                if len(found) > MAX_FILES:
                    raise ImportSourceError(f"{self.label} holds more than {MAX_FILES:,} files; import it folder by folder")
        return found

    def read(self, relative: str) -> bytes:
        path = self.root / relative
        limit = settings.POLICY_UPLOAD_MAX_BYTES
        try:
            with open(path, "rb") as handle:
                return handle.read(limit + 1)
        except OSError as exc:
            raise FileReadError(f"{relative} could not be read: {exc.strerror or exc}") from None


class ZipFiles:
    """The members of a .zip archive, read in place."""

    def __init__(self, path: Path, *, max_total_bytes: int = ZIP_MAX_TOTAL_BYTES) -> None:
        self.path = path
        self.label = str(path)
        self.max_total_bytes = max_total_bytes
        self._inflated = 0
        self._counted: set[str] = set()  # members read once already (a second read is not counted again)
        try:
            self._archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise ImportSourceError(f"{path.name} is not a readable zip archive ({exc})") from None
        self._members: dict[str, zipfile.ZipInfo] = {}
        self._prefix = ""

    def close(self) -> None:
        self._archive.close()

    def list(self) -> list[FoundFile]:
        self._members, self._prefix = {}, ""
        infos = [info for info in self._archive.infolist() if not info.is_dir()]
        if len(infos) > MAX_FILES:
            raise ImportSourceError(f"{self.path.name} holds {len(infos):,} files, more than {MAX_FILES:,}; "
                                    "split the archive")
        declared = sum(info.file_size for info in infos)
        if declared > self.max_total_bytes:
            raise ImportSourceError(self._too_big(declared))
        found = []
        safe = []
        for info in infos:
            name = info.filename.replace("\\", "/")
            parts = PurePosixPath(name).parts
            if name.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
                found.append(FoundFile(relative=name, size=info.file_size,
                                       problem=f"{name}: unsafe path in the archive (absolute, or with '..'); not read"))
            elif not any(_passed_over(part) for part in parts):
                safe.append((info, name))
        tops = {name.split("/", 1)[0] for _, name in safe}
        if len(tops) == 1 and all("/" in name for _, name in safe):
            self._prefix = tops.pop() + "/"
        for info, name in safe:
            relative = name[len(self._prefix):]
            if relative in self._members:
                found.append(FoundFile(relative=f"{relative} (second copy)", size=info.file_size,
                                       problem=f"{relative} appears twice in the archive; only its first copy is read"))
                continue
            self._members[relative] = info
            found.append(FoundFile(relative=relative, size=info.file_size))
        return sorted(found, key=lambda f: f.relative)

    def read(self, relative: str) -> bytes:
        info = self._members[relative]
        limit = settings.POLICY_UPLOAD_MAX_BYTES
        try:
            with self._archive.open(info) as member:
                data = member.read(limit + 1)
        except (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, OSError, EOFError) as exc:
            # RuntimeError: an encrypted member; NotImplementedError: an unsupported compression.
            raise FileReadError(f"{relative} could not be read from the archive: {exc}") from None
        if relative not in self._counted:
            self._counted.add(relative)
            self._inflated += len(data)
        if self._inflated > self.max_total_bytes:
            raise ImportSourceError(self._too_big(self._inflated, actual=True))
        return data

    def _too_big(self, size: int, *, actual: bool = False) -> str:
        return (f"{self.path.name} {'inflates to more than' if actual else 'holds'} {filesizeformat(size)}, the limit "
                f"for one archive is {filesizeformat(self.max_total_bytes)}")


def import_files_open(path: str | Path, *, exclude: tuple[Path, ...] = (),
                      max_total_bytes: int = ZIP_MAX_TOTAL_BYTES) -> FolderFiles | ZipFiles:
    """The files at PATH: a folder, a .zip archive, or one file."""
    path = Path(path)
    if not path.exists():
        raise ImportSourceError(f"{path} not found")
    if path.is_file() and path.suffix.lower() == ".zip":
        return ZipFiles(path, max_total_bytes=max_total_bytes)
    return FolderFiles(path, exclude=exclude)

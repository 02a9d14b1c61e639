"""The files the app hands out, one kind each in one registry (registry.py): PDF (pdf.py,
weasy.py), Excel (xlsx.py), CSV (games_csv.py), pictures, calendars; the reports among them
asked for (asking.py) and made as tasks (making.py), kept and pruned (pruning.py).

Made files (reports and their parts) are kept through Django's storage API, in
``STORAGES["reports"]`` (``kept_files``): by default the file system under ``REPORTS_DIR``;
any other backend (an S3-compatible bucket) lets several machines share them."""

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.http import HttpResponse

# Progress of a report being made: (which part, how many done, of how many).
Progress = Callable[[str, int, int], None]


def inline(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    """A file made for the browser to show (a PDF, a picture, a calendar), under its name."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def no_progress(step: str, done: int, total: int) -> None:
    """Progress told to no one."""


class NotKept(OSError):
    """A made file could not be written where it is kept: the disk is full, or the reports
    directory cannot be written (its ``errno`` and ``strerror`` are the system's), or another
    storage refused it."""


def kept_files() -> Storage:
    """Where made files are kept: the storage ``STORAGES["reports"]``."""
    return storages["reports"]


def where_kept() -> str:
    """Where the made files are, as whoever runs the server names it: the directory of a
    storage on this machine's file system, else the storage's backend."""
    storage = kept_files()
    if isinstance(storage, FileSystemStorage):
        return str(storage.location)
    return f"{type(storage).__module__}.{type(storage).__qualname__}"


def keep(name: str, content: bytes) -> None:
    """Keep a made file as ``name``, whole or not at all: a reader never finds half of it, and
    a write that fails (a full disk) leaves nothing behind. Raises ``NotKept`` when the file
    cannot be written.

    On the file system it is written beside its place, then moved into place (the storage's
    own ``save`` writes into place, where a reader could find half of it). Another backend
    (an object store) is given the whole content in one ``save``, which stores an object
    whole or not at all."""
    storage = kept_files()
    if not isinstance(storage, FileSystemStorage):
        _save_whole(storage, name, content)
        return
    path = Path(storage.path(name))
    partial = path.with_suffix(".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            partial.write_bytes(content)
            partial.replace(path)
        except BaseException:
            with suppress(OSError):
                partial.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise NotKept(error.errno, f"{error.strerror}: {path.parent}") from error


def _save_whole(storage: Storage, name: str, content: bytes) -> None:
    try:
        storage.delete(name)  # a file of the same name is the same content, made before
        saved = storage.save(name, ContentFile(content))
    except Exception as error:
        raise NotKept(None, f"{error}: {where_kept()}") from error
    if saved != name:  # kept at the same moment by another maker: the same content
        storage.delete(saved)


def read(name: str) -> bytes:
    """The kept file ``name``, whole (what pikepdf joins)."""
    with kept_files().open(name, "rb") as kept:
        content: bytes = kept.read()
    return content

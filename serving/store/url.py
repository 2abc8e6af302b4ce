"""``open_store(url)``: the one place a store URL is read.

Accepted forms:

- ``memory:`` (also ``memory://``): a MemoryStore;
- ``sqlite:PATH`` (a relative or absolute path) or ``sqlite:///abs/path``, optionally
  ``?synchronous=NORMAL|FULL`` (default NORMAL: see ``sqlite.py`` for what each survives);
- ``postgresql://…`` or ``postgres://…`` (a libpq URL), optionally ``?schema=NAME`` (default
  ``capenv``); every other query parameter goes to libpq unchanged.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from capenv.serving.store.contract import Store
from capenv.serving.store.memory import MemoryStore

ACCEPTED_FORMS = ("memory:", "sqlite:PATH", "sqlite:///abs/path", "sqlite:PATH?synchronous=NORMAL|FULL",
                  "postgresql://USER@HOST:PORT/DB[?schema=NAME]", "postgres://…")


def open_store(url: str, *, schema: str | None = None, synchronous: str | None = None) -> Store:
    """Open the store ``url`` names. ``schema`` (PostgreSQL) and ``synchronous`` (SQLite) may be
    given here instead of in the URL; given in both places they must agree.

    Raises ``ValueError`` for a URL of no accepted form, ``StoreUnreachable`` when the backend
    cannot be reached.
    """
    if not isinstance(url, str):
        raise TypeError(f"a store URL is a string, not {type(url).__name__}")
    scheme, sep, rest = url.partition(":")
    scheme = scheme.lower()
    if not sep:
        raise _unaccepted(url, "no scheme")
    if scheme == "memory":
        if rest not in ("", "//"):
            raise _unaccepted(url, "memory: takes nothing after the colon")
        _refuse_option("schema", schema, "memory:")
        _refuse_option("synchronous", synchronous, "memory:")
        return MemoryStore()
    if scheme == "sqlite":
        _refuse_option("schema", schema, "sqlite:")
        return _open_sqlite(url, rest, synchronous)
    if scheme in ("postgresql", "postgres"):
        _refuse_option("synchronous", synchronous, "postgresql:")
        return _open_postgres(url, schema)
    raise _unaccepted(url, f"unknown scheme {scheme!r}")


def _open_sqlite(url: str, rest: str, synchronous: str | None) -> Store:
    path, _, query = rest.partition("?")
    if path.startswith("//"):
        # sqlite:///abs/path — an empty authority, then the absolute path. Anything else after
        # the two slashes would be a host, which SQLite has no use for.
        if not path.startswith("///"):
            raise _unaccepted(url, "sqlite:// must be followed by an absolute path (sqlite:///abs/path)")
        path = path[2:]
    path = unquote(path)
    if not path:
        raise _unaccepted(url, "sqlite: needs a file path")
    options = _query(url, query, allowed={"synchronous"})
    level = _agree("synchronous", options.get("synchronous"), synchronous)
    from capenv.serving.store.sqlite import SqliteStore  # imported when used: keeps memory: light

    return SqliteStore(path) if level is None else SqliteStore(path, synchronous=level)


def _open_postgres(url: str, schema: str | None) -> Store:
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    in_url = [value for key, value in pairs if key == "schema"]
    if len(in_url) > 1:
        raise _unaccepted(url, "schema given more than once")
    chosen = _agree("schema", in_url[0] if in_url else None, schema)
    conninfo = urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in pairs if k != "schema"])))
    from capenv.serving.store.postgres import DEFAULT_SCHEMA, PostgresStore  # psycopg only when used

    return PostgresStore(conninfo, schema=chosen or DEFAULT_SCHEMA)


def _query(url: str, query: str, *, allowed: set[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for key, value in parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)):
        if key not in allowed:
            raise _unaccepted(url, f"unknown option {key!r}")
        if key in options:
            raise _unaccepted(url, f"option {key!r} given more than once")
        options[key] = value
    return options


def _agree(name: str, in_url: str | None, given: str | None) -> str | None:
    if in_url is not None and given is not None and in_url != given:
        raise ValueError(f"{name} is {in_url!r} in the store URL but {given!r} was passed")
    return in_url if in_url is not None else given


def _refuse_option(name: str, value: str | None, scheme: str) -> None:
    if value is not None:
        raise ValueError(f"{name}= does not apply to a {scheme} store")


def _unaccepted(url: str, why: str) -> ValueError:
    return ValueError(f"not a store URL ({why}): {url!r}; accepted forms: {', '.join(ACCEPTED_FORMS)}")

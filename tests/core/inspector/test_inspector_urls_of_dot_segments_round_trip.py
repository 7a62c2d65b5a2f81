"""Every namespace segment and key has an inspector URL that reads back as itself and holds no
dot segment a browser would resolve: `.` and `..` are written `~.` and `~..` (never `%2E`,
which a browser resolves too), a segment of tildes then dots gets one `~` more, and any other
text (`...`, `~`, `a/b`, `%2E`) is only percent-encoded."""

from urllib.parse import unquote, urljoin

import pytest

pytest.importorskip("starlette", reason="needs the extra memvault[ui]")

from memvault.inspector.paths import read_item, read_namespace  # noqa: E402
from memvault.inspector.render import export_url, item_url, namespace_url  # noqa: E402

SEGMENTS = [".", "..", "~.", "~..", "~~.", "~~~..", "...", "~", "~~", ".~", "~.x", "a/b", "%2E"]


def scope(url: str) -> dict:
    """The ASGI scope's path fields of a request for ``url`` (raw as sent)."""
    return {"raw_path": url.encode("ascii"), "path": unquote(url)}


def dot_segments(url: str) -> list[str]:
    """The segments of ``url`` a browser resolves: ``.`` or ``..``, percent-encoded or not."""
    return [part for part in url.split("/") if unquote(part) in (".", "..")]


@pytest.mark.parametrize("segment", SEGMENTS)
def test_a_segment_reads_back_as_itself_from_a_url_a_browser_keeps(segment):
    namespace, key = ("users", segment), segment
    for url in (item_url(namespace, key), item_url(namespace, key, "edit")):
        assert dot_segments(url) == []
        assert urljoin("http://127.0.0.1:8766/", url) == f"http://127.0.0.1:8766{url}"
        assert read_item(scope(url), url.split("/")[1]) == (namespace, key)
    for url, prefix in ((namespace_url(namespace), "ns"), (export_url(namespace), "export")):
        assert dot_segments(url) == []
        assert read_namespace(scope(url), prefix) == namespace


def test_the_escape_is_written_only_for_dots_after_tildes():
    assert namespace_url((".", "..", "~.", "...", "~", "a/b")) == "/ns/~./~../~~./.../~/a%2Fb"
    assert item_url(("~~..",), "x.") == "/item/~~~../x."

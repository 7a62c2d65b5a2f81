"""A namespace segment or key of exactly `.` or `..` is reached from the inspector's own links
by a client that resolves dot segments as a browser does (httpx): the home page's namespace
link, the namespace page's memory link, the memory page and the export all name that memory,
and one named `~.` is another memory than one named `.`."""

import json

from tests.core.inspector_client import attributes, browser, new_store, texts

DOTS = ("users", "..")


def test_dot_segments_are_reached_through_the_links(tmp_path):
    store = new_store()
    store.put(DOTS, ".", {"text": "the dot memory"})
    store.put(DOTS, "~.", {"text": "the tilde dot memory"})
    store.put(("users",), "tea", {"text": "a memory one level up"})
    client, _ = browser(store)

    home = client.get("/").text
    [link] = [a["href"] for a in attributes(home, "namespace-link") if a["href"].endswith("~..")]
    assert link == "/ns/users/~.."
    page = client.get(link)
    assert page.status_code == 200
    assert sorted(texts(page.text, "memory-text")) == ["the dot memory", "the tilde dot memory"]
    links = {a["href"] for a in attributes(page.text, "memory-link")}
    assert links == {"/item/users/~../~.", "/item/users/~../~~."}

    for key, text in ((".", "the dot memory"), ("~.", "the tilde dot memory")):
        [href] = [h for h in links if h.endswith("/" + ("~." if key == "." else "~~."))]
        shown = client.get(href)
        assert shown.status_code == 200
        assert texts(shown.text, "memory-text") == [text]

    exported = client.get("/export/users/~..")
    assert exported.status_code == 200
    keys = {json.loads(line)["key"] for line in exported.text.splitlines()}
    assert keys == {".", "~."}

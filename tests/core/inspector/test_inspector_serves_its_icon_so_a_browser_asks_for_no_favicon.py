"""Every page links the inspector's icon (``/static/favicon.svg``), served as SVG without the
token like the style sheet (the 401 page shows it too), so a browser asks for no
``/favicon.ico`` and logs no 404."""

from tests.core.inspector_client import anonymous, browser, new_store

ICON = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'


def test_the_icon_is_linked_from_every_page_and_served_to_anyone():
    store = new_store()
    store.put(("users", "alice"), "tea", {"text": "Alice likes tea"})
    client, _ = browser(store)
    stranger, _ = anonymous(store)

    pages = [client.get(url) for url in ("/", "/ns/users/alice", "/item/users/alice/tea")]
    pages += [client.get("/search"), client.get("/quarantined"), stranger.get("/")]
    icon = stranger.get("/static/favicon.svg")

    assert [page.status_code for page in pages] == [200, 200, 200, 200, 200, 401]
    assert all(ICON in page.text for page in pages)
    assert icon.status_code == 200
    assert icon.headers["content-type"] == "image/svg+xml"
    assert icon.content.startswith(b"<svg ")
    assert stranger.post("/static/favicon.svg").status_code == 401  # only a GET is free

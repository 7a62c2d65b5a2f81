"""Opening the printed URL sets the token as an HttpOnly, SameSite=Strict cookie and redirects
to the same page without the token (other query fields kept); later requests need only the
cookie, and the style sheet alone is served without it."""

from tests.core.inspector_client import anonymous, new_store


def test_the_token_becomes_a_cookie_and_leaves_the_url():
    store = new_store()
    store.put(("users", "alice"), "tea", {"text": "Alice likes tea"})
    client, secrets = anonymous(store)

    first = client.get(f"/search?q=tea&token={secrets.token}&mode=dense")

    assert first.status_code == 303
    assert first.headers["location"] == "/search?q=tea&mode=dense"
    cookie = first.headers["set-cookie"]
    assert cookie == (f"memvault_ui_8765={secrets.token}; Path=/; HttpOnly; SameSite=Strict")
    assert client.get(first.headers["location"]).status_code == 200
    assert client.get("/ns/users/alice").status_code == 200


def test_only_the_style_sheet_is_served_without_the_token():
    client, _ = anonymous(new_store())
    style = client.get("/static/inspector.css")
    assert style.status_code == 200
    assert style.headers["content-type"].startswith("text/css")
    assert client.get("/static/inspector.css/../").status_code == 401

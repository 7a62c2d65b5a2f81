"""Bound to every interface (``--host 0.0.0.0 --allow-remote``), the inspector answers at
whatever address it is reached by, but still only with the token, and a change still only from
its own pages at that address."""

from tests.core.inspector_client import anonymous, new_store, snapshot

ADDRESS = "http://192.0.2.7:8765"  # how another machine reaches it


def test_any_host_with_the_token_and_its_own_origin(tmp_path):
    store = new_store()
    item = store.put(("users", "alice"), "tea", {"text": "Alice likes tea"})
    client, secrets = anonymous(store, host="0.0.0.0", base_url=ADDRESS)
    assert client.get("/").status_code == 401
    assert client.get(f"/?token={secrets.token}").status_code == 303
    assert client.get("/ns/users/alice").status_code == 200
    fields = {"form_token": secrets.form_token, "text": "x", "updated_at": repr(item.updated_at)}
    before = snapshot(store, tmp_path)

    foreign = client.post(
        "/edit/users/alice/tea", data=fields, headers={"Origin": "http://evil.example"}
    )
    assert foreign.status_code == 403
    assert snapshot(store, tmp_path) == before

    own = client.post("/edit/users/alice/tea", data=fields, headers={"Origin": ADDRESS})
    assert own.status_code == 303
    assert store.get(("users", "alice"), "tea").text == "x"

"""Hostile or malformed requests to the inspector get a 4xx page saying what was wrong (naming
the field where one was), and change nothing in the store: no token or a token in the wrong
place, another Host (DNS rebinding), another origin (CSRF), a missing form token, a huge body,
path traversal and encoded NULs, a release not confirmed or of a version not shown, wrong
types, an unknown mode, negative or huge pages; and a memory's HTML (its text, kind, or the
reason the firewall holds it) is shown as text, never run."""

import pytest

from tests.core.inspector_client import (
    ORIGIN,
    anonymous,
    browser,
    new_store,
    snapshot,
    texts,
)

ALICE = ("users", "alice")
SCRIPT = '<script>alert("pwned")</script><img src=x onerror="alert(1)">'


def hostile_store():
    store = new_store()
    store.put(ALICE, "tea", {"text": "Alice likes tea"})
    store.put(ALICE, "xss", {"text": SCRIPT, "kind": "<b>bold</b>", "quarantined": SCRIPT})
    store.put(("users", '"><svg onload=alert(2)>'), "<i>k</i>", {"text": "marked up names"})
    return store


# (id, signed in, method, url, request options, status, words of the message);
# "{token}", "{form}" and "{at}" are filled with the token, the form token and tea's updated_at
CASES = [
    ("no token", False, "GET", "/", {}, 401, "carries no token"),
    ("no token on a memory", False, "GET", "/item/users/alice/tea", {}, 401, "no token"),
    ("wrong token in the URL", False, "GET", "/?token=guess", {}, 401, "not this inspector's"),
    ("token twice in the URL", False, "GET", "/?token={token}&token={token}", {}, 401, "not this"),
    (
        "token in a header",
        False,
        "GET",
        "/",
        {"headers": {"Authorization": "Bearer {token}"}},
        401,
        "no token",
    ),
    (
        "token in a cookie of another name",
        False,
        "GET",
        "/",
        {"cookies": {"token": "{token}"}},
        401,
        "no token",
    ),
    (
        "wrong cookie",
        False,
        "GET",
        "/",
        {"cookies": {"memvault_ui_8765": "guess"}},
        401,
        "no token",
    ),
    (
        "token in the URL of a POST",
        False,
        "POST",
        "/forget/users/alice/tea?token={token}",
        {"data": {"form_token": "{form}", "confirmed": "yes", "updated_at": "{at}"}},
        401,
        "no token",
    ),
    (
        "token in a form field",
        False,
        "POST",
        "/forget/users/alice/tea",
        {"data": {"token": "{token}", "form_token": "{form}", "confirmed": "yes"}},
        401,
        "no token",
    ),
    ("another Host", True, "GET", "/", {"headers": {"Host": "evil.example"}}, 421, "answers at"),
    (
        "another port in Host",
        True,
        "GET",
        "/",
        {"headers": {"Host": "127.0.0.1:9999"}},
        421,
        "answers at",
    ),
    (
        "rebinding to localhost",
        True,
        "GET",
        "/",
        {"headers": {"Host": "localhost:8765"}},
        421,
        "not at the host",
    ),
    (
        "cross-origin POST",
        True,
        "POST",
        "/forget/users/alice/tea",
        {
            "headers": {"Origin": "http://evil.example"},
            "data": {"form_token": "{form}", "confirmed": "yes", "updated_at": "{at}"},
        },
        403,
        "own pages",
    ),
    (
        "POST from an opaque origin",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": "null"},
            "data": {"form_token": "{form}", "text": "x", "updated_at": "{at}"},
        },
        403,
        "own pages",
    ),
    (
        "POST without Origin or Referer",
        True,
        "POST",
        "/edit/users/alice/tea",
        {"data": {"form_token": "{form}", "text": "x", "updated_at": "{at}"}},
        403,
        "unnamed page",
    ),
    (
        "POST with a foreign Referer",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Referer": "http://evil.example/page"},
            "data": {"form_token": "{form}", "text": "x", "updated_at": "{at}"},
        },
        403,
        "evil.example",
    ),
    (
        "form without the form token",
        True,
        "POST",
        "/edit/users/alice/tea",
        {"headers": {"Origin": ORIGIN}, "data": {"text": "hacked", "updated_at": "{at}"}},
        400,
        "field 'form_token' is missing",
    ),
    (
        "form with a wrong form token",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "guess", "text": "hacked", "updated_at": "{at}"},
        },
        400,
        "not this inspector's",
    ),
    (
        "huge body",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "text": "x" * 1_100_000, "updated_at": "{at}"},
        },
        413,
        "over 1,000,000 bytes",
    ),
    (
        "huge body without a length (chunked)",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {
                "Origin": ORIGIN,
                "Content-Type": "application/x-www-form-urlencoded",
            },
            "content": "chunks",
        },
        413,
        "over 1,000,000 bytes",
    ),
    (
        "JSON instead of a form",
        True,
        "POST",
        "/edit/users/alice/tea",
        {"headers": {"Origin": ORIGIN}, "json": {"text": "hacked"}},
        400,
        "must be a form",
    ),
    (
        "form that is not UTF-8",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN, "Content-Type": "application/x-www-form-urlencoded"},
            "content": b"text=\xff\xfe&form_token=x",
        },
        400,
        "cannot be read",
    ),
    (
        "form of too many fields",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {**{f"f{n}": "1" for n in range(50)}, "form_token": "{form}"},
        },
        400,
        "cannot be read",
    ),
    (
        "a field given twice",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN, "Content-Type": "application/x-www-form-urlencoded"},
            "content": "form_token={form}&text=a&text=b&updated_at={at}",
        },
        400,
        "field 'text' is given twice",
    ),
    (
        "updated_at not a number",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "text": "hacked", "updated_at": "yesterday"},
        },
        400,
        "field 'updated_at' must be a number",
    ),
    (
        "updated_at not finite",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "text": "hacked", "updated_at": "nan"},
        },
        400,
        "field 'updated_at'",
    ),
    (
        "edit without text",
        True,
        "POST",
        "/edit/users/alice/tea",
        {"headers": {"Origin": ORIGIN}, "data": {"form_token": "{form}", "updated_at": "{at}"}},
        400,
        "field 'text' is missing",
    ),
    (
        "edit to an empty text",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "text": "", "updated_at": "{at}"},
        },
        400,
        'value["text"] must be a non-empty string',
    ),
    (
        "edit to a text over the limit",
        True,
        "POST",
        "/edit/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "text": "y" * 40_000, "updated_at": "{at}"},
        },
        400,
        "more than the 32,000 a memory may hold",
    ),
    (
        "edit of an unknown key",
        True,
        "POST",
        "/edit/users/alice/nobody",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "text": "x", "updated_at": "{at}"},
        },
        404,
        "no live memory 'nobody'",
    ),
    (
        "forget without the confirmation",
        True,
        "POST",
        "/forget/users/alice/tea",
        {"headers": {"Origin": ORIGIN}, "data": {"form_token": "{form}", "updated_at": "{at}"}},
        400,
        "field 'confirmed' must be 'yes'",
    ),
    (
        "forget of a version not shown",
        True,
        "POST",
        "/forget/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "confirmed": "yes", "updated_at": "12345"},
        },
        409,
        "written meanwhile",
    ),
    (
        "erase without the confirmation",
        True,
        "POST",
        "/erase/users/alice/tea",
        {"headers": {"Origin": ORIGIN}, "data": {"form_token": "{form}", "updated_at": "{at}"}},
        400,
        "field 'confirmed'",
    ),
    ("edit by GET", True, "GET", "/edit/users/alice/tea", {}, 405, "GET is not taken"),
    (
        "DELETE a memory",
        True,
        "DELETE",
        "/item/users/alice/tea",
        {"headers": {"Origin": ORIGIN}},
        405,
        "DELETE is not taken",
    ),
    ("DELETE from nowhere", True, "DELETE", "/item/users/alice/tea", {}, 403, "own pages"),
    ("unknown page", True, "GET", "/admin", {}, 404, "no page at '/admin'"),
    ("path traversal in a namespace", True, "GET", "/ns/..%2f..%2fetc", {}, 404, "no memories"),
    (
        "path traversal in a key",
        True,
        "GET",
        "/item/users/alice/..%2f..%2f..%2fetc%2fpasswd",
        {},
        404,
        "no memory '../../../etc/passwd'",
    ),
    ("path traversal in an export", True, "GET", "/export/..%2fusers", {}, 404, "no memories"),
    ("the route's name encoded", True, "GET", "/%6Es/users/alice", {}, 400, "as written"),
    ("encoded NUL in a namespace", True, "GET", "/ns/users%00", {}, 400, "NUL"),
    ("encoded NUL in a key", True, "GET", "/item/users/alice/tea%00", {}, 400, "NUL"),
    ("bytes that are not UTF-8", True, "GET", "/ns/users%ff", {}, 400, "not UTF-8"),
    ("empty namespace segment", True, "GET", "/ns/users//alice", {}, 400, "is empty"),
    ("a key without a namespace", True, "GET", "/item/tea", {}, 400, "a namespace and a key"),
    ("unknown namespace", True, "GET", "/ns/users/mallory", {}, 404, "no memories"),
    ("unknown memory", True, "GET", "/item/users/alice/nothing", {}, 404, "none was ever"),
    (
        "forget page of an unknown memory",
        True,
        "GET",
        "/forget/users/alice/nope",
        {},
        404,
        "no live",
    ),
    ("unknown mode", True, "GET", "/search?q=tea&mode=telepathy", {}, 400, "field 'mode' must"),
    ("as_of not a date", True, "GET", "/search?q=tea&as_of=yesterday", {}, 400, "as_of must be"),
    ("as_of out of range", True, "GET", "/search?q=tea&as_of=1066-10-14", {}, 400, "as_of must"),
    ("blank query", True, "GET", "/search?q=%20%20", {}, 400, "field 'q' is empty"),
    (
        "NUL in the searched namespace",
        True,
        "GET",
        "/search?q=tea&ns=users%00",
        {},
        400,
        "field 'ns'",
    ),
    ("a mode given twice", True, "GET", "/search?q=t&mode=dense&mode=lexical", {}, 400, "twice"),
    ("negative page", True, "GET", "/ns/users?page=-1", {}, 400, "field 'page' must be"),
    ("zero page", True, "GET", "/ns/users?page=0", {}, 400, "field 'page' must be"),
    ("huge page", True, "GET", "/ns/users?page=99999999999999", {}, 400, "field 'page'"),
    ("page not a number", True, "GET", "/ns/users?page=two", {}, 400, "field 'page'"),
    ("fractional page", True, "GET", "/ns/users?page=1.5", {}, 400, "field 'page'"),
    ("page past the last", True, "GET", "/ns/users?page=7", {}, 404, "has 1 page of memories"),
    ("held memories without a token", False, "GET", "/quarantined", {}, 401, "no token"),
    ("held memories, NUL in ns", True, "GET", "/quarantined?ns=a%00", {}, 400, "field 'ns'"),
    ("held memories, page zero", True, "GET", "/quarantined?page=0", {}, 400, "field 'page'"),
    ("held memories, huge page", True, "GET", "/quarantined?page=9999999", {}, 400, "'page'"),
    ("held memories, past the last", True, "GET", "/quarantined?page=2", {}, 404, "page 1"),
    (
        "held memories by POST",
        True,
        "POST",
        "/quarantined",
        {"headers": {"Origin": ORIGIN}},
        405,
        "not taken",
    ),
    (
        "cross-origin release",
        True,
        "POST",
        "/release/users/alice/xss",
        {
            "headers": {"Origin": "http://evil.example"},
            "data": {"form_token": "{form}", "confirmed": "yes", "updated_at": "{xat}"},
        },
        403,
        "own pages",
    ),
    (
        "release without the form token",
        True,
        "POST",
        "/release/users/alice/xss",
        {"headers": {"Origin": ORIGIN}, "data": {"confirmed": "yes", "updated_at": "{xat}"}},
        400,
        "field 'form_token' is missing",
    ),
    (
        "release without the confirmation",
        True,
        "POST",
        "/release/users/alice/xss",
        {"headers": {"Origin": ORIGIN}, "data": {"form_token": "{form}", "updated_at": "{xat}"}},
        400,
        "field 'confirmed' must be 'yes'",
    ),
    (
        "release of a version not shown",
        True,
        "POST",
        "/release/users/alice/xss",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "confirmed": "yes", "updated_at": "12345"},
        },
        409,
        "written meanwhile",
    ),
    (
        "release of a memory not held",
        True,
        "POST",
        "/release/users/alice/tea",
        {
            "headers": {"Origin": ORIGIN},
            "data": {"form_token": "{form}", "confirmed": "yes", "updated_at": "{at}"},
        },
        400,
        "is not held",
    ),
    (
        "release page of a memory not held",
        True,
        "GET",
        "/release/users/alice/tea",
        {},
        400,
        "not held",
    ),
    ("release page of no memory", True, "GET", "/release/users/alice/nope", {}, 404, "no live"),
    (
        "release with the token in the URL",
        False,
        "POST",
        "/release/users/alice/xss?token={token}",
        {"data": {"form_token": "{form}", "confirmed": "yes", "updated_at": "{xat}"}},
        401,
        "no token",
    ),
    (
        "the icon by POST",
        True,
        "POST",
        "/static/favicon.svg",
        {"headers": {"Origin": ORIGIN}},
        405,
        "not taken",
    ),
]


def _filled(value, fills):
    if isinstance(value, str):
        for name, fill in fills.items():
            value = value.replace("{" + name + "}", fill)
        return value
    if isinstance(value, dict):
        return {_filled(k, fills): _filled(v, fills) for k, v in value.items()}
    return value


def _chunks():
    for _ in range(20):
        yield b"text=" + b"x" * 100_000


@pytest.mark.parametrize(
    ("signed_in", "method", "url", "options", "status", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_hostile_request_is_refused_and_changes_nothing(
    tmp_path, signed_in, method, url, options, status, words
):
    store = hostile_store()
    client, secrets = browser(store) if signed_in else anonymous(store)
    fills = {
        "token": secrets.token,
        "form": secrets.form_token,
        "at": repr(store.get(ALICE, "tea").updated_at),
        "xat": repr(store.get(ALICE, "xss").updated_at),
    }
    before = snapshot(store, tmp_path)
    options = _filled(options, fills)
    if options.get("content") == "chunks":
        options["content"] = _chunks()
    cookies = options.pop("cookies", None)
    if cookies:
        client.cookies.clear()
        client.cookies.update(cookies)

    answer = client.request(method, _filled(url, fills), **options)

    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    (message,) = texts(answer.text, "error-message")
    assert message.startswith(f"{status}: ")
    assert words in message
    assert snapshot(store, tmp_path) == before
    assert len(CASES) >= 30


def test_html_in_a_memory_is_shown_as_text_never_run(tmp_path):
    store = hostile_store()
    client, _ = browser(store)
    before = snapshot(store, tmp_path)

    pages = [
        client.get("/ns/users/alice"),
        client.get("/item/users/alice/xss"),
        client.get("/search", params={"q": "alert pwned script"}),
        client.get("/forget/users/alice/xss"),
        client.get("/quarantined"),
        client.get("/release/users/alice/xss"),
    ]

    for page in pages:
        assert page.status_code == 200
        assert "<script>" not in page.text and "<img src=x" not in page.text
        assert "&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;" in page.text
        assert "script-src" not in page.headers["content-security-policy"]  # no script at all
        assert page.headers["content-security-policy"].startswith("default-src 'none'")
    home = client.get("/")
    assert "<svg" not in home.text and "&#34;&gt;&lt;svg onload=alert(2)&gt;" in home.text
    names = client.get("/ns/users/%22%3E%3Csvg%20onload%3Dalert(2)%3E")
    assert names.status_code == 200
    assert "<i>k</i>" not in names.text and "&lt;i&gt;k&lt;/i&gt;" in names.text
    assert texts(pages[1].text, "memory-text") == [SCRIPT]
    assert texts(pages[1].text, "memory-kind") == ["<b>bold</b>"]
    assert snapshot(store, tmp_path) == before

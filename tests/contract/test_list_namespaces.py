"""list_namespaces lists live namespaces with prefix, suffix, depth and paging, sorted."""

NAMESPACES = [
    ("users", "alice"),
    ("users", "alice", "work"),
    ("users", "bob"),
    ("teams", "red", "work"),
]


def test_list_namespaces_options(store):
    for namespace in NAMESPACES:
        store.put(namespace, "k", {"text": "x"})
    assert store.list_namespaces() == sorted(NAMESPACES)
    assert store.list_namespaces(prefix=("users",)) == NAMESPACES[:3]
    assert store.list_namespaces(suffix=("work",)) == [NAMESPACES[3], NAMESPACES[1]]
    assert store.list_namespaces(max_depth=1) == [("teams",), ("users",)]
    assert store.list_namespaces(prefix=("users",), max_depth=2) == [
        ("users", "alice"),
        ("users", "bob"),
    ]
    assert store.list_namespaces(limit=2, offset=1) == sorted(NAMESPACES)[1:3]

"""Keys and segments holding separators, quotes or brackets never collide in the backend."""

TRICKY = [
    (("a/b",), "c"),
    (("a",), "b/c"),
    (("a", "b"), "c"),
    (("a:b",), "c"),
    (("a",), "b:c"),
    (('a","b',), "c"),
    (("a", '","'), "c"),
    (("[",), "]"),
    (("a\\",), "b"),
    (("a",), "\\b"),
]


def test_every_tricky_pair_is_its_own_item(store):
    for number, (namespace, key) in enumerate(TRICKY):
        store.put(namespace, key, {"text": f"item {number}", "number": number})
    assert store.count() == len(TRICKY)
    for number, (namespace, key) in enumerate(TRICKY):
        item = store.get(namespace, key)
        assert (item.namespace, item.key, item.value["number"]) == (namespace, key, number)

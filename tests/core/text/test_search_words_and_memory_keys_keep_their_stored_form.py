"""The search words and memory keys stores hold keep their form: the record file's and
Postgres's index words are Porter stems of ``\\w+`` runs, a memory's key hashes Snowball English
stems; the values were written before the two analysers became one (memvault.words), and
each text is one where the other stemmer, way of cutting or folding would differ."""

import pytest

from memvault.lexical import query_terms, terms_of
from memvault.statements import memory_key

TEXTS = {
    # Porter's "hei" is English's "hey"; "I'm" is two search words and one statement word.
    "Hey Mel! Good to see you!": (
        "mem-3e969e91f6df1d8c",
        {"good": 1, "hei": 1, "mel": 1, "see": 1, "to": 1, "you": 1},
    ),
    "I'm allergic to kiwi.": (
        "mem-ec79d62567f8428b",
        {"allerg": 1, "i": 1, "kiwi": 1, "m": 1, "to": 1},
    ),
    # A key drops the final "i" of "allergi"; search keeps it.
    "The user has a severe peanut allergy.": (
        "mem-bdff5ef04e814791",
        {"a": 1, "allergi": 1, "ha": 1, "peanut": 1, "sever": 1, "the": 1, "user": 1},
    ),
    "I don't eat meat anymore.": (
        "mem-47e01b6b44cf5f51",
        {"anymor": 1, "don": 1, "eat": 1, "i": 1, "meat": 1, "t": 1},
    ),
    "My family adopted two ponies in 1999.": (
        "mem-b58e8f79c171c2bb",
        {"1999": 1, "adopt": 1, "famili": 1, "in": 1, "my": 1, "poni": 1, "two": 1},
    ),
    # Search folds accents and lower-cases ("straße"); a key case-folds ("strass"), keeps accents.
    "Straße, café au lait, naïve.": (
        "mem-7345965e4d3ae73d",
        {"au": 1, "cafe": 1, "lait": 1, "naiv": 1, "straße": 1},
    ),
}


@pytest.mark.parametrize("text", sorted(TEXTS))
def test_a_texts_key_and_search_words_are_those_stores_hold(text):
    key, words = TEXTS[text]
    assert memory_key(text) == key
    assert terms_of(text) == (words, sum(words.values()))


def test_a_query_is_folded_as_the_records_it_searches():
    assert query_terms("Hey, any allergy to ponies? Café!") == ["hei", "allergi", "poni", "cafe"]

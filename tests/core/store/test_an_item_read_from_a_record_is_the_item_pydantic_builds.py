"""``MemoryItem.from_record`` builds the item directly (a search makes one per hit): it must be
the very item pydantic's ``model_construct`` and validation give, frozen, every field set."""

import pydantic
import pytest

from memvault.items import MemoryItem
from memvault.model import Provenance, Record


@pytest.mark.parametrize(
    ("score", "score_type"), [(0.75, "hybrid"), (None, "cosine"), (None, None)]
)
def test_an_item_read_from_a_record_is_the_item_pydantic_builds(score, score_type):
    record = Record(
        namespace=("users", "alice"),
        key="k1",
        value={"text": "likes tea", "n": 3},
        created_at=1.0,
        updated_at=2.0,
        expires_at=None,
        valid_from=1.0,
        valid_to=None,
        provenance=Provenance("agent", "s1"),
    )
    fields = {
        "namespace": ("users", "alice"),
        "key": "k1",
        "value": {"text": "likes tea", "n": 3},
        "created_at": 1.0,
        "updated_at": 2.0,
        "expires_at": None,
        "valid_from": 1.0,
        "valid_to": None,
        "provenance": Provenance("agent", "s1"),
        "score": score,
        "score_type": score_type if score is not None else None,
    }

    item = MemoryItem.from_record(record, score, score_type)

    constructed = MemoryItem.model_construct(**fields)
    assert item == constructed == MemoryItem(**fields)
    assert item.__dict__ == constructed.__dict__
    assert list(item.__dict__) == list(MemoryItem.model_fields)
    assert item.model_fields_set == constructed.model_fields_set == set(MemoryItem.model_fields)
    assert item.model_dump() == constructed.model_dump()
    assert item.model_fields_set is not MemoryItem.from_record(record).model_fields_set
    with pytest.raises(pydantic.ValidationError):
        item.key = "other"  # frozen, as a constructed item is

"""Hybrid ranking: reciprocal rank fusion of a dense and a lexical ranking, paged exactly.

Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): an item at rank ``r``
(1-based) of a list adds ``weight / (RRF_K + r)`` to its score. The hybrid order of a scope is
defined once, whatever page is asked for:

1. the items of the top :data:`FUSION_DEPTH` of the dense ranking and of the lexical ranking,
   by fused score (ties by id);
2. then every other item of the scope, in dense order.

Every page is a slice of that one order, so consecutive pages never repeat or skip an item,
at any depth; a page within the fused block costs two rankings of :data:`FUSION_DEPTH` items,
a deeper one a dense ranking reaching its end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memvault.backends.base import Ranked

RRF_K = 10
"""Rank constant of reciprocal rank fusion. Chosen on the LoCoMo benchmark: on the same
indexed texts the paper's 60 (weight 1) gave recall@10 0.717, 10 (weight 2) 0.768; chosen
leave-one-conversation-out, the held-out conversations reach 0.765 (``bench/README.md``)."""

LEXICAL_WEIGHT = 2.0
"""Weight of the lexical list in hybrid fusion (the dense list weighs 1), from the LoCoMo
benchmark, where BM25 alone beats MiniLM alone."""

FUSION_DEPTH = 100
"""How many items of each ranking are fused (see the module docstring)."""


def fuse(rankings: Sequence[Ranked], weights: Sequence[float], *, k: int = RRF_K) -> Ranked:
    """Reciprocal rank fusion of rankings.

    Args:
        rankings: Lists of ``(id, score)``, best first; scores are ignored.
        weights: One weight per list.
        k: The rank constant (see :data:`RRF_K`).

    Returns:
        Every id found, by fused score ``sum(weight / (k + rank))``, best first; ties by id.
    """
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, (item_id, _) in enumerate(ranking, 1):
            scores[item_id] = scores.get(item_id, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))


def hybrid_page(
    dense: Callable[[int], Ranked],
    lexical: Callable[[int], Ranked],
    *,
    offset: int,
    limit: int,
) -> Ranked:
    """One page of the hybrid order of a scope (see the module docstring).

    Args:
        dense: ``n -> `` the top ``n`` of the dense ranking, best first.
        lexical: ``n -> `` the top ``n`` of the lexical ranking, best first.
        offset: Items of the order to skip.
        limit: Most items to return.

    Returns:
        ``(id, score)`` pairs: the fused score in the fused block; after it, the RRF score
        the item's dense rank alone gives.
    """
    dense_top = dense(FUSION_DEPTH)
    fused = fuse([dense_top, lexical(FUSION_DEPTH)], [1.0, LEXICAL_WEIGHT])
    page = fused[offset : offset + limit]
    if len(page) == limit or len(dense_top) < FUSION_DEPTH:
        return page
    # The page reaches past the fused block: the rest of the scope in dense order.
    seen = {item_id for item_id, _ in fused}
    start = max(0, offset - len(fused))
    wanted = start + (limit - len(page))
    ranked = dense(len(fused) + wanted)
    tail = [(i, 1.0 / (RRF_K + rank)) for rank, (i, _) in enumerate(ranked, 1) if i not in seen]
    return page + tail[start:wanted]

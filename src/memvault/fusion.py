"""Hybrid ranking: a dense and a lexical ranking fused by their scores, paged exactly.

Each ranking's scores (cosine similarity, BM25) are brought to ``[0, 1]`` by min-max
normalisation over its top :data:`FUSION_DEPTH` (the best item of a list gets 1, the last
0; all get 1 when their scores are equal), and an item's fused score is the convex combination

    LEXICAL_WEIGHT * lexical + (1 - LEXICAL_WEIGHT) * dense

(an item missing from a list gets that list's 0). When the query names a calendar period
(:mod:`memvault.periods`), the items of the two tops created in it, or up to
:data:`~memvault.periods.DATE_SLACK` after it, get :data:`DATE_BONUS` more, and when there is
such an item every fused score is divided by ``1 + DATE_BONUS`` (scores compare within one
query, as ever). The lexical ranking's first item is kept
first, so that fusion never moves the best lexical match off the top: on the LoCoMo benchmark
lexical search alone is right at rank 1 more often than any fusion tried, while fusion finds
more at ranks 2-20 (``bench/README.md``). Reported scores are in ``[0, 1]``: half the fused
score, plus 1/2 for the item kept first. The hybrid order of a scope is
defined once, whatever page is asked for:

1. the items of the top :data:`FUSION_DEPTH` of the dense ranking and of the lexical ranking,
   by fused score (ties by id);
2. then every other item of the scope, in dense order, scored ``(cosine - lowest cosine of
   the dense top) / 2``, in ``[-1, 0]``: scores never rise down the order.

Every page is a slice of that one order, so consecutive pages never repeat or skip an item,
at any depth; a page within the fused block costs two rankings of :data:`FUSION_DEPTH` items
(one query where the backend fetches both at once), a deeper one a dense ranking reaching its
end.

Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009) was the store's fusion
before; ``bench/README.md`` compares the two.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from memvault.model import Ranked

LEXICAL_WEIGHT = 0.7
"""Share of the normalised lexical score in the fused score (the dense share is the rest), out
of 0.6, 0.7 and 0.8, chosen with BM25's constants and the date bonus on the LoCoMo
conversations by ``bench/ranking_choice.py`` (its figures are in ``bench/README.md``)."""

DATE_BONUS = 0.6
"""Added to the fused score of an item stored in a period the query names (before the sum is
brought back to ``[0, 1]``), out of 0, 0.2, 0.4 and 0.6, chosen with :data:`LEXICAL_WEIGHT`."""

FUSION_DEPTH = 100
"""How many items of each ranking are fused (see the module docstring)."""


def _normalised(ranking: Ranked) -> dict[str, float]:
    """Min-max normalised scores: 1 for the best, 0 for the last, 1 for all if all are equal."""
    if not ranking:
        return {}
    scores = [score for _, score in ranking]
    low, span = min(scores), max(scores) - min(scores)
    return {item_id: (score - low) / span if span else 1.0 for item_id, score in ranking}


def blend(
    dense: Ranked,
    lexical: Ranked,
    *,
    weight: float = LEXICAL_WEIGHT,
    dated: Collection[str] = (),
    bonus: float = DATE_BONUS,
) -> Ranked:
    """Score fusion of a dense and a lexical ranking (see the module docstring).

    Args:
        dense: ``(id, cosine similarity)`` pairs, best first.
        lexical: ``(id, BM25 score)`` pairs, best first.
        weight: Share of the lexical score, in ``[0, 1]``.
        dated: Ids of items stored in a period the query names; each gets ``bonus``.
        bonus: Added to the fused score of each id of ``dated``, ``>= 0``; when ``dated``
            is not empty, every fused score is then divided by ``1 + bonus``.

    Returns:
        Every id found, best first: the lexical first with ``(1 + fused score) / 2``, then
        the others by ``fused score / 2`` (ties by id); every score is in ``[0, 1]``.
    """
    scores: dict[str, float] = {}
    for ranking, share in ((dense, 1.0 - weight), (lexical, weight)):
        for item_id, normalised in _normalised(ranking).items():
            scores[item_id] = scores.get(item_id, 0.0) + share * normalised
    if dated:
        scores = {
            item_id: (score + (bonus if item_id in dated else 0.0)) / (1.0 + bonus)
            for item_id, score in scores.items()
        }
    top = lexical[0][0] if lexical else None
    rest = sorted(
        ((item_id, score / 2) for item_id, score in scores.items() if item_id != top),
        key=lambda pair: (-pair[1], pair[0]),
    )
    return rest if top is None else [(top, (1.0 + scores[top]) / 2), *rest]


def hybrid_page(
    top: tuple[Ranked, Ranked],
    dense: Callable[[int], Ranked],
    *,
    offset: int,
    limit: int,
    dated: Collection[str] = (),
) -> Ranked:
    """One page of the hybrid order of a scope (see the module docstring).

    Args:
        top: The top :data:`FUSION_DEPTH` of the dense ranking (cosine scores) and of the
            lexical ranking (BM25 scores), each best first.
        dense: ``n -> `` the top ``n`` of the dense ranking, best first, with cosine scores;
            called only for a page reaching past the fused block.
        offset: Items of the order to skip.
        limit: Most items to return.
        dated: Ids of the items of ``top`` stored in a period the query names (see
            :func:`blend`).

    Returns:
        ``(id, score)`` pairs: the score :func:`blend` gives in the fused block; after it,
        ``(cosine - lowest cosine of the dense top) / 2``, in ``[-1, 0]``.
    """
    dense_top, lexical_top = top
    fused = blend(dense_top, lexical_top, dated=dated)
    page = fused[offset : offset + limit]
    if len(page) == limit or len(dense_top) < FUSION_DEPTH:
        return page
    # The page reaches past the fused block: the rest of the scope in dense order.
    seen = {item_id for item_id, _ in fused}
    start = max(0, offset - len(fused))
    wanted = start + (limit - len(page))
    ranked = dense(len(fused) + wanted)
    low = min(score for _, score in dense_top)
    tail = [(i, (score - low) / 2) for i, score in ranked if i not in seen]
    return page + tail[start:wanted]

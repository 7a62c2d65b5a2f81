"""``memvault ui``: a local web inspector over any store (``pip install 'memvault[ui]'``).

Server-rendered HTML (Starlette, Jinja2, one style sheet, no script), served by uvicorn on
127.0.0.1 and reached with a random token (:mod:`memvault.inspector.security`). Every read
and change goes through :class:`~memvault.MemoryStore`'s public API. Modules: ``app`` (routes,
errors as pages, the server), ``views`` (pages that read), ``actions`` (edit, forget,
erase, release), ``forms`` (fields checked), ``paths`` (URLs read back), ``render`` (templates),
``security`` (token, Host, Origin, body size).

Pages, and the ``data-testid`` of their key elements (stable: browser tests click by them):

- every page: ``nav-home``, ``nav-search``, ``nav-quarantined``, ``page-title`` (its ``h1``);
  its icon is ``/static/favicon.svg``.
- ``/``: the namespaces as a tree: ``store-summary``, ``namespace-tree`` (or
  ``empty-store``), ``namespace-node`` (``data-namespace`` = the path), ``namespace-link``,
  ``namespace-count`` (memories in exactly it), ``namespace-total`` (in it and below).
- ``/ns/<namespace>?page=N``: its memories and those below, most recently updated first,
  closed ones included, 50 a page: ``namespace-summary``, ``export-link``,
  ``quarantined-link`` (the held memories under it), ``memory-list``,
  ``memory-row`` (``data-key``), ``memory-link``, ``memory-text``, ``memory-namespace`` (for
  one below), ``memory-kind``, ``memory-created``, ``memory-updated``, ``memory-validity``,
  ``memory-mentions``, ``memory-sources`` (how many, ``-`` for none), ``memory-provenance``
  (who wrote it: ``user · session t1``), ``memory-quarantined``, ``pager``, ``page-prev``,
  ``page-next``, ``page-info``.
- ``/item/<namespace>/<key>``: the memory and its history: ``item-namespace``,
  ``memory-detail``, ``memory-text``, ``memory-kind``, ``memory-created``,
  ``memory-updated``, ``memory-expires``, ``memory-valid-from``, ``memory-valid-to``,
  ``memory-mentions``, ``memory-provenance``, ``memory-provenance-note`` (an edit keeps it),
  ``memory-sources`` (links, ``-`` for none),
  ``memory-source``, ``memory-quarantined`` (for a held one with ``release-link``),
  ``memory-value``, ``edit-form``, ``edit-text``, ``edit-context`` and ``edit-context-note``
  (for a memory with a context), ``edit-screen-note``, ``edit-submit``, ``forget-link``,
  ``erase-link``; for a key with only a history left, ``no-live-memory``; the timeline
  ``history-timeline``, ``history-entry`` (``data-event``), ``history-at``,
  ``history-event``, ``history-source``, ``history-before``, ``history-after`` (or, for an
  erase and the entries whose text it erased, ``history-erased``).
- ``/forget/<namespace>/<key>``, ``/erase/<namespace>/<key>``,
  ``/release/<namespace>/<key>``: the confirmation step: ``confirm-what``, ``confirm-form``,
  ``confirm-submit``, ``confirm-cancel``; for a release ``confirm-held`` (why it is held).
- ``/quarantined?ns=&page=N``: the memories the poisoning firewall holds
  (:func:`memvault.firewall.held`) under ``ns`` (empty: all), most recently updated first,
  closed ones included, 50 a page, for review: ``quarantined-summary``, ``quarantined-form``,
  ``quarantined-namespace-filter``, ``quarantined-submit``, ``quarantined-list`` (or
  ``no-quarantined``), ``quarantined-row`` (``data-namespace``, ``data-key``),
  ``quarantined-memory-link``, ``quarantined-text``, ``quarantined-namespace``,
  ``quarantined-reason``, ``quarantined-provenance``, ``quarantined-updated``,
  ``release-link``, ``pager``,
  ``page-prev``, ``page-next``, ``page-info``.
- ``/search?q=&ns=&mode=&as_of=``: ``search-form``, ``search-query``, ``search-namespace``,
  ``search-mode``, ``search-as-of``, ``search-submit``; with a query ``search-explained``,
  ``score-explained``, ``search-periods``, ``search-results``, ``result-row`` (``data-key``),
  ``result-rank``, ``result-link``, ``result-text``, ``result-provenance``, ``result-why``,
  ``result-score``, ``result-score-type``, ``result-why-dense``, ``result-why-lexical`` (or
  ``no-results``).
- ``/export/<namespace>``: a JSON Lines download (the store's export).
- an error: ``error-message``, ``error-status``, ``error-home``; on a conflict (409)
  ``conflict-current`` and ``conflict-reload``.

A namespace segment or key is one percent-encoded path segment (``/`` inside as ``%2F``; a
segment ``.`` or ``..`` as ``~.`` or ``~..``, and ``~`` put in front of one of those as
``~~.``; see :mod:`memvault.inspector.paths`).
"""

DEFAULT_PORT = 8766
"""The port ``memvault ui`` serves on unless told (``memvault mcp --transport http`` takes
8765, so both run side by side)."""

INSTALL = "pip install 'memvault[ui]'"
"""What to install for the inspector."""

"""Shared web plumbing of the project: what every page and API view relies on but no app owns.

- errors as answers: :mod:`.exceptions` (the DRF exception handler), :mod:`.error_views` and
  :mod:`.middleware` (``ApplicationError`` and HTTP errors rendered as pages);
- caching: :mod:`.cache` (shared cache keys and versions), :mod:`.page_cache` (whole public
  answers shared by all workers), :mod:`.fast_path` (anonymous reads answered from them
  before the view), :mod:`.http_cache` (ETags and
  conditional requests), :mod:`.warmup` (filling a new worker's caches);
- protection and health: :mod:`.throttling`, :mod:`.shedding` (503 for reads that waited
  too long), :mod:`.health`;
- request and response helpers: :mod:`.pagination`, :mod:`.parsers`, :mod:`.converters`,
  :mod:`.downloads`, :mod:`.schema` (OpenAPI), :mod:`.rules_page` (docs/rules.md as a page).

The error model itself (:mod:`hkk_tournament.errors`) stays in the project package: services
raise it, and services never import web code.
"""

"""The play page (issue 15): a solo game against the computer powers in the browser, served by
the archive's web process (``PlayApp`` answers ``/play`` and ``/static``, the archive the rest)."""

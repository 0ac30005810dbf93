"""The judge's JSON API for programs (issue 27): ``/api/v1/`` on the archive's web port."""

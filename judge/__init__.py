"""A play-by-email Diplomacy judge."""

import os

from judge.stale_build import stale_build

# The adjudicator from its source even where the compiled build is installed: when asked, and
# in a checkout whose source changed since the build (its extensions would shadow the change)
if os.environ.get("JUDGE_PURE_PYTHON") == "1" or stale_build() is not None:
    from judge.pure_python import use_pure_python

    use_pure_python()

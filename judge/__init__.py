"""A play-by-email Diplomacy judge."""

import os

if os.environ.get("JUDGE_PURE_PYTHON") == "1":
    # the adjudicator from its source even where the compiled build is installed
    from judge.pure_python import use_pure_python

    use_pure_python()

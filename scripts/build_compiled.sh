#!/usr/bin/env bash
# The compiled adjudicator, built in place for a checkout installed with `pip install -e` (which
# builds it too where it can, see setup.py: run this after changing the adjudicator's source):
# the C extensions land next to the .py files and are imported instead of them.
#   scripts/build_compiled.sh          build (needs mypy, which brings mypyc, and a C compiler)
#   scripts/build_compiled.sh --clean  remove them: back to pure Python
# Check a build against the pure source: python -m pytest -q tests/adjudicator/test_compiled.py
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python}

clean() {
    # the extensions (one per module, and the library they share: compiled__mypyc)
    find judge \( -name '*.so' -o -name '*.pyd' \) -delete
    # what mypyc and setuptools leave in build/ (C sources, objects)
    rm -rf build/__native_* build/judge build/ops.txt build/temp.* build/lib.*
}

if [ "${1:-}" = "--clean" ]; then
    clean
    echo "compiled modules removed: the adjudicator is pure Python"
    exit 0
fi
if ! "$PYTHON" -c "import mypyc" 2>/dev/null; then
    echo "mypyc is not installed: pip install mypy (or the dev extra)" >&2
    exit 2
fi
clean
JUDGE_MYPYC=1 "$PYTHON" setup.py -q build_ext --inplace
"$PYTHON" -c "import judge.adjudicator.resolver as r; print('compiled:', r.__file__)"

#!/usr/bin/env bash
# Re-extract the judge's messages and merge them into the catalogs:
#   scripts/catalogs.sh        extract judge/locale/judge.pot and update the three judge.po
# then translate the new (empty or fuzzy) entries of it and fr; tests/test_catalogs.py fails
# until every message is translated and the .pot matches the code.
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel extract -F babel.cfg --no-location --sort-output --omit-header \
    -k tr:2 -k trn:2,3 -k trp:2c,3 -k N_ -k NC_:1c,2 \
    -o judge/locale/judge.pot .
for lang in en it fr; do
    po="judge/locale/$lang/LC_MESSAGES/judge.po"
    if [ -f "$po" ]; then
        pybabel update -i judge/locale/judge.pot -D judge -d judge/locale -l "$lang" \
            --ignore-obsolete --no-fuzzy-matching --width=100
    else
        pybabel init -i judge/locale/judge.pot -D judge -d judge/locale -l "$lang" --no-location
    fi
done

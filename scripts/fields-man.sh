#!/bin/sh
# Regenerate ward-policy(7)'s FIELDS section from the field table
# (runtime/policy/fields.c), through tests/unit/test_fields --man. Run after
# a build (make check builds the test); tests/unit/test_fields fails while
# the man page and the table disagree.
set -eu
cd "$(dirname "$0")/.."
make -s tests/unit/test_fields >/dev/null
tests/unit/test_fields --man >doc/.fields.tmp
awk -v gen=doc/.fields.tmp '
	/^\.SH FIELDS$/ { skip = 1; while ((getline l < gen) > 0) print l; next }
	/^\.SH / && skip { skip = 0 }
	/^\.SH OPT-OUTS$/ && !done && !had { while ((getline l < gen) > 0) print l }
	!skip { print }
' had="$(grep -c '^\.SH FIELDS$' doc/ward-policy.7 || true)" done=0 doc/ward-policy.7 >doc/.ward-policy.7.tmp
mv doc/.ward-policy.7.tmp doc/ward-policy.7
rm -f doc/.fields.tmp

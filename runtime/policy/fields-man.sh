#!/bin/sh
# Regenerate ward-policy(7)'s FIELDS section from the field table
# (runtime/policy/fields.c), through tests/unit/test_fields --man. Run after
# a build (make check builds the test); tests/unit/test_fields fails while
# the man page and the table disagree.
set -eu
cd "$(dirname "$0")/../.."
make -s tests/unit/test_fields >/dev/null
tests/unit/test_fields --man >runtime/policy/.fields.tmp
awk -v gen=runtime/policy/.fields.tmp '
	/^\.SH FIELDS$/ { skip = 1; while ((getline l < gen) > 0) print l; next }
	/^\.SH / && skip { skip = 0 }
	/^\.SH OPT-OUTS$/ && !done && !had { while ((getline l < gen) > 0) print l }
	!skip { print }
' had="$(grep -c '^\.SH FIELDS$' runtime/policy/ward-policy.7 || true)" done=0 runtime/policy/ward-policy.7 >runtime/policy/.ward-policy.7.tmp
mv runtime/policy/.ward-policy.7.tmp runtime/policy/ward-policy.7
rm -f runtime/policy/.fields.tmp

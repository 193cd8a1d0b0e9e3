# What every bats file of ward needs first: bats-support/bats-assert and
# the paths make check (or make check-engines) exports.

load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

: "${WARD:?WARD must point at the ward binary (run through make check)}"
: "${WARD_BUILDDIR:=$(dirname "$WARD")}"
: "${WARD_SRCDIR:=$WARD_BUILDDIR}"
: "${BUSYBOX:=/bin/busybox}"

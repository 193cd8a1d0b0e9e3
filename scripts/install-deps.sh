#!/bin/sh
# Install everything ward needs to build, test and demo, from Debian 12
# packages. Idempotent: it asks apt only for what is missing.
set -eu

PKGS="build-essential autoconf automake libtool pkg-config
      libyajl-dev libseccomp-dev libmount-dev
      bats bats-support bats-assert busybox-static jq python3-jsonschema
      clang clang-format cppcheck"
# For benchmarks only; skipped when not available.
OPTIONAL="crun runc hyperfine"

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: run as root (apt-get needs it)" >&2
	exit 1
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "install-deps: installing$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
for p in $OPTIONAL; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" \
			>/dev/null 2>&1 || echo "install-deps: optional $p not installed (benchmarks only)"
	fi
done

#!/bin/sh
# Quick start, step 1: install dependencies, build, run the demo.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
sh scripts/build.sh
make demo

#!/bin/sh
# Quick start, step 1: install dependencies, build, run the demo.
set -eu
cd "$(dirname "$0")/../.."
sh runtime/setup/install-deps.sh
sh runtime/setup/build.sh
make demo

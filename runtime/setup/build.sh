#!/bin/sh
# Configure (once) and build in the source tree.
set -eu
cd "$(dirname "$0")/../.."
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
	autoreconf -fi
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ]; then
	./configure
fi
make -j"$(nproc)"

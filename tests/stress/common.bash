# What faults.bash and stress.bash share: the bundle, a random point in
# time, and killing ward there. Sourced after WARD, BUSYBOX, ROOT, BUNDLE
# and TAG are set.

w() { "$WARD" --root "$ROOT" "$@"; }

# The bundle: busybox, a command whose cmdline carries the tag (sh stays:
# two commands), every namespace the default config has.
make_bundle() {
	mkdir -p "$BUNDLE"
	"$HERE/../helpers/mkrootfs.sh" "$BUSYBOX" "$BUNDLE/rootfs" >/dev/null
	"$WARD" spec --full --bundle "$BUNDLE"
	jq --arg t "$TAG" '.process.args = ["/bin/sh", "-c", "sleep 1000; true", $t]' \
		"$BUNDLE/config.json" >"$BUNDLE/c.json" && mv "$BUNDLE/c.json" "$BUNDLE/config.json"
}

# A random point within the first ~60 ms (a create takes about 20).
rand_sleep() { sleep "0.0$(printf '%02d' $((RANDOM % 60)))"; }

# Kill ward (and only ward: what it made must clean up after it) at a
# random point of COMMAND...
kill_ward_during() {
	local pid
	# ward itself in the background (not a function's subshell): $! is ward.
	"$WARD" --root "$ROOT" "$@" >/dev/null 2>&1 &
	pid=$!
	rand_sleep
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

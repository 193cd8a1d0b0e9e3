#!/usr/bin/env bats
# The runtime's own processes, seen from inside the container (every profile):
#   CVE-2016-9962 (runc GHSA-gp4j-w3vj-7299): runc's init, and `runc exec`'s
#     process, joined the container before its execve while still dumpable:
#     a process in the container could ptrace it or open its /proc entries
#     (fd/N, the host fds it held; mem; environ; root; cwd). Class: ward's
#     processes in the container are closed to it until they become the
#     container's process. Swept: the created-not-started init (an exec'd
#     prober walks every pid), and every exec (plain, --tty, --cap) raced by a
#     prober that walks every pid without pause.
#   CVE-2019-5736 (runc GHSA-gxmr-w5mj-v8hh): a container whose /bin/sh is
#     "#!/proc/self/exe" made `runc exec` (and runc's init) execute runc
#     itself inside the container, whose /proc/<pid>/exe the container opened
#     and, once runc ended, rewrote: the host's runc. Class: the runtime's
#     binary is never reachable for writing from inside. Swept: run (the init
#     executes the image's "#!/proc/self/exe"), exec and exec --tty; a prober
#     holds every foreign exe it can open and writes through it until the end;
#     the host's binary (a copy, $TMP/ward-copy) keeps its hash.
# The prober is tests/escapes/probe.c (static, /bin/esc-probe in the image).

load escapes

setup() {
	esc_setup
	probe_install
	ward_copy
}

# probe_result NAME [killed]: the prober's findings (/out/NAME) clean and
# complete (or, killed with its container, clean so far).
probe_result() {
	local f="$OUT/$1"
	if [ "${2:-}" = killed ]; then
		grep -q ESCAPED "$f" && { echo "$1: $(cat "$f")"; return 1; }
		tally "$1 (killed with its container): $(grep -c '^held' "$f") held"
		return 0
	fi
	wait_files 1 "$f.done" || { echo "$1: the prober never finished: $(cat "$f" 2>/dev/null)"; return 1; }
	if grep -q ESCAPED "$f" || ! grep -q '^PROBE-DONE' "$f"; then
		echo "$1: $(cat "$f")"
		return 1
	fi
	tally "$1: $(tail -1 "$f")"
}

# The probe, run in the container: its output a file on the volume, renamed
# to NAME.done when complete.
probe_cmd() { echo "/bin/esc-probe $2 $3 >/out/$1 2>&1; touch /out/$1.done"; }

@test "CVE-2016-9962: ward's init while created and ward's exec before its execve are closed to the container (exe, fd/*, mem, environ, root, cwd, ptrace), every profile" {
	local p i bad=0 d
	for p in "${PROFILES[@]}"; do
		as "$p"
		# Created, not started: the only other process is ward's init.
		cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
		cmd "$(probe_cmd "$p-init-running" reach 2)"
		wfile create --bundle "$BUNDLE" "$ID"
		[ "$rc" -eq 0 ] || { echo "$p create: $out"; return 1; }
		wrun exec "$ID" sh -c "$(probe_cmd "$p-created" reach 0.3)"
		[ "$rc" -eq 0 ] || { echo "$p exec into the created container: $out"; bad=$((bad + 1)); }
		probe_result "$p-created" || bad=$((bad + 1))
		d=$(sed -n 's/^PROBE-DONE.* denied=\([0-9]*\).*/\1/p' "$OUT/$p-created")
		[ "${d:-0}" -ge 1 ] || { echo "$p: the prober never met the created init"; bad=$((bad + 1)); }
		# Started: the init becomes a prober that races every exec.
		wrun start "$ID"
		for i in 1 2 3 4; do
			wrun exec "$ID" true
			wrun exec --tty "$ID" true
			wrun exec --cap CAP_SYS_PTRACE "$ID" true
		done
		probe_result "$p-init-running" || bad=$((bad + 1))
		wrun delete --force "$ID"
	done
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}

@test "CVE-2019-5736: ward's binary is never writable from inside through a /proc/<pid>/exe of ward (run, exec, exec --tty of an image's #!/proc/self/exe), every profile" {
	local p bad=0
	printf '#!/proc/self/exe\n' >"$BUNDLE/rootfs/bin/evil"
	chmod 755 "$BUNDLE/rootfs/bin/evil"
	for p in "${PROFILES[@]}"; do
		as "$p"
		# run: the init executes the image's script, that is ward, while a
		# prober exec'd into the created container holds its exe.
		cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
		cfg '.process.args = ["/bin/evil"]'
		wfile create --bundle "$BUNDLE" "$ID"
		[ "$rc" -eq 0 ] || { echo "$p create: $out"; return 1; }
		wfile exec --detach "$ID" sh -c "$(probe_cmd "$p-run" write 1.5)"
		wait_for "the prober" test -e "$OUT/$p-run"
		wrun start "$ID"
		wait_for "$ID to stop" stopped_fast "$ID"
		probe_result "$p-run" killed || bad=$((bad + 1))
		wrun delete --force "$ID"
		# exec: ward's process runs the script, that is ward, in the
		# container; the prober (the init) holds and writes until the end.
		cp "$BUNDLE/config.orig" "$BUNDLE/config.json"
		cmd "$(probe_cmd "$p-exec" write 2); sleep 100"
		wfile run -d --bundle "$BUNDLE" "$ID"
		[ "$rc" -eq 0 ] || { echo "$p run -d: $out"; return 1; }
		for i in 1 2; do
			wrun exec "$ID" /bin/evil
			wrun exec --tty "$ID" /bin/evil
		done
		probe_result "$p-exec" || bad=$((bad + 1))
		wrun delete --force "$ID"
		[ "$(sha256sum <"$WARD")" = "$WARD_SUM" ] || { echo "$p: the host's ward binary changed"; bad=$((bad + 1)); WARD_SUM=$(sha256sum <"$WARD"); }
	done
	# The binary itself: never open for writing while ward runs from it?
	# (ward runs from a sealed copy: the file is free, but stays unchanged.)
	assert_no_leftovers
	[ "$bad" -eq 0 ]
}

# Users for the rootless tests (issue #16): RL with subordinate ids
# (/etc/subuid, /etc/subgid), RL_NOSUB without any. Made once, kept.

RL=ward-rl
RL_NOSUB=ward-rl-nosub

rootless_users() {
	local u
	for u in "$RL" "$RL_NOSUB"; do
		id -u "$u" >/dev/null 2>&1 || useradd -M -d / -s /usr/sbin/nologin "$u"
	done
	# Debian's useradd gives new users subordinate ids: the first keeps
	# them (or gets some), the second has none.
	grep -q "^$RL:" /etc/subuid || usermod --add-subuids 400000-465535 "$RL"
	grep -q "^$RL:" /etc/subgid || usermod --add-subgids 400000-465535 "$RL"
	sed -i "/^$RL_NOSUB:/d" /etc/subuid /etc/subgid
}

# A directory the user can reach, holding ward's binary in a directory of
# its own (the policy guards the one holding ward: nothing writable may be
# bound from there). Sets UBIN (the binary).
rootless_binary() { # rootless_binary DIR
	mkdir -p "$1/bin"
	chmod 755 "$1" "$1/bin"
	cp "$WARD" "$1/bin/ward"
	chmod 755 "$1/bin/ward"
	UBIN="$1/bin/ward"
}

# Run a command as user $U with only the environment a login gives, plus
# XDG_RUNTIME_DIR=$UXDG and the extra NAME=VALUE words before --.
as_user() { # as_user [NAME=VALUE...] -- COMMAND...
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	setpriv --reuid "$U" --regid "$U" --clear-groups \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin XDG_RUNTIME_DIR="$UXDG" "${env[@]}" "$@"
}

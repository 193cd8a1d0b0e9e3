#!/bin/sh
# The demo: ward's built-in default bundle (`ward spec`) around a busybox
# rootfs, run as a sandboxed container. No network needed.
set -eu
ward=$1
busybox=${2:-/bin/busybox}
here=$(cd "$(dirname "$0")/../.." && pwd)
bundle=${DEMO_BUNDLE:-$(pwd)/demo-bundle}
state=$(mktemp -d /tmp/ward-demo-state.XXXXXX)
trap 'rm -rf "$state"' EXIT

rm -rf "$bundle"
mkdir -p "$bundle"
sh "$here/tests/helpers/mkrootfs.sh" "$busybox" "$bundle/rootfs"
"$ward" spec --bundle "$bundle"
# Replace the default `sh` with a short tour of the sandbox.
script='echo "== inside a ward container =="
echo "pid: $$ (own pid namespace); hostname: $(hostname)"
echo "user: $(id); uid map: $(cat /proc/self/uid_map | tr -s " ")"
echo "processes visible:"; ps -o pid,comm
echo "network interfaces: $(ls /sys/class/net | tr "\n" " ")"
grep -E "^(CapEff|CapBnd|NoNewPrivs|Seccomp):" /proc/self/status
touch /etc/demo 2>/dev/null || echo "root filesystem: read-only"
echo "/proc/timer_list reads $(wc -c </proc/timer_list) bytes (masked)"'
# (python3, not jq: jq 1.6 rounds the seccomp profile's 64-bit masks)
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
c["process"]["args"] = ["sh", "-c", sys.argv[2]]
json.dump(c, open(sys.argv[1] + ".new", "w"), indent=2)' "$bundle/config.json" "$script"
mv "$bundle/config.json.new" "$bundle/config.json"
echo "== ward check --profile strict $bundle: what the container would reach =="
"$ward" check --profile strict "$bundle" | sed -n '/^verdict/p; /^adjustments/,/^notes/p' | grep -E "verdict|field|new"
echo "== ward --profile strict run --bundle $bundle demo =="
"$ward" --root "$state" --profile strict run --bundle "$bundle" demo
echo "== container exited with status $?; containers left behind: $(ls "$state" | wc -l) =="

#!/bin/sh
# mkrootfs.sh BUSYBOX DIR: a minimal root filesystem from a static busybox.
set -eu
busybox=$1
dir=$2
if ! "$busybox" --help >/dev/null 2>&1; then
	echo "mkrootfs: $busybox is not a working busybox (install busybox-static)" >&2
	exit 1
fi
if ldd "$busybox" >/dev/null 2>&1; then
	echo "mkrootfs: $busybox is dynamically linked (install busybox-static)" >&2
	exit 1
fi
mkdir -p "$dir"/bin "$dir"/proc "$dir"/sys "$dir"/dev "$dir"/tmp "$dir"/etc "$dir"/root \
	"$dir"/home "$dir"/mnt "$dir"/run "$dir"/var
cp "$busybox" "$dir"/bin/busybox
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -sf busybox "$dir/bin/$applet"
done
chmod 1777 "$dir"/tmp
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$dir"/etc/passwd
printf 'root:x:0:\ntty:x:5:\nnogroup:x:65534:\n' >"$dir"/etc/group
echo ward >"$dir"/etc/hostname

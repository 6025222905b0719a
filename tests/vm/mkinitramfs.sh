#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the test machine's initramfs (newc cpio).
#
#   tests/vm/mkinitramfs.sh [--gzip] <payload-dir> <out.cpio>
#
# Contents: busybox (static) with its applet links, /init, /sbin/wpoweroff
# (build/vm/wpoweroff, `make -f tests/vm/Makefile vm-tools`), /dev/console,
# and everything in <payload-dir> copied at / (it may override the above).
# Files are stored owned by root with mtime 0, so the output is reproducible.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GZIP=0
if [ "${1:-}" = "--gzip" ]; then
	GZIP=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [--gzip] <payload-dir> <out.cpio>" >&2
	exit 2
fi
PAYLOAD=$1
OUTFILE=$2
BUSYBOX=${BUSYBOX:-/bin/busybox}
WPOWEROFF=${WPOWEROFF:-$ROOT/build/vm/wpoweroff}

[ -d "$PAYLOAD" ] || { echo "mkinitramfs: no directory $PAYLOAD" >&2; exit 1; }
[ -x "$WPOWEROFF" ] || { echo "mkinitramfs: missing $WPOWEROFF (make vm-tools)" >&2; exit 1; }
[ -x "$BUSYBOX" ] || { echo "mkinitramfs: missing $BUSYBOX (busybox-static)" >&2; exit 1; }

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT INT TERM

mkdir -p "$STAGE/bin" "$STAGE/sbin" "$STAGE/usr/bin" "$STAGE/usr/sbin" \
	"$STAGE/proc" "$STAGE/sys" "$STAGE/dev" "$STAGE/tmp" "$STAGE/root" \
	"$STAGE/etc"
cp "$BUSYBOX" "$STAGE/bin/busybox"
"$BUSYBOX" --list-full | while read -r applet; do
	case "$applet" in bin/busybox) continue ;; esac
	[ -e "$STAGE/$applet" ] && continue
	mkdir -p "$STAGE/$(dirname "$applet")"
	ln -s /bin/busybox "$STAGE/$applet"
done
cp "$ROOT/tests/vm/init/init" "$STAGE/init"
chmod 755 "$STAGE/init"
cp "$WPOWEROFF" "$STAGE/sbin/wpoweroff"
echo 'root:x:0:0:root:/root:/bin/sh' > "$STAGE/etc/passwd"
echo 'root:x:0:' > "$STAGE/etc/group"
cp -a "$PAYLOAD/." "$STAGE/"

mkdir -p "$(dirname "$OUTFILE")"
python3 - "$STAGE" "$OUTFILE.tmp" "$GZIP" <<'PY'
import gzip, os, stat, sys

stage, out, use_gzip = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
buf = bytearray()
ino = [100]

def entry(name, mode, data=b'', rdev=(0, 0), nlink=1):
    ino[0] += 1
    nb = name.encode() + b'\0'
    hdr = '070701' + ''.join('%08X' % v for v in (
        ino[0], mode, 0, 0, nlink, 0, len(data), 0, 0,
        rdev[0], rdev[1], len(nb), 0))
    buf.extend(hdr.encode() + nb)
    buf.extend(b'\0' * (-len(buf) % 4))
    buf.extend(data)
    buf.extend(b'\0' * (-len(buf) % 4))

names = []
for dirpath, dirs, files in os.walk(stage):
    dirs.sort()
    for n in sorted(dirs + files):
        names.append(os.path.relpath(os.path.join(dirpath, n), stage))
for name in names:
    path = os.path.join(stage, name)
    st = os.lstat(path)
    perm = stat.S_IMODE(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        entry(name, stat.S_IFLNK | 0o777, os.readlink(path).encode())
    elif stat.S_ISDIR(st.st_mode):
        entry(name, stat.S_IFDIR | perm, nlink=2)
    elif stat.S_ISREG(st.st_mode):
        with open(path, 'rb') as f:
            entry(name, stat.S_IFREG | perm, f.read())
    # other file types in the payload are skipped
entry('dev/console', stat.S_IFCHR | 0o600, rdev=(5, 1))
entry('TRAILER!!!', 0)
buf.extend(b'\0' * (-len(buf) % 512))
data = bytes(buf)
if use_gzip:
    data = gzip.compress(data, compresslevel=6, mtime=0)
with open(out, 'wb') as f:
    f.write(data)
PY
mv "$OUTFILE.tmp" "$OUTFILE"

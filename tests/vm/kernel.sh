#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fetch Debian's stock kernel and turn it into an uncompressed, shrunk ELF
# vmlinux for the test machine (booted through its PVH entry).
#
#   KVER=6.1.0-57-amd64 tests/vm/kernel.sh
#
# KVER defaults to the content of build/kver, else to what linux-image-amd64
# depends on. Outputs: build/kernel/vmlinux, build/kernel/vmlinuz, and the
# modules of the test machines' PCI devices in build/kernel/modules/ (the
# test payload's /modules: e1000.ko, and e1000e.ko, which root and a Linux
# cell load for the e1000e of the q35 machines: it depends on no other
# module, PTP and PPS are built in; msr.ko, /dev/cpu/N/msr, for a Linux
# cell's IPI out of the cell in linux-cell).
# Idempotent and quiet when already done.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/build/kernel"

if [ -z "${KVER:-}" ]; then
	if [ -s "$ROOT/build/kver" ]; then
		KVER=$(tr -d ' \n' < "$ROOT/build/kver")
	else
		KVER=$(apt-cache depends linux-image-amd64 2>/dev/null |
		       sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' |
		       head -n1)
	fi
fi
if [ -z "$KVER" ]; then
	echo "kernel.sh: cannot determine KVER (run apt-get update?)" >&2
	exit 1
fi

mkdir -p "$OUT"
STAMP="$OUT/.done-$KVER"

if [ -f "$STAMP" ] && [ -s "$OUT/vmlinux" ] && [ -s "$OUT/vmlinuz" ] &&
	[ -s "$OUT/modules/e1000.ko" ] && [ -s "$OUT/modules/e1000e.ko" ] &&
	[ -s "$OUT/modules/msr.ko" ]; then
	exit 0
fi

PKG="linux-image-$KVER"
DEB=$(ls "$OUT"/"${PKG}"_*.deb 2>/dev/null | head -n1 || true)
if [ -z "$DEB" ]; then
	echo "kernel.sh: downloading $PKG"
	(cd "$OUT" && apt-get -o APT::Sandbox::User=root download "$PKG" >/dev/null)
	DEB=$(ls "$OUT"/"${PKG}"_*.deb | head -n1)
fi

rm -rf "$OUT/pkg"
dpkg-deb -x "$DEB" "$OUT/pkg"
cp "$OUT/pkg/boot/vmlinuz-$KVER" "$OUT/vmlinuz.tmp"
mkdir -p "$OUT/modules"
cp "$OUT/pkg/lib/modules/$KVER/kernel/drivers/net/ethernet/intel/e1000/e1000.ko" \
	"$OUT/modules/"
cp "$OUT/pkg/lib/modules/$KVER/kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko" \
	"$OUT/modules/"
cp "$OUT/pkg/lib/modules/$KVER/kernel/arch/x86/kernel/msr.ko" "$OUT/modules/"

python3 - "$OUT/vmlinuz.tmp" "$OUT/vmlinux.tmp" <<'PY'
# Extract the XZ payload of a bzImage and shrink the resulting ELF vmlinux.
import lzma, struct, sys

src, dst = sys.argv[1], sys.argv[2]
bz = open(src, 'rb').read()
if bz[0x202:0x206] != b'HdrS':
    sys.exit('kernel.sh: not a bzImage')
setup_sects = bz[0x1f1] or 4
pm = (setup_sects + 1) * 512
off, length = struct.unpack_from('<II', bz, 0x248)
payload = bz[pm + off: pm + off + length]
if not payload.startswith(b'\xfd7zXZ\x00'):
    sys.exit('kernel.sh: payload is not XZ (magic %r)' % payload[:6])
# The kernel's XZ stream uses BCJ + LZMA2; lzma handles it. The stream
# may be followed by padding and a 4-byte size, so decompress one stream.
d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
elf = d.decompress(payload)
if elf[:4] != b'\x7fELF' or elf[4] != 2:
    sys.exit('kernel.sh: payload is not a 64-bit ELF')

# Shrink: keep ELF header and program headers; for each PT_LOAD keep the
# file bytes up to the last non-zero page (the rest becomes memsz-filesz,
# zero-filled by both loaders: QEMU's ELF loader and our shim); drop section
# headers. PT_NOTE offsets are remapped into the new layout.
(e_phoff,) = struct.unpack_from('<Q', elf, 0x20)
e_phentsize, e_phnum = struct.unpack_from('<HH', elf, 0x36)
PH = '<IIQQQQQQ'
phdrs = [list(struct.unpack_from(PH, elf, e_phoff + i * e_phentsize))
         for i in range(e_phnum)]
PAGE = 4096
hdr_end = e_phoff + e_phnum * e_phentsize
out = bytearray(elf[:hdr_end])
moves = []   # (old_off, old_end, new_off)
for ph in phdrs:
    p_type, _, p_off, p_vaddr, _, p_filesz, p_memsz, _ = ph
    if p_type != 1 or p_filesz == 0:
        continue
    data = elf[p_off:p_off + p_filesz]
    n = len(data.rstrip(b'\0'))
    n = min(len(data), (n + PAGE - 1) // PAGE * PAGE)
    data = data[:n]
    # offset congruent to vaddr modulo the page size
    new = (len(out) + PAGE - 1) // PAGE * PAGE + (p_vaddr % PAGE)
    if new - PAGE >= len(out):
        new -= PAGE
    out += b'\0' * (new - len(out))
    moves.append((p_off, p_off + p_filesz, new))
    out += data
    ph[2] = new
    ph[5] = n
for ph in phdrs:
    if ph[0] == 1:
        continue
    for old, end, new in moves:
        if old <= ph[2] and ph[2] + ph[5] <= end:
            ph[2] = new + ph[2] - old
            break
    else:
        # Not inside a kept load segment: append its bytes.
        if ph[5]:
            data = elf[ph[2]:ph[2] + ph[5]]
            new = (len(out) + 7) // 8 * 8
            out += b'\0' * (new - len(out)) + data
            ph[2] = new
for i, ph in enumerate(phdrs):
    struct.pack_into(PH, out, e_phoff + i * e_phentsize, *ph)
# no section headers
struct.pack_into('<Q', out, 0x28, 0)          # e_shoff
struct.pack_into('<HHH', out, 0x3a, 0, 0, 0)  # e_shentsize, e_shnum, e_shstrndx
open(dst, 'wb').write(out)
print('kernel.sh: vmlinux %d MB -> %d MB' % (len(elf) >> 20, len(out) >> 20))
PY

mv "$OUT/vmlinux.tmp" "$OUT/vmlinux"
mv "$OUT/vmlinuz.tmp" "$OUT/vmlinuz"
rm -rf "$OUT/pkg"
rm -f "$OUT"/.done-*
touch "$STAMP"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes the binary system config (ABI revision 1, include/warden/config.h)
of the emulated test machine.

Temporary: human-readable YAML configs and their compiler replace this
script (see docs/abi.md); until then the machine is described in MACHINE
below, one line per region with the reason for it.

  configs/mkconfig.py [--variant NAME] OUTPUT

Variants, for the tests of enable's refusals:
  unreserved   hypervisor memory in ordinary RAM (no memmap= for it)
  overlap      a root memory region that covers hypervisor memory
"""
import struct
import sys

MEM_R, MEM_W, MEM_X, MEM_IO = 1, 2, 4, 8
UC, WB = 0, 6
RWX = MEM_R | MEM_W | MEM_X

HV_START, HV_SIZE = 0x30000000, 0x600000   # first 6 MiB of memmap=64M$0x30000000


def machine(hv_start):
    """The emulated machine, with hypervisor memory at hv_start."""
    return {
        'name': 'Linux',
        'cpus': range(0, 8),            # every CPU the test machine may have
        'memory': [
            # phys, size, flags, type           why
            (0x00000000, 0x000a0000, RWX, WB),  # low RAM
            (0x000a0000, 0x00020000, MEM_R | MEM_W | MEM_IO, UC),  # VGA
            (0x000c0000, 0x00040000, RWX, WB),  # option ROMs, BIOS
            (0x00100000, hv_start - 0x00100000, RWX, WB),  # RAM below Warden
            # RAM above Warden's memory: cell memory (the rest of the
            # memmap= reservation) and Linux's RAM up to 1 GiB, ACPI
            # tables included
            (hv_start + HV_SIZE, 0x40000000 - hv_start - HV_SIZE, RWX, WB),
            # PCI hole, IOAPIC, HPET, local APIC, BIOS flash: devices
            (0xc0000000, 0x40000000, MEM_R | MEM_W | MEM_IO, UC),
        ],
        # every port but COM2 (0x2f8-0x2ff), the hypervisor's console
        'ports': [(0x0000, 0x2f8), (0x300, 0x10000 - 0x300)],
    }


def cell_desc(name, cpus, nregions, nports):
    bits = [0, 0, 0, 0]
    for c in cpus:
        bits[c // 64] |= 1 << (c % 64)
    return struct.pack('<32sIIII4QQHHIQ', name.encode(), 0, nregions, nports,
                       0, *bits, 0, 0, 0, 0, 0)


def main():
    global HV_START
    args = sys.argv[1:]
    variant = ''
    if args and args[0] == '--variant':
        variant, args = args[1], args[2:]
    if variant == 'unreserved':
        HV_START = 0x20000000   # ordinary RAM: Linux uses it
    m = machine(HV_START)
    if variant == 'overlap':
        m['memory'] = list(m['memory']) + [(HV_START, 0x200000, RWX, WB)]
    elif variant not in ('', 'unreserved'):
        sys.exit('mkconfig.py: unknown variant ' + variant)
    regions = b''.join(struct.pack('<QQQIB3x', p, p, s, f, t)
                       for p, s, f, t in m['memory'])
    ports = b''.join(struct.pack('<HHI', b, 0, l) for b, l in m['ports'])
    console = struct.pack('<HHIQ', 1, 0, 115200, 0x2f8)
    platform = struct.pack('<IIHHIQB7x', 0, 0, 0, 0, 0, 0, 0)
    system = struct.pack('<QQ', HV_START, HV_SIZE) + console + platform + \
        cell_desc(m['name'], m['cpus'], len(m['memory']), len(m['ports']))
    assert len(system) == 168, len(system)
    total = 24 + len(system) + len(regions) + len(ports)
    header = struct.pack('<8sHHIII', b'WRDNSYS\0', 1, 1, total, 0, 0)
    with open(args[0], 'wb') as f:
        f.write(header + system + regions + ports)


if __name__ == '__main__':
    main()

# SPDX-License-Identifier: GPL-2.0
"""The qemu-svm part of `make bench` (bench/run.py): rows from the boot
of bench/qemu.sh (root in x2APIC mode: idle exits per reason, exits per
IPI, a cell's exits per device interrupt, lifecycle times), from the
boot of tests/system/scale.sh (16 CPUs, cells of 16 MiB to 1 GiB: the
growth rows) and from bench/linux.sh (Debian's kernel in a cell: time to
its shell, idle exits).  QEMU runs under TCG: times are TCG wall times (unit
"ms TCG"), not hardware figures; exit and pool counts are exact."""
import os
import re

MACHINE = 'qemu-svm'
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, 'bench', 'qemu.sh')
SCALE_SCRIPT = os.path.join(ROOT, 'tests', 'system', 'scale.sh')
# enable, a 1-CPU cell and disable at the CPU counts between the first
# boot's 2 and the scale boot's 16 (one boot each, in WORKDIR/growthN)
GROWTH_SCRIPT = os.path.join(ROOT, 'bench', 'growth.sh')
GROWTH_CPUS = (4, 8)
# root's exits with and without the hypervisor's IOMMU unit, idle and
# under a DMA workload (one boot, in WORKDIR/iommu)
IOMMU_SCRIPT = os.path.join(ROOT, 'bench', 'iommu.sh')


def collect(workdir, r):
    """r: bench/run.py (its parse, idle_rows, Rows, median, read)."""
    com1 = r.read(os.path.join(workdir, 'out', 'com1.log'))
    vals, windows, _ = r.parse(com1)
    rows = r.Rows()
    cpus = [0, 1]
    user = r.KERNEL_LINE.sub('', com1)
    m = re.search(r'^BENCH info cpus ([\d ]+)$', user, re.M)
    if m:
        cpus = sorted(set(int(c) for c in m.group(1).split()))

    def v(phase, row):
        return r.median(vals.get(phase, {}).get(row, []))

    idle = {p: r.idle_rows(p, windows, cpus) for p in ('bare', 'enabled')}
    for c in cpus:
        b = idle['bare'].get(('irqs', c))
        e = idle['enabled'].get(('irqs', c))
        rows.add('idle.irqs_per_s.cpu%d.bare' % c, b, '/s', 'lower')
        rows.add('idle.irqs_per_s.cpu%d.enabled' % c, e, '/s', 'lower')
        for (kind, cc), n in sorted(idle['enabled'].items()):
            if cc == c and kind.startswith('exits.') and \
                    (n or kind == 'exits.total'):
                rows.add('idle.%s_per_s.cpu%d' % (kind, c), n, '/s',
                         'lower', 'root in x2APIC mode, idle')
    rows.add('ipi.icr_exits_per_ipi',
             None if v('enabled', 'ipi.icr_exits_per_1000') is None
             else v('enabled', 'ipi.icr_exits_per_1000') / 1000.0,
             'exits', 'lower', 'root IPI CPU 0 -> 1: its ICR write, '
             'expected 1')
    rows.add('ipi.enabled_tsc_per_100', v('enabled', 'ipi'), 'TSC/100',
             'lower', 'TCG: smp_call_function_single round trip')
    rows.add('cell.msix_exits_per_irq',
             None if v('cell', 'msix.exits_per_1000_irqs') is None
             else v('cell', 'msix.exits_per_1000_irqs') / 1000.0,
             'exits', 'lower', 'e1000e MSI-X in a cell, expected 0')
    for phase in ('enabled', 'cell'):
        for row, n in sorted(vals.get(phase, {}).items()):
            if row.startswith('time.'):
                rows.add(row, r.median(n), 'ms TCG', 'lower')
    rows.add('pool.after_enable', v('enabled', 'pool.after_enable'),
             'pages', 'lower')
    rows.add('pool.per_cell', v('cell', 'pool.per_cell'), 'pages', 'lower',
             'pci-demo-e1000e (1 MiB, a function)')
    done = 'BENCH done' in user
    scale_rows(rows, r.read(os.path.join(workdir, 'scale', 'out',
                                         'com1.log')))
    for n in GROWTH_CPUS:
        scale_rows(rows, r.read(os.path.join(workdir, 'growth%d' % n, 'out',
                                             'com1.log')))
    iommu_rows(rows, r.read(os.path.join(workdir, 'iommu', 'out',
                                         'com1.log')), r)
    # the third boot: bench/linux.sh, Debian's kernel in a 1-CPU cell
    # (TCG times; its idle exits: 0 expected, x2APIC passed through)
    r.linux_rows(rows, r.read(os.path.join(workdir, 'linux', 'out',
                                           'com1.log')),
                 r.read(os.path.join(workdir, 'linux', 'out', 'com3.log')))
    return rows, done


def iommu_rows(rows, com1, r):
    """bench/iommu.sh: root's exits per second by reason, idle and under
    its e1000's DMA, with the hypervisor's IOMMU unit and without it."""
    user = r.KERNEL_LINE.sub('', com1)
    vals, _, _ = r.parse(com1)
    snaps = {}  # (how, what, cpu) -> {reason: count}
    for how, what, cpu, rest in re.findall(
            r'^EXITS (\w+) (\w+) (\d+) (.*)$', user, re.M):
        snaps[(how, what, int(cpu))] = {
            k: int(v) for k, v in re.findall(r'(\w+)=(\d+)', rest)}
    for how in ('with', 'without'):
        for win in ('idle', 'dma'):
            ms = r.median(vals.get(how, {}).get('%s_ms' % win, []))
            if not ms:
                continue
            for cpu in sorted({c for (h, w, c) in snaps if h == how}):
                a = snaps.get((how, win + '0', cpu))
                b = snaps.get((how, win + '1', cpu))
                if a is None or b is None:
                    continue
                for k in sorted(set(a) | set(b)):
                    n = (b.get(k, 0) - a.get(k, 0)) * 1000.0 / ms
                    if k == 'total' or n:
                        rows.add('iommu.%s.%s_exits_per_s.cpu%d%s' % (
                            how, win, cpu, '' if k == 'total' else '.' + k),
                            round(n, 1), '/s', 'lower',
                            'root, %s the IOMMU unit, %s' % (
                                how, 'idle' if win == 'idle' else
                                "its e1000's DMA (ping -A)"))
        ms = r.median(vals.get(how, {}).get('dma_ms', []))
        n = r.median(vals.get(how, {}).get('dma_replies', []))
        if ms and n is not None:
            rows.add('iommu.%s.dma_replies_per_s' % how,
                     round(n * 1000.0 / ms, 1), '/s', 'higher',
                     'TCG: 1,400-byte echoes through root\'s e1000')


def scale_rows(rows, com1):
    """The growth rows: "  > scale: ..." lines of tests/system/scale.sh."""
    m = re.search(r'scale: enable on (\d+) CPUs (\d+) ms', com1)
    if m:
        rows.add('scale.time.enable_%scpus' % m.group(1), int(m.group(2)),
                 'ms TCG', 'lower', 'warden enable, CLI included')
    m = re.search(r'scale: disable on (\d+) CPUs (\d+) ms', com1)
    if m:
        rows.add('scale.time.disable_%scpus' % m.group(1), int(m.group(2)),
                 'ms TCG', 'lower')
    for n, create, destroy in re.findall(
            r'scale: 1-CPU cell on (\d+) CPUs: create (\d+) ms, destroy '
            r'(\d+) ms', com1):
        rows.add('scale.time.create_1cpu_cell_%scpus' % n, int(create),
                 'ms TCG', 'lower', 'tiny-demo; Linux offlines the CPU')
        rows.add('scale.time.destroy_1cpu_cell_%scpus' % n, int(destroy),
                 'ms TCG', 'lower')
    m = re.search(r'scale: 8-CPU cell created, loaded and started in '
                  r'(\d+) ms', com1)
    if m:
        rows.add('scale.time.cell_8cpus_up', int(m.group(1)), 'ms TCG',
                 'lower', 'create+load+start, 8 CPUs offlined by Linux')
    for size, create, load, start, destroy, pages in re.findall(
            r'scale: cell (\w+): create (\d+) ms, load (\d+) ms, start '
            r'(\d+) ms, destroy (\d+) ms, (\d+) pool pages', com1):
        for what, n in (('create', create), ('load', load),
                        ('start', start), ('destroy', destroy)):
            rows.add('scale.time.%s_%s' % (what, size), int(n), 'ms TCG',
                     'lower')
        rows.add('scale.pool_pages_%s' % size, int(pages), 'pages',
                 'lower', 'second-level tables and the cell\'s own')

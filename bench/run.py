#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Warden benchmarks: boot the test machine once, measure root Linux bare,
with Warden enabled and with a cell beside it, and print one table.

    bench/run.py [--build DIR] [--json FILE] [--baseline FILE] [--keep DIR]
                 [--from DIR] [--part linux|ops|iommu]

--json FILE     also write every row as JSON (default: BUILD/bench.json)
--baseline FILE the accepted figures (default: bench/baseline.json); each
                row shows its change against it, and rows more than 10 %
                worse are flagged "WORSE" (idle and IPI rows, which vary
                more between runs, only when twice as bad)
--keep DIR      keep the run's files (consoles) in DIR
--from DIR      do not boot: read the consoles a --keep run left in DIR
--machine M     bochs or qemu-svm only (default: both; qemu-svm's rows come
                from bench/qemu.sh and tests/system/scale.sh, in
                KEEP/qemu-svm, and its baseline is its own)
--part linux    boot only the third machine (Debian's kernel in a cell,
                bench/linux.sh) and print its rows, without the baseline;
                on Bochs, or with --machine qemu-svm on that machine
--part ops      one short boot (bench/ops.sh) measuring only the single
                operations (CPUID, hypercall, xAPIC, IPI) bare and enabled,
                against the baseline: the quick loop for exit-path work;
                bochs-vmx, or bochs-svm with --machine bochs-svm
--part iommu    one qemu-svm boot (bench/iommu.sh): root's exits idle and
                under its e1000's DMA, with the hypervisor's IOMMU unit
                and without it, against the qemu-svm baseline

What each row measures, and what an emulator cannot show: docs/bench.md.
The bench reports; it does not fail on a figure (exit status 0 unless
the machine did not run to the end).
"""
import argparse
import json
import os
import re
import statistics
import struct
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'vm'))

MACHINE = 'bochs'  # the machine profile; the SVM work adds QEMU's
SCRIPT = os.path.join(ROOT, 'bench', 'bochs.sh')
# the second boot: link round trips on three CPUs, in WORKDIR/links
LINK_SCRIPT = os.path.join(ROOT, 'bench', 'links.sh')
# the third boot: Debian's kernel in a 1-CPU cell, in WORKDIR/linux
LINUX_SCRIPT = os.path.join(ROOT, 'bench', 'linux.sh')
# --part ops: single trapped operations only, in WORKDIR/ops
OPS_SCRIPT = os.path.join(ROOT, 'bench', 'ops.sh')
WORSE = 0.10  # a row this much worse than the baseline is flagged
# ... except rows that vary more than that between runs of the same tree
# (idle counts of a few per second, an IPI to a CPU that may be asleep,
# latencies in an emulator): those only when twice as bad.  The ok/MISS checks still judge them.
NOISY = ('idle.', 'ipi.', 'linux.cyclictest.')
NOISY_WORSE = 1.0

# include/warden/stats.h, in WARDEN_STAT_* order
STAT_NAMES = ['total', 'cpuid', 'cr', 'msr_read', 'msr_write', 'x2apic_icr',
              'xapic', 'xsetbv', 'pio', 'mmio', 'hypercall', 'management',
              'nmi', 'init_sipi', 'exception', 'other']

KERNEL_LINE = re.compile(r'(?<!> )\[ *\d+\.\d{6}\] [^\n]*\n')


def boot(build, keep, script=SCRIPT, sub='', wdbench=True, machine='',
         cpus=0):
    """Boot script on machine (default: the first its header names),
    with its header's CPU count unless cpus is given."""
    import run as testrun  # tests/run.py
    import boot as vmboot  # tests/vm/boot.py
    machine = machine or testrun.parse_header(script)['machines'][0]
    meta = testrun.parse_header(script, machine)
    workdir = keep or tempfile.mkdtemp(prefix='warden-bench-')
    if sub:
        workdir = os.path.join(workdir, sub)
    os.makedirs(workdir, exist_ok=True)
    initrd = testrun.build_payload(
        build, script, workdir, machine,
        extra=[os.path.join(ROOT, 'bench', 'bench-lib.sh')] +
        ([os.path.join(ROOT, 'bench', 'wdbench.ko')] if wdbench else []),
        linux=meta['linux-payload'] == 'yes')
    res = vmboot.run(machine, cpus or int(meta['cpus']),
                     float(meta['timeout']), initrd,
                     os.path.join(workdir, 'out'),
                     cpu_model=meta['cpu-model'],
                     cmdline_extra=meta['cmdline'],
                     memory_mb=int(meta['memory'] or 0))
    return workdir, res


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read().replace('\r', '')
    except OSError:
        return ''


class Rows:
    """name -> {value, unit, better ('lower'/'higher'/None), note}"""

    def __init__(self):
        self.rows = {}
        self.order = []

    def add(self, name, value, unit, better=None, note=''):
        if value is None:
            return
        if name not in self.rows:
            self.order.append(name)
        self.rows[name] = {'value': value, 'unit': unit, 'better': better,
                           'note': note}


def median(values):
    return statistics.median(values) if values else None


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def parse(com1):
    """BENCH lines: {phase: {row: [values]}}, window lines, JSON lines."""
    user = KERNEL_LINE.sub('', com1)
    vals, windows, js = {}, {}, {}
    for line in user.splitlines():
        m = re.match(r'^BENCH (\S+) idle\.window (\d+) irqs ([\d ]*)/([\d ]*)'
                     r' loc ([\d ]*)/([\d ]*) idle (\d+)(.*)$', line.strip())
        if m:
            phase, w, ms = m.group(1), int(m.group(2)), int(m.group(7))
            nums = [[int(x) for x in m.group(i).split()] for i in range(3, 7)]
            exits = {}
            for cpu, counts in re.findall(r'(\d+):([\d,]+)', m.group(8)):
                exits[int(cpu)] = [int(x) for x in counts.split(',')]
            windows.setdefault(phase, {})[w] = (ms, nums, exits)
            continue
        m = re.match(r'^BENCH (\S+) (\S+) (-?\d+)$', line.strip())
        if m:
            vals.setdefault(m.group(1), {}).setdefault(m.group(2), []).append(
                int(m.group(3)))
            continue
        m = re.match(r'^BENCHJSON (\S+) (\S+) (\S+) (\{.*\})$', line.strip())
        if m:
            try:
                js[(m.group(1), m.group(2), m.group(3))] = json.loads(
                    m.group(4))
            except ValueError:
                pass
    return vals, windows, js


def ipi_exit_rows(rows, vals):
    """Root's IPI on Bochs: trapped xAPIC accesses per round trip on the
    sender and the receiver (bench-lib.sh ipi_exits; the floor is 3 and 1
    in xAPIC mode, docs/bench.md)."""
    for c, who in ((0, 'sender'), (1, 'receiver')):
        n = median(vals.get('enabled', {}).get(
            'ipi.xapic_exits_per_1000.cpu%d' % c, []))
        rows.add('ipi.xapic_exits_per_ipi.cpu%d' % c,
                 None if n is None else n / 1000.0, 'exits', 'lower',
                 'root IPI round trip, the %s; floor %d' %
                 (who, 3 if c == 0 else 1))


def cycles(v):
    return round(v / 100.0, 2) if v is not None else None


def idle_rows(phase, windows, cpus):
    """Per CPU: median interrupts/s (all kinds, and LOC) and, when Warden
    runs, median VM exits/s by reason over the idle windows."""
    per = {}
    for w, (ms, (i0, i1, l0, l1), exits) in sorted(
            windows.get(phase, {}).items()):
        if ms <= 0:
            continue
        for c in cpus:
            if c < len(i0) and c < len(i1):
                per.setdefault(('irqs', c), []).append(
                    (i1[c] - i0[c]) * 1000.0 / ms)
            if c < len(l0) and c < len(l1):
                per.setdefault(('loc', c), []).append(
                    (l1[c] - l0[c]) * 1000.0 / ms)
        for c, counts in exits.items():
            for k, n in enumerate(counts[:len(STAT_NAMES)]):
                per.setdefault(('exits.' + STAT_NAMES[k], c), []).append(
                    n * 1000.0 / ms)
    out = {}
    for (kind, c), v in per.items():
        out[(kind, c)] = round(median(v), 1)
    return out


def demo_rows(rows, js, com3):
    for mode in ('x2apic', 'xapic'):
        st = js.get(('cell', mode, 'stats'))
        if st:
            for cpu in st.get('cpus', []):
                ps = cpu.get('per_second', {})
                total = ps.get('total')
                rows.add('apic-demo.%s.exits_per_s' % mode, total, '/s',
                         'lower')
                # period=1000 us: 1000 ticks per second of Linux's clock
                if total is not None:
                    rows.add('apic-demo.%s.exits_per_tick' % mode,
                             round(total / 1000.0, 2), '', 'lower',
                             'nominal 1000 ticks/s')
                for r, n in sorted(ps.items()):
                    if r != 'total' and n:
                        rows.add('apic-demo.%s.exits_per_s.%s' % (mode, r),
                                 n, '/s', 'lower')
        rep = re.findall(r'^apic-demo: %s ticks (\d+) jitter min/avg/max '
                         r'(-?\d+)/(-?\d+)/(-?\d+) ns' % mode, com3, re.M)
        if len(rep) > 1:
            rep = rep[1:]  # the first window holds the start-up
        # periodic mode: the due time comes from a current-count read
        # that exits here, so these carry half the exit's asymmetry
        # (docs/bench.md): shown, not judged
        if rep:
            rows.add('apic-demo.%s.jitter_max_ns' % mode,
                     max(int(r[3]) for r in rep), 'ns', None,
                     'periodic, read-biased (docs/bench.md)')
            rows.add('apic-demo.%s.jitter_avg_ns' % mode,
                     round(median([int(r[2]) for r in rep])), 'ns', None,
                     'periodic, read-biased (docs/bench.md)')
        rep = re.findall(r'^apic-demo: %s deadline ticks (\d+) lateness '
                         r'min/avg/max (-?\d+)/(-?\d+)/(-?\d+) ns' % mode,
                         com3, re.M)
        if len(rep) > 1:
            rep = rep[1:]
        if rep:
            rows.add('apic-demo.%s.lateness_min_ns' % mode,
                     min(int(r[1]) for r in rep), 'ns', 'lower',
                     'TSC-deadline, exact (docs/bench.md)')
            rows.add('apic-demo.%s.lateness_avg_ns' % mode,
                     round(median([int(r[2]) for r in rep])), 'ns', 'lower',
                     'TSC-deadline, exact (docs/bench.md)')
            rows.add('apic-demo.%s.lateness_max_ns' % mode,
                     max(int(r[3]) for r in rep), 'ns', 'lower',
                     'TSC-deadline, exact (docs/bench.md)')


def link_rows(rows, com1):
    """The second boot's doorbell round trips (bench/links.sh)."""
    vals = parse(com1)[0].get('link', {})

    def v(row):
        return median(vals.get(row, []))

    for what, note in (('root_cell', 'root -> link-echo -> root, warden '
                        'link ping'),
                       ('cell_cell', 'link-peer -> link-echo -> link-peer')):
        rows.add('link.%s.rtt_cycles_median' % what,
                 v('%s.cycles_median' % what), 'cyc', 'lower', note)
        rows.add('link.%s.rtt_cycles_max' % what,
                 v('%s.cycles_max' % what), 'cyc', None, note)
        rows.add('link.%s.received' % what, v('%s.received' % what),
                 'of 1000', 'higher')
    n = v('root_cell.received')
    e = v('root_cell.cell_exits')
    rows.add('link.cell_exits_per_round_trip',
             round(e / n, 3) if e is not None and n else None, 'exits',
             'lower', 'link-echo: 1 sent + 0 or 1 (EOI) received')


CYCLICTEST = (r'cyclictest: loops (\d+) of (\d+), min/avg/max (\d+)/(\d+)/'
              r'(\d+) us, overruns (\d+), rc (\d+)$')


def cyclictest_rows(rows, com1, com3):
    """The latency run of bench/linux.sh: wd-cyclictest's lines, root's
    bare one on root's console, the cell's on its own (COM3).  TCG's and
    Bochs' times, not a board's (docs/bench.md): the rows compare the cell
    under root's load with root bare in the same boot; min and avg are
    flagged only when twice as bad (NOISY), max not at all."""
    for what, text, prefix, note in (
            ('root_bare', com1, r'^root bare: ', 'root CPU 1, nothing else'),
            ('cell_loaded', com3, r'^', '1-CPU Linux cell, root loaded')):
        m = re.search(prefix + CYCLICTEST, KERNEL_LINE.sub('', text), re.M)
        if not m:
            continue
        n = [int(x) for x in m.groups()]
        row = 'linux.cyclictest.%s.' % what
        rows.add(row + 'loops', n[0], 'of %d' % n[1], 'higher',
                 'rc %d' % n[6])
        rows.add(row + 'min_us', n[2], 'us', 'lower', note)
        rows.add(row + 'avg_us', n[3], 'us', 'lower', note)
        rows.add(row + 'max_us', n[4], 'us', None, note + '; not judged')
        rows.add(row + 'overruns', n[5], 'periods', 'lower',
                 'wakeups >= 1 period late')


def linux_rows(rows, com1, com3=''):
    """The third boot's Linux cell (bench/linux.sh)."""
    vals = parse(com1)[0].get('linux', {})

    def v(row):
        return median(vals.get(row, []))

    rows.add('linux.cell_linux_cmd_ms', v('cell_linux_cmd_ms'), 'ms',
             'lower', "warden cell linux: unpack, check, load; Linux's clock")
    rows.add('linux.start_to_shell_ms', v('start_to_shell_ms'), 'ms',
             'lower', "cell start to its init's shell; Linux's clock")
    window = v('idle_window_ms')
    for name in sorted(vals):
        if not name.startswith('idle_exits.') or not window:
            continue
        reason = name[len('idle_exits.'):]
        rows.add('linux.idle_exits_per_s' +
                 ('' if reason == 'total' else '.' + reason),
                 round(v(name) * 1000.0 / window, 1), '/s', 'lower',
                 'the idle 1-CPU Linux cell' if reason == 'total' else '')
    big, small = v('destroy_ms'), v('destroy_1mib_ms')
    rows.add('linux.time.destroy_128mib', big, 'ms', 'lower',
             "the Linux cell's destroy, its RAM cleared")
    rows.add('linux.time.destroy_1mib', small, 'ms', 'lower',
             'tiny-demo, same boot: the fixed cost')
    if big is not None and small is not None and big > small:
        rows.add('linux.scrub_mib_per_s', round(127 * 1000.0 / (big - small)),
                 'MiB/s', 'higher', '127 MiB more cleared, per second of '
                 "the difference; Linux's clock")
    cyclictest_rows(rows, com1, com3)
    rows.add('linux.cyclictest.cell_exits', v('cyclictest.cell_exits'),
             'exits', 'lower', "the cell's in cyclictest's loop")
    rows.add('linux.cyclictest.cell_start_exits',
             v('cyclictest.cell_start_exits'), 'exits', 'lower',
             "the cell's from its shell mark to the loop: starting it")


def image_rows(rows, build):
    img = os.path.join(build, 'hypervisor', 'warden-intel.bin')
    try:
        with open(img, 'rb') as f:
            head = f.read(48)
        size = os.path.getsize(img)
    except OSError:
        return
    rows.add('hv.image_bytes', size, 'B', 'lower')
    # struct warden_hv_header (include/warden/hvheader.h): percpu_size at 40
    if len(head) >= 44 and head[:7] == b'WRDNHVI':
        rows.add('hv.percpu_bytes', struct.unpack_from('<I', head, 40)[0],
                 'B', 'lower', 'memory per CPU')


def collect(workdir, build):
    com1 = read(os.path.join(workdir, 'out', 'com1.log'))
    com3 = read(os.path.join(workdir, 'out', 'com3.log'))
    vals, windows, js = parse(com1)
    rows = Rows()
    info = vals.get('info', {})
    cpus = sorted(set(int(c) for c in re.findall(
        r'^BENCH info cpus ([\d ]+)$', KERNEL_LINE.sub('', com1),
        re.M)[0].split())) if 'BENCH info cpus' in com1 else [0, 1]
    del info

    def m(phase, row):
        return median(vals.get(phase, {}).get(row, []))

    # root overhead loops
    for k, unit in (('alu', 'cyc/iter'), ('mem', 'cyc/load'),
                    ('tlb', 'cyc/load')):
        for c in cpus:
            b, e, x = (m('bare', '%s.cpu%d' % (k, c)),
                       m('enabled', '%s.cpu%d' % (k, c)),
                       m('cell', '%s.cpu%d' % (k, c)))
            if b is None:
                continue
            rows.add('%s.cpu%d.bare' % (k, c), cycles(b), unit, 'lower')
            rows.add('%s.cpu%d.enabled' % (k, c), cycles(e), unit, 'lower')
            rows.add('%s.cpu%d.ratio' % (k, c), ratio(e, b), 'x', 'lower',
                     'enabled / bare')
            if x is not None:
                rows.add('%s.cpu%d.cell' % (k, c), cycles(x), unit, 'lower')
                rows.add('%s.cpu%d.ratio_cell' % (k, c), ratio(x, b), 'x',
                         'lower', 'cell running / bare')
    # single operations
    for k in ('apic_read', 'apic_write', 'cpuid', 'ipi', 'hypercall'):
        b, e = m('bare', k), m('enabled', k)
        rows.add('%s.bare' % k, cycles(b), 'cyc', 'lower')
        rows.add('%s.enabled' % k, cycles(e), 'cyc', 'lower')
        if k != 'hypercall':
            rows.add('%s.ratio' % k, ratio(e, b), 'x', 'lower')
    ipi_exit_rows(rows, vals)
    for k in ('apic_read', 'apic_write'):
        rows.add('%s.per_cpuid_exit' % k,
                 ratio(m('enabled', k), m('enabled', 'cpuid')), 'x', 'lower',
                 'one trapped access / one CPUID exit')
    # idle
    # bare: every bare window, before enable and after disable (the idle
    # counts drift over a boot; docs/bench.md)
    both = dict(windows.get('bare', {}))
    for w, v in windows.get('bare-after', {}).items():
        both[100 + w] = v
    windows['bare-both'] = both
    idle = {p: idle_rows(p, windows, cpus)
            for p in ('bare', 'bare-after', 'bare-both', 'enabled', 'cell',
                      'pair-bare', 'pair-enabled')}
    for c in cpus:
        for kind in ('irqs', 'loc'):
            # the judged pair: bare and enabled windows taken in turn
            b = idle['pair-bare'].get((kind, c))
            e = idle['pair-enabled'].get((kind, c))
            rows.add('idle.%s_per_s.cpu%d.turn_bare' % (kind, c), b, '/s',
                     'lower', 'windows in turn, bare')
            rows.add('idle.%s_per_s.cpu%d.turn_enabled' % (kind, c), e,
                     '/s', 'lower', 'windows in turn, enabled')
            rows.add('idle.%s_per_s.cpu%d.turn_ratio' % (kind, c),
                     ratio(e, b), 'x', 'lower', 'enabled / bare, in turn')
            b = idle['bare-both'].get((kind, c))
            e = idle['enabled'].get((kind, c))
            rows.add('idle.%s_per_s.cpu%d.bare_before' % (kind, c),
                     idle['bare'].get((kind, c)), '/s', 'lower')
            rows.add('idle.%s_per_s.cpu%d.bare_after' % (kind, c),
                     idle['bare-after'].get((kind, c)), '/s', 'lower',
                     'after disable')
            rows.add('idle.%s_per_s.cpu%d.bare' % (kind, c), b, '/s',
                     'lower', 'median of the windows before and after')
            rows.add('idle.%s_per_s.cpu%d.enabled' % (kind, c), e, '/s',
                     'lower')
            rows.add('idle.%s_per_s.cpu%d.ratio' % (kind, c), ratio(e, b),
                     'x', 'lower', 'enabled / bare')
        for (kind, cc), v in sorted(idle['enabled'].items()):
            if cc == c and kind.startswith('exits.') and \
                    (v or kind == 'exits.total'):
                rows.add('idle.%s_per_s.cpu%d' % (kind, c), v, '/s', 'lower')
        for (kind, cc), v in sorted(idle['pair-enabled'].items()):
            if cc == c and kind.startswith('exits.') and \
                    (v or kind == 'exits.total'):
                rows.add('idle.%s_per_s.cpu%d.turn' % (kind, c), v, '/s',
                         'lower', 'windows in turn')
    for c in cpus:
        v = idle['cell'].get(('irqs', c))
        if v is not None and c == 0:
            rows.add('idle.irqs_per_s.cpu0.cell', v, '/s', 'lower',
                     'root CPU 0, apic-demo on CPU 1')
    demo_rows(rows, js, com3)
    link_rows(rows, read(os.path.join(workdir, 'links', 'out', 'com1.log')))
    linux_rows(rows, read(os.path.join(workdir, 'linux', 'out', 'com1.log')),
               read(os.path.join(workdir, 'linux', 'out', 'com3.log')))
    # times and memory
    for phase in ('enabled', 'cell'):
        for row, v in sorted(vals.get(phase, {}).items()):
            if row.startswith('time.'):
                rows.add(row, median(v), 'ms', 'lower', "Linux's clock")
    rows.add('polls.start_to_output', m('cell', 'polls.start_to_output'),
             'polls', None, 'console polls before the first line')
    rows.add('pool.after_enable', m('enabled', 'pool.after_enable'),
             'pages', 'lower')
    rows.add('pool.per_cell', m('cell', 'pool.per_cell'), 'pages', 'lower',
             'apic-demo')
    image_rows(rows, build)
    return rows, idle, cpus, 'BENCH done' in com1


def checks(rows, idle, cpus):
    """The acceptance figures of the root-overhead work, as lines."""
    out = []

    def get(name):
        r = rows.rows.get(name)
        return r['value'] if r else None

    for c in cpus:
        for k in ('alu', 'mem'):
            for suffix in ('ratio', 'ratio_cell'):
                v = get('%s.cpu%d.%s' % (k, c, suffix))
                if v is not None:
                    out.append(('%s cpu%d %s <= 1.02' % (k, c, suffix),
                                v <= 1.02, v))
        # the windows taken in turn (docs/bench.md)
        b = idle['pair-bare'].get(('irqs', c))
        e = idle['pair-enabled'].get(('irqs', c))
        x = idle['pair-enabled'].get(('exits.total', c))
        if b and e is not None:
            out.append(('idle irqs cpu%d enabled <= 1.25 x bare (in turn)'
                        % c, e <= 1.25 * b, round(e / b, 3)))
        if e is not None and x is not None:
            out.append(('idle exits cpu%d <= 2 x irqs + 10' % c,
                        x <= 2 * e + 10, '%s <= %s' % (x, 2 * e + 10)))
    # issue 31: the image (text, read-only data, data) under 128 KiB
    v = get('hv.image_bytes')
    if v is not None:
        out.append(('hv.image_bytes <= 131072 (128 KiB)', v <= 131072, v))
    for k in ('apic_read', 'apic_write'):
        v = get('%s.per_cpuid_exit' % k)
        if v is not None:
            out.append(('%s <= 3 x CPUID exit' % k, v <= 3, v))
    # issue 28: cyclictest in the Linux cell, root loaded, ran every loop
    # without an overrun.  Judged on Bochs, whose time is the emulated
    # CPUs' own; under TCG (qemu-svm) the host's scheduling makes root
    # bare overrun too, so there it is a row only (docs/linux-cell.md).
    loops = get('linux.cyclictest.cell_loaded.loops')
    over = get('linux.cyclictest.cell_loaded.overruns')
    if loops is not None and over is not None:
        out.append(('cyclictest in the Linux cell: every loop, no overrun',
                    over == 0 and rows.rows[
                        'linux.cyclictest.cell_loaded.loops']['unit'] ==
                    'of %d' % loops, '%s loops, %s overruns' % (loops, over)))
    return out


def fmt(v):
    if v is None:
        return '-'
    if isinstance(v, float):
        return '%.3f' % v if abs(v) < 10 else '%.1f' % v
    return str(v)


def print_table(machine, workdir, rows, base):
    """One machine's rows against its baseline; the number worse."""
    print('Warden bench, machine %s (%s)' % (machine, workdir))
    print('%-44s %12s %-9s %12s %8s' % ('row', 'value', 'unit', 'baseline',
                                         'change'))
    worse = 0
    for name in rows.order:
        r = rows.rows[name]
        b = base.get(name, {}).get('value')
        change, flag = '', ''
        if isinstance(b, (int, float)) and b and \
                isinstance(r['value'], (int, float)):
            d = (r['value'] - b) / abs(b)
            change = '%+.1f%%' % (100 * d)
            limit = NOISY_WORSE if name.startswith(NOISY) else WORSE
            if (r['better'] == 'lower' and d > limit) or \
                    (r['better'] == 'higher' and d < -limit):
                flag = '  WORSE'
                worse += 1
        print('%-44s %12s %-9s %12s %8s%s%s' % (
            name, fmt(r['value']), r['unit'], fmt(b), change, flag,
            ('  (' + r['note'] + ')') if r['note'] else ''))
    print()
    return worse


def linux_part(args, build):
    """--part linux: only the third boot, on Bochs (or --machine
    qemu-svm's), its rows without the baseline."""
    import qemu_rows  # bench/qemu_rows.py
    workdir = os.path.abspath(args.keep) if args.keep else \
        tempfile.mkdtemp(prefix='warden-bench-')
    if not args.from_dir:
        boot(build, workdir, LINUX_SCRIPT, 'linux', wdbench=False,
             machine=qemu_rows.MACHINE
             if args.machine == qemu_rows.MACHINE else '')
    else:
        workdir = os.path.abspath(args.from_dir)
    rows = Rows()
    linux_rows(rows, read(os.path.join(workdir, 'linux', 'out', 'com1.log')),
               read(os.path.join(workdir, 'linux', 'out', 'com3.log')))
    for name in rows.order:
        r = rows.rows[name]
        print('%-44s %12s %-9s%s' % (name, fmt(r['value']), r['unit'],
                                     ('  (' + r['note'] + ')')
                                     if r['note'] else ''))
    return 0 if rows.order else 1


def iommu_part(args, build):
    """--part iommu: only the qemu-svm boot of bench/iommu.sh, its rows
    against the qemu-svm baseline."""
    import qemu_rows  # bench/qemu_rows.py
    workdir = os.path.abspath(args.keep) if args.keep else \
        tempfile.mkdtemp(prefix='warden-bench-')
    if not args.from_dir:
        boot(build, workdir, qemu_rows.IOMMU_SCRIPT, 'iommu')
    else:
        workdir = os.path.abspath(args.from_dir)
    try:
        with open(args.baseline) as f:
            base = json.load(f).get(qemu_rows.MACHINE, {}).get('rows', {})
    except (OSError, ValueError):
        base = {}
    rows = Rows()
    qemu_rows.iommu_rows(rows, read(os.path.join(workdir, 'iommu', 'out',
                                                 'com1.log')),
                         sys.modules[__name__])
    print_table(qemu_rows.MACHINE, workdir, rows, base)
    return 0 if rows.order else 1


def ops_part(args, build):
    """--part ops: the single-operation rows of one short boot, with
    their change against the Bochs baseline (the Intel model's: on
    bochs-svm the change is against another machine)."""
    workdir = os.path.abspath(args.keep) if args.keep else \
        tempfile.mkdtemp(prefix='warden-bench-')
    machine = args.machine if args.machine == 'bochs-svm' else 'bochs-vmx'
    if not args.from_dir:
        boot(build, workdir, OPS_SCRIPT, 'ops', machine=machine)
    else:
        workdir = os.path.abspath(args.from_dir)
    vals, _, _ = parse(read(os.path.join(workdir, 'ops', 'out',
                                         'com1.log')))
    try:
        with open(args.baseline) as f:
            base = json.load(f).get(MACHINE, {}).get('rows', {})
    except (OSError, ValueError):
        base = {}
    rows = Rows()
    for k in ('apic_read', 'apic_write', 'cpuid', 'ipi', 'hypercall',
              'alu.cpu0', 'mem.cpu0'):
        for phase in ('bare', 'enabled'):
            v = median(vals.get(phase, {}).get(k, []))
            if v is not None:
                rows.add('%s.%s' % (k, phase), cycles(v), 'cyc', 'lower')
        b, e = (median(vals.get(p, {}).get(k, [])) for p in ('bare',
                                                             'enabled'))
        if k.endswith('cpu0') and b and e:
            rows.add('%s.ratio' % k, ratio(e, b), 'x', 'lower')
    ipi_exit_rows(rows, vals)
    print_table(machine, workdir, rows, base)
    return 0 if rows.order else 1


def main():
    import qemu_rows  # bench/qemu_rows.py
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--json', default='')
    ap.add_argument('--baseline',
                    default=os.path.join(ROOT, 'bench', 'baseline.json'))
    ap.add_argument('--keep', default='')
    ap.add_argument('--from', dest='from_dir', default='')
    ap.add_argument('--machine', default='all',
                    choices=('all', MACHINE, qemu_rows.MACHINE, 'bochs-svm'))
    ap.add_argument('--part', choices=['linux', 'ops', 'iommu'], default='')
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    if args.part == 'iommu':
        return iommu_part(args, build)
    if args.part == 'ops':
        return ops_part(args, build)
    if args.part:
        return linux_part(args, build)
    try:
        with open(args.baseline) as f:
            baseline = json.load(f)
    except (OSError, ValueError):
        baseline = {}
    keep = os.path.abspath(args.keep) if args.keep else ''
    if not keep and not args.from_dir:
        keep = tempfile.mkdtemp(prefix='warden-bench-')
    out_rows, problems, worse = {}, [], 0
    if args.machine in ('all', MACHINE):
        if args.from_dir:
            workdir, res = os.path.abspath(args.from_dir), {'end': 'read'}
        else:
            workdir, res = boot(build, keep)
            boot(build, workdir, LINK_SCRIPT, 'links')
            boot(build, workdir, LINUX_SCRIPT, 'linux', wdbench=False)
        rows, idle, cpus, done = collect(workdir, build)
        worse += print_table(MACHINE, workdir, rows,
                             baseline.get(MACHINE, {}).get('rows', {}))
        for what, ok, v in checks(rows, idle, cpus):
            print('%-4s %s (%s)' % ('ok' if ok else 'MISS', what, v))
        print()
        out_rows[MACHINE] = {'rows': rows.rows}
        if not done:
            problems.append('%s: %s' % (MACHINE, res.get('end')))
    if args.machine in ('all', qemu_rows.MACHINE):
        if args.from_dir:
            workdir = os.path.join(os.path.abspath(args.from_dir),
                                   qemu_rows.MACHINE)
            res = {'end': 'read'}
        else:
            workdir, res = boot(build, keep, qemu_rows.SCRIPT,
                                qemu_rows.MACHINE)
            boot(build, workdir, qemu_rows.SCALE_SCRIPT, 'scale')
            for n in qemu_rows.GROWTH_CPUS:
                boot(build, workdir, qemu_rows.GROWTH_SCRIPT,
                     'growth%d' % n, wdbench=False, cpus=n)
            boot(build, workdir, LINUX_SCRIPT, 'linux', wdbench=False,
                 machine=qemu_rows.MACHINE)
            boot(build, workdir, qemu_rows.IOMMU_SCRIPT, 'iommu')
        rows, done = qemu_rows.collect(workdir, sys.modules[__name__])
        worse += print_table(qemu_rows.MACHINE, workdir, rows,
                             baseline.get(qemu_rows.MACHINE, {})
                             .get('rows', {}))
        out_rows[qemu_rows.MACHINE] = {'rows': rows.rows}
        if not done:
            problems.append('%s: %s' % (qemu_rows.MACHINE, res.get('end')))
    print('%d row(s) worse than the baseline (by more than %d %%, idle and '
          'IPI rows by more than %d %%)' % (worse, WORSE * 100,
                                            NOISY_WORSE * 100))
    out = args.json or os.path.join(build, 'bench.json')
    with open(out, 'w') as f:
        json.dump(out_rows, f, indent=1, sort_keys=True)
        f.write('\n')
    print('rows written to %s' % out)
    for p in problems:
        print('bench: the machine did not run to the end: %s' % p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Warden test runner: unit tests, then system tests in the emulated machine.

Prints one line per test, "PASS <group>/<name>" or "FAIL <group>/<name>:
<reason>", then the wall time, and last, alone on a line, "N passed, M failed".
Exit status 0 only when nothing failed.

System test groups are the files tests/system/<group>.sh, each run once on
every test machine it names (tests/vm/boot.py, MACHINES); a test is
named "<machine>:<group>/<test>", e.g. "qemu-svm:cells/create".  Their
header comments say how to boot them:

    # machines: bochs-vmx qemu-svm bochs-svm   (required)
    # cpus: 2
    # timeout: 400            (seconds of wall time for the whole boot)
    # rodata: on | off        (default off: Linux's rodata=off saves ~5 s)
    # cpu-model: MODEL        (Bochs CPU model of bochs-vmx; default
    #                          tests/vm/boot.py's)
    # cmdline: PARAMS         (more kernel parameters for this boot)
    # memory: MB              (QEMU machines: the guest's RAM, default
    #                          tests/vm/boot.py's GUEST_MEM_MB)
    # expect-vmfail: N REGEX  (up to N failed VM entries whose emulator
    #                          log line matches REGEX are the test's own)
    # expect-svm-shutdown: N  (on a Bochs SVM model, up to N guest triple
    #                          faults, which Bochs logs as CPU panics, are
    #                          the test's own)
    # linux-payload: yes      (the guest gets /linux/vmlinuz, Debian's
    #                          kernel as shipped, and /linux/initrd.cpio,
    #                          a busybox initramfs for a Linux cell:
    #                          tests/vm/cell-linux/)
    # tests: name1 name2 ...  (every test the script reports)
    # manual: yes             (a probe, not part of the suite: run only
    #                          when --only is given and selects it)

Any of these but machines may be given for one machine only, which then
overrides the plain line ("# timeout@qemu-svm: 200"), except tests: the
names of "# tests@qemu-svm:" are more tests, reported on that machine
only.  "# console@MACHINE:" lines are console checks of one machine.

The script runs in the guest (busybox sh) as /scenario.sh and reports with
the helpers of tests/system/lib.sh, which also set $MACHINE and
$SYSTEM_CELL (the machine's system config).  A test the script does not
report (because the boot died first) fails with the reason the boot
ended, and every group also reports "<machine>:<group>/boot": clean
power-off, no kernel warning, no panic.

  tests/run.py [--only T] [--keep DIR] [--unit-only] [--demo [--machine M]]
               [-j N]
               [--timeout-scale F]
  T: "unit", "unit/<suite>", "cli", "inmate-qemu", "<group>", "<group>/<test>",
     "<machine>:", "<machine>:<group>" or "<machine>:<group>/<test>"

Before them, the "cli" tests run the warden CLI on the host
(tests/cli/cli_test.py: help, man page and completion against its command
table, exit statuses, the SDK's example, make demo's terminal view).  Between the two, the inmate tests run the inmates bare in QEMU, started
in real mode as a cell CPU would be (tests/inmates/qemu_inmates.py).

The inmate tests and the system groups run N at a time (-j, default the
number of cores: one emulator per core), longest first; each group's lines
are printed together when it ends.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'vm'))


# A kernel console message; not one a scenario printed itself ("  > [...").
KERNEL_LINE = re.compile(r'(?<!> )\[ *\d+\.\d{6}\] [^\n]*\n')
# A scenario whose serial port gets no interrupts (the AMD-Vi probe:
# QEMU's amd-iommu loses IOAPIC interrupts, so user space's writes to
# ttyS0 never leave) reports through the kernel log, which the console
# prints by polling: its lines there start with "scenario: ".
SCENARIO_KMSG = re.compile(r'^\[ *\d+\.\d{6}\] scenario: ', re.M)


class Results:
    """PASS/FAIL lines, counted; printed at once or, for a group running
    beside others, kept until the group ends (buffered())."""

    def __init__(self, only, parent=None):
        self.only = only
        self.passed = 0
        self.failed = 0
        self.parent = parent
        self.lines = []

    def wanted(self, name):
        return name_selected(self.only, name)

    def report(self, name, ok, reason=''):
        if not self.wanted(name):
            return
        if ok:
            self.passed += 1
            line = 'PASS %s' % name
        else:
            self.failed += 1
            reason = ' '.join(reason.split())[:400]
            line = 'FAIL %s: %s' % (name, reason or 'failed')
        if self.parent is None:
            print(line, flush=True)
        else:
            self.lines.append(line)

    def note(self, text):
        """Other output that belongs with the tests (a console tail)."""
        if self.parent is None:
            print(text, flush=True)
        else:
            self.lines.append(text)

    def buffered(self):
        return Results(self.only, parent=self)

    def merge(self, child):
        for line in child.lines:
            print(line, flush=True)
        self.passed += child.passed
        self.failed += child.failed


def split_machine(name):
    """"qemu-svm:cells/create" -> ("qemu-svm", "cells/create"); a name
    without a machine (unit tests) -> ("", name)."""
    machine, sep, rest = name.partition(':')
    return (machine, rest) if sep else ('', name)


def path_selected(only, path):
    """Whether the path T (group/test) selects PATH or PATH is below T."""
    return not only or only == path or path.startswith(only + '/')


def name_selected(only, name):
    """Whether --only T selects the test NAME."""
    if not only:
        return True
    om, opath = split_machine(only)
    nm, npath = split_machine(name)
    if om and om != nm:
        return False
    return path_selected(opath, npath)


def group_selected(only, group, machine=''):
    """Whether --only T asks for anything in this group (on MACHINE)."""
    if not only:
        return True
    om, opath = split_machine(only)
    if om and om != machine:
        return False
    return path_selected(opath, group) or opath.startswith(group + '/')


# ---------------------------------------------------------------- unit tests

def run_unit(build, results):
    unit_dir = os.path.join(build, 'tests', 'unit')
    bins = sorted(f for f in os.listdir(unit_dir) if f.startswith('test_')) \
        if os.path.isdir(unit_dir) else []
    if not bins:
        results.report('unit/build', False, 'no unit test binaries in %s '
                       '(run make unit)' % unit_dir)
        return
    for b in bins:
        suite = b[len('test_'):]
        if not group_selected(results.only, 'unit/' + suite) and \
                results.only not in ('unit',):
            continue
        proc = subprocess.run([os.path.join(unit_dir, b)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=120)
        seen = set()
        pending = []
        for line in proc.stdout.splitlines():
            m = re.match(r'\[\s+(OK|FAILED|RUN|SKIPPED|ERROR)\s+\] (\S+)', line)
            if not m:
                if not line.startswith('[=') and not line.startswith('[  '):
                    pending.append(line.strip())
                continue
            kind, test = m.groups()
            if kind == 'RUN':
                pending = []
            elif kind == 'OK':
                results.report('unit/%s/%s' % (suite, test), True)
                seen.add(test)
            elif kind in ('FAILED', 'ERROR') and test not in seen:
                results.report('unit/%s/%s' % (suite, test), False,
                               '; '.join(pending[-3:]))
                seen.add(test)
        if proc.returncode != 0 and not any(True for _ in seen) or \
                proc.returncode < 0:
            results.report('unit/%s' % suite, False,
                           'test binary exited with %d' % proc.returncode)


# -------------------------------------------------------------- system tests

HEADER_KEYS = ('cpus', 'timeout', 'rodata', 'tests', 'cpu-model', 'cmdline',
               'expect-vmfail', 'expect-svm-shutdown', 'linux-payload',
               'memory', 'manual')


def parse_header(path, machine=''):
    """The header of a group script, for one of its machines ("# key@m:"
    lines of another machine are left out)."""
    meta = {'machines': [], 'cpus': '2', 'timeout': '600', 'memory': '',
            'linux-payload': 'no',
            'rodata': 'off', 'tests': '', 'console': [], 'cpu-model': '',
            'cmdline': '', 'expect-vmfail': '', 'expect-svm-shutdown': '0',
            'manual': 'no'}
    special = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'#\s*machines:\s*(.*)', line)
            if m:
                meta['machines'] = m.group(1).split()
            m = re.match(r'#\s*(%s)(?:@([\w-]+))?:\s*(.*)'
                         % '|'.join(HEADER_KEYS), line)
            if m:
                key, only, value = m.group(1), m.group(2), m.group(3).strip()
                if only is None:
                    meta[key] = value
                elif only == machine:
                    special[key] = value
            # "# console: com3 NAME REGEX": a test that the cell console
            # file (out/com3.log) matches REGEX after the run;
            # "# console-absent: com3 NAME REGEX": that no line does
            # ("# console@MACHINE: ..." for one machine)
            m = re.match(r'#\s*console(-absent)?(?:@([\w-]+))?:\s*'
                         r'(com[34])\s+([\w.-]+)\s+(.*)', line)
            if m and m.group(2) in (None, machine):
                meta['console'].append((m.group(3), m.group(4),
                                        m.group(5).strip(),
                                        bool(m.group(1))))
    more = special.pop('tests', '')
    meta.update(special)
    meta['tests'] = meta['tests'].split() + more.split()
    m = re.match(r'(\d+)\s+(.*)', meta['expect-vmfail'])
    meta['expect_vmfail'] = (int(m.group(1)), m.group(2)) if m else (0, None)
    meta['expect_svm_shutdown'] = int(meta['expect-svm-shutdown'] or 0)
    return meta


def copy_cyclictest(stage):
    """cyclictest (Debian's rt-tests, scripts/deps.sh) and the shared
    libraries it loads, as ldd names them (the loader among them), into
    stage at the same paths, and tests/vm/cyclictest.sh as
    /usr/bin/wd-cyclictest, for the latency run in root and in a Linux
    cell (docs/linux-cell.md, "Latency"): the one place both initramfs
    get them from."""
    binary = shutil.which('cyclictest') or '/usr/bin/cyclictest'
    if not os.path.exists(binary):
        raise RuntimeError('cyclictest is missing: install rt-tests '
                           '(scripts/deps.sh)')
    ldd = subprocess.run(['ldd', binary], check=True, capture_output=True,
                         text=True).stdout
    # "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" and the
    # loader's "/lib64/ld-linux-x86-64.so.2 (0x...)"; not linux-vdso
    paths = re.findall(r'(?:=> |^\s*)(/\S+) \(0x', ldd, re.M)
    if not any('ld-linux' in p for p in paths):
        raise RuntimeError('ldd %s: no loader in its output' % binary)
    for src, dest in [(binary, 'usr/bin/cyclictest')] + \
            [(p, p.lstrip('/')) for p in paths]:
        dest = os.path.join(stage, dest)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        # the file, not the symlink (the loader's /lib64 name is one)
        shutil.copy(os.path.realpath(src), dest)
    # the run as root and the cell both make it, and its one-line report
    shutil.copy(os.path.join(ROOT, 'tests', 'vm', 'cyclictest.sh'),
                os.path.join(stage, 'usr', 'bin', 'wd-cyclictest'))


def build_linux_payload(build, payload):
    """Debian's kernel as shipped (build/kernel/vmlinuz, the file root
    runs) and a busybox initramfs for a Linux cell, built like root's
    from tests/vm/cell-linux/, into payload/linux/.  The initramfs also
    holds warden.ko (the file root loads: same kernel), the CLI (static)
    and the QEMU system config, for the cell's links (linux-net)."""
    linux = os.path.join(payload, 'linux')
    os.makedirs(linux)
    shutil.copy(os.path.join(ROOT, 'build', 'kernel', 'vmlinuz'), linux)
    stage = os.path.join(payload, '..', 'cell-linux-stage')
    if os.path.exists(stage):
        shutil.rmtree(stage)
    shutil.copytree(os.path.join(ROOT, 'tests', 'vm', 'cell-linux'), stage)
    shutil.copy(os.path.join(ROOT, 'driver', 'warden.ko'), stage)
    os.makedirs(os.path.join(stage, 'usr', 'sbin'))
    shutil.copy(os.path.join(build, 'tools', 'warden'),
                os.path.join(stage, 'usr', 'sbin'))
    shutil.copy(os.path.join(build, 'configs', 'system-qemu.cell'), stage)
    # Debian's e1000e.ko and e1000.ko (tests/vm/kernel.sh), for the NICs
    # a cell owns (linux-net: tests/vm/cell-linux/dev.sh), and msr.ko
    # (/dev/cpu/N/msr: linux-cell's IPI out of the cell, wd_test=ipi)
    os.makedirs(os.path.join(stage, 'modules'))
    for name in ('e1000e.ko', 'e1000.ko', 'msr.ko'):
        shutil.copy(os.path.join(ROOT, 'build', 'kernel', 'modules', name),
                    os.path.join(stage, 'modules'))
    copy_cyclictest(stage)  # the cell's latency run
    subprocess.run([os.path.join(ROOT, 'tests', 'vm', 'mkinitramfs.sh'),
                    '--gzip', stage, os.path.join(linux, 'initrd.cpio')],
                   check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(stage)


def build_payload(build, script, workdir, machine, extra=(), linux=False):
    """The files the guest gets on top of the base initramfs (and the
    files in extra, at its root; with linux, a Linux cell's kernel and
    initramfs); /tests/machine names the machine."""
    payload = os.path.join(workdir, 'payload')
    if os.path.exists(payload):
        shutil.rmtree(payload)
    os.makedirs(os.path.join(payload, 'usr', 'sbin'))
    os.makedirs(os.path.join(payload, 'lib', 'firmware'))
    os.makedirs(os.path.join(payload, 'tests'))
    shutil.copy(os.path.join(ROOT, 'driver', 'warden.ko'), payload)
    shutil.copy(os.path.join(ROOT, 'tests', 'modules', 'wdtest.ko'),
                payload)
    # warden.ko as DKMS built it from the warden-dkms package (make
    # dkms-module), for the boot group
    dkms = os.path.join(build, 'dkms', 'warden.ko')
    if os.path.exists(dkms):
        shutil.copy(dkms, os.path.join(payload, 'warden-dkms.ko'))
    shutil.copy(os.path.join(build, 'tools', 'warden'),
                os.path.join(payload, 'usr', 'sbin'))
    # both images: the driver loads the one of the CPU's vendor
    for image in ('warden-intel.bin', 'warden-amd.bin'):
        shutil.copy(os.path.join(build, 'hypervisor', image),
                    os.path.join(payload, 'lib', 'firmware'))
    shutil.copy(os.path.join(ROOT, 'tests', 'system', 'lib.sh'),
                os.path.join(payload, 'tests'))
    # the real-hardware guide, whose command blocks the boot group runs
    shutil.copy(os.path.join(ROOT, 'docs', 'install.md'),
                os.path.join(payload, 'tests'))
    with open(os.path.join(payload, 'tests', 'machine'), 'w') as f:
        f.write(machine + '\n')
    shutil.copytree(os.path.join(build, 'configs'),
                    os.path.join(payload, 'configs'))
    # the YAML sources, for the CLI's file:line messages
    shutil.copytree(os.path.join(ROOT, 'configs'),
                    os.path.join(payload, 'yaml'))
    # the PCI devices' Linux modules (tests/vm/kernel.sh)
    modules = os.path.join(ROOT, 'build', 'kernel', 'modules')
    os.makedirs(os.path.join(payload, 'modules'))
    for name in sorted(os.listdir(modules)) if os.path.isdir(modules) \
            else []:
        shutil.copy(os.path.join(modules, name),
                    os.path.join(payload, 'modules'))
    # the inmates, for "warden cell load"
    os.makedirs(os.path.join(payload, 'inmates'))
    inmates = os.path.join(build, 'inmates')
    for name in sorted(os.listdir(inmates)) if os.path.isdir(inmates) \
            else []:
        if name.endswith('.bin') or name.endswith('.elf'):
            shutil.copy(os.path.join(inmates, name),
                        os.path.join(payload, 'inmates'))
    for path in extra:
        shutil.copy(path, payload)
    if linux:
        build_linux_payload(build, payload)
        copy_cyclictest(payload)  # root's latency run, bare
    shutil.copy(script, os.path.join(payload, 'scenario.sh'))
    # the guest-state fuzzer's settings (tests/system/fuzz.sh)
    conf = ['%s=%s' % (var, os.environ['WARDEN_FUZZ_' + name])
            for name, var in (('SEED', 'seed'), ('SURVIVE', 'want_survive'),
                              ('FAIL', 'want_fail'))
            if os.environ.get('WARDEN_FUZZ_' + name, '').isdigit()]
    if conf:
        with open(os.path.join(payload, 'tests', 'fuzz.conf'), 'w') as f:
            f.write('\n'.join(conf) + '\n')
    initrd = os.path.join(workdir, 'initrd.cpio')
    subprocess.run([os.path.join(ROOT, 'tests', 'vm', 'mkinitramfs.sh'),
                    payload, initrd], check=True, stdout=subprocess.DEVNULL)
    return initrd


def read_text(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def run_group(build, machine, group, script, results, keep, stream=False,
              timeout_scale=1.0):
    import boot  # tests/vm/boot.py
    meta = parse_header(script, machine)
    workdir = os.path.join(keep, machine, group) if keep else \
        tempfile.mkdtemp(prefix='warden-%s-%s-' % (machine, group))
    os.makedirs(workdir, exist_ok=True)
    group = '%s:%s' % (machine, group)  # the prefix of the test names
    try:
        initrd = build_payload(build, script, workdir, machine,
                               linux=meta['linux-payload'] == 'yes')
        res = boot.run(machine, int(meta['cpus']),
                       float(meta['timeout']) * timeout_scale, initrd,
                       os.path.join(workdir, 'out'),
                       rodata_off=meta['rodata'] != 'on', stream=stream,
                       expected_vmfail=meta['expect_vmfail'],
                       expected_svm_shutdown=meta['expect_svm_shutdown'],
                       cpu_model=meta['cpu-model'],
                       cmdline_extra=meta['cmdline'],
                       memory_mb=int(meta['memory'] or 0))
        com1 = read_text(os.path.join(workdir, 'out', 'com1.log'))
        # Kernel messages go straight to the console and may land in the
        # middle of a line the scenario is writing: take them out first.
        user = KERNEL_LINE.sub(
            '', SCENARIO_KMSG.sub('', com1.replace('\r', '')))
        reported = {}
        for line in user.splitlines():
            line = line.strip('\r')
            m = re.match(r'^(PASS|FAIL) ([\w.-]+)(?::\s*(.*))?$', line)
            if m and m.group(2) not in reported:
                reported[m.group(2)] = (m.group(1) == 'PASS', m.group(3) or '')
        detail = res.get('detail', '')
        if res.get('end') in ('guest-oops', 'guest-panic', 'guest-warn'):
            detail = detail[:300]  # the first lines say what went wrong
        else:
            detail = detail[-300:]
        end = '%s: %s' % (res.get('end'), detail)
        for name in meta['tests']:
            if name in reported:
                ok, reason = reported[name]
                results.report('%s/%s' % (group, name), ok, reason)
            else:
                results.report('%s/%s' % (group, name), False,
                               'not reached, boot ended ' + end)
        for name, (ok, reason) in reported.items():
            if name not in meta['tests']:
                results.report('%s/%s' % (group, name), False,
                               'reported but not declared in the group '
                               'header (%s)' % ('pass' if ok else reason))
        for port, name, regex, absent in meta['console']:
            text = read_text(os.path.join(workdir, 'out', port + '.log'))
            found = re.search(regex, text.replace('\r', ''), re.M)
            last = text.strip().splitlines()[-3:]
            if absent:
                results.report('%s/%s' % (group, name), not found,
                               '%s has %r' % (port, found and found.group(0)))
                continue
            results.report('%s/%s' % (group, name), bool(found),
                           '%s does not match %r; it ends: %s'
                           % (port, regex, ' | '.join(last) or '(empty)'))
        results.report('%s/boot' % group, res.get('end') == 'clean',
                       'boot ended ' + end)
        if res.get('end') != 'clean' and not stream:
            tail = com1.strip().splitlines()[-15:]
            results.note('  --- %s: last lines of the Linux console (%s) '
                         '---' % (group, os.path.join(workdir, 'out',
                                                      'com1.log')))
            for line in tail:
                results.note('  | ' + line)
            hv = read_text(os.path.join(workdir, 'out', 'com2.log'))
            if hv.strip():
                results.note('  --- %s: last lines of the hypervisor console '
                             '---' % group)
                for line in hv.replace('\r', '').strip().splitlines()[-12:]:
                    results.note('  | ' + line)
        return res
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)


def expected_seconds(script, machine):
    """How long a group may run, to start the longest first: its timeout,
    a QEMU one taken as 7 times faster than Bochs."""
    import boot
    t = float(parse_header(script, machine)['timeout'])
    return t if boot.MACHINES[machine]['emulator'] == 'bochs' else t / 7


def main():
    import boot  # tests/vm/boot.py
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--only', default='')
    ap.add_argument('--keep', default='')
    ap.add_argument('--unit-only', action='store_true')
    ap.add_argument('--demo', action='store_true')
    ap.add_argument('--machine', default='',
                    help='with --demo: the machine (default the first '
                    'of tests/demo.sh)')
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1)
    # longer runs than make test's (make fuzz-guest)
    ap.add_argument('--timeout-scale', type=float, default=1.0)
    args = ap.parse_args()
    keep = os.path.abspath(args.keep) if args.keep else ''
    start = time.time()

    if args.demo:
        import demo_view
        demo = os.path.join(ROOT, 'tests', 'demo.sh')
        machines = parse_header(demo)['machines']
        machine = args.machine or machines[0]
        if machine not in machines:
            print('demo: no demo on %r; machines: %s'
                  % (machine, ' '.join(machines)))
            return 2
        log = os.path.join(args.build, 'demo-%s.log' % machine)
        print('demo: booting %s; every console line goes to %s'
              % (machine, log), flush=True)
        view = demo_view.DemoView(log)
        try:
            # the boot's own PASS line is not part of the story
            res = run_group(args.build, machine, 'demo', demo,
                            Results('').buffered(), keep, stream=view)
        finally:
            view.close()
        print('demo: the machine %s after %.0f s' % (
            'powered off cleanly' if res.get('end') == 'clean'
            else 'ended: %s (see %s)' % (res.get('end'), log),
            time.time() - start))
        return 0 if res.get('end') == 'clean' else 1

    results = Results(args.only.strip('/'))
    if group_selected(results.only, 'unit'):
        run_unit(args.build, results)
    # the CLI on the host: help, man page, completion, exit statuses
    if not args.unit_only and group_selected(results.only, 'cli'):
        sys.path.insert(0, os.path.join(ROOT, 'tests', 'cli'))
        import cli_test
        cli_test.run(args.build, results.report)
    jobs = []  # (expected seconds, name, function of a Results)
    if not args.unit_only and group_selected(results.only, 'inmate-qemu'):
        sys.path.insert(0, os.path.join(ROOT, 'tests', 'inmates'))
        import qemu_inmates
        jobs.append((60, 'inmate-qemu',
                     lambda r: qemu_inmates.run(args.build, r.report)))
    if not args.unit_only:
        sysdir = os.path.join(ROOT, 'tests', 'system')
        for f in sorted(os.listdir(sysdir)):
            if not f.endswith('.sh') or f == 'lib.sh':
                continue
            group = f[:-3]
            script = os.path.join(sysdir, f)
            head = parse_header(script)
            machines = head['machines']
            # a probe group (# manual: yes) runs only when T selects it
            if head['manual'] == 'yes' and not results.only:
                continue
            if not machines:
                results.report('%s/header' % group, False,
                               '%s names no machine ("# machines:")' % f)
            for m in machines:
                if m not in boot.MACHINES:
                    results.report('%s:%s/header' % (m, group), False,
                                   'unknown machine %r in %s' % (m, f))
                elif group_selected(results.only, group, m):
                    jobs.append((expected_seconds(script, m),
                                 '%s:%s' % (m, group),
                                 lambda r, g=group, s=script, m=m:
                                 run_group(args.build, m, g, s, r, keep,
                                           timeout_scale=args.timeout_scale)))
    # longest first, so that the short ones fill in at the end
    jobs.sort(key=lambda j: -j[0])
    with concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, args.jobs)) as pool:
        running = {}
        spent = {}  # job name -> seconds of wall time it took
        booting = {}  # job name -> seconds until its scenario began

        def timed(fn, name):
            def run(r):
                t0 = time.time()
                try:
                    res = fn(r)
                    if isinstance(res, dict) and res.get('boot_seconds'):
                        booting[name] = res['boot_seconds']
                    return res
                finally:
                    spent[name] = time.time() - t0
            return run
        for _, name, fn in jobs:
            child = results.buffered()
            running[pool.submit(timed(fn, name), child)] = (name, child)
        for done in concurrent.futures.as_completed(running):
            name, child = running[done]
            try:
                done.result()
            except Exception as e:  # a bug of the runner: say so
                child.report('%s/runner' % name, False, repr(e))
            results.merge(child)
    wall = time.time() - start
    print_time_per_machine(spent if jobs else {}, booting if jobs else {})
    print('wall time: %.0f s' % wall)
    if results.passed + results.failed == 0:
        print('no test matched %r' % args.only)
        results.failed += 1
    print('%d passed, %d failed' % (results.passed, results.failed))
    return 1 if results.failed else 0


def print_time_per_machine(spent, booting):
    """Where the suite's time goes: each machine's groups summed (emulator
    time, boot included; the groups run two at a time, so the sums add up
    to about twice the wall time), of it the boots (power-on to the
    scenario's start, WARDEN-SCENARIO-START from the initramfs' init), and
    the slowest groups."""
    if not spent:
        return
    per = {}
    for name, secs in spent.items():
        m = name.split(':')[0] if ':' in name else name
        n, t, b = per.get(m, (0, 0.0, 0.0))
        per[m] = (n + 1, t + secs, b + booting.get(name, 0.0))
    print('time per machine: ' + ', '.join(
        '%s %.0f s (%d groups, booting %.0f s)' % (m, t, n, b)
        for m, (n, t, b) in sorted(per.items(), key=lambda i: -i[1][1])))
    if booting:
        total, boots = sum(spent.values()), sum(booting.values())
        print('booting: %.0f of %.0f s summed (%.0f%%); the rest is the '
              'scenarios and power-off' % (boots, total,
                                           100.0 * boots / max(total, 1)))
    slow = sorted(spent.items(), key=lambda i: -i[1])[:5]
    print('slowest groups: ' + ', '.join('%s %.0f s' % i for i in slow))


if __name__ == '__main__':
    sys.exit(main())

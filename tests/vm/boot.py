#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One run of the Warden test machine (Bochs with VMX, or QEMU TCG).

    tests/vm/boot.py --machine M --cpus N --timeout SECONDS \
        --initrd FILE --out DIR [--cmdline-extra "..."] [--no-rodata-off] \
        [--stream]

Bochs boots SYSLINUX -> mboot.c32 -> build/vm/shim.elf, which enters the
uncompressed build/kernel/vmlinux through its PVH entry; QEMU loads the
same vmlinux with -kernel (PVH). Consoles: COM1..COM4 -> DIR/com1.log ..
DIR/com4.log (COM1 = Linux console), port 0xE9 -> DIR/e9.log. The end of
the run is classified and written to DIR/result.json; the exit status is 0
only for a `clean` end.

Importable: run(emulator, cpus, timeout, initrd, out, ...) -> dict.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNEL = os.path.join(ROOT, 'build', 'kernel', 'vmlinux')
SHIM = os.path.join(ROOT, 'build', 'vm', 'shim.elf')
SYSLINUX_MODULES = '/usr/lib/syslinux/modules/bios'
BOCHS_SHARE = '/usr/share/bochs'

# The guest kernel's command line. `rodata=off` is dropped by --no-rodata-off.
# clocksource=hpet: with 2 or more CPUs, Bochs 2.7 stops delivering timer
# interrupts a second or two after Linux switches its clocksource to the TSC
# (at about 6 s of guest time), on bare metal too: every CPU then sleeps
# forever.  Measured: plain Linux, 2 CPUs, "sleep 1" in a loop hangs at
# 6.3 s with the TSC and runs on with the HPET.  Real machines do not need
# this.
CMDLINE = ('console=ttyS0,115200 quiet cryptomgr.notests rodata=off '
           '8250.nr_uarts=1 pnpacpi=off mitigations=off '
           'clocksource=hpet memmap=64M$0x30000000')

# The emulated CPU.  Haswell, not Skylake-X: Bochs' Skylake-X announces
# its clock rates in CPUID (leaf 0x15: a 24 MHz crystal, 3.5 GHz TSC) and
# Linux takes them instead of measuring, while Bochs runs the TSC and the
# APIC timer at its instruction rate (ips): the TSC 35 times slower than
# announced and the APIC timer 4 times faster, so every one-shot timer
# fired early and was programmed again, 10-16 interrupts per expiry.
# Haswell has no leaf 0x15: Linux measures both (TSC 99.9 MHz, one
# interrupt per tick).  It also lacks AVX-512 and XSAVES/XSAVEC, whose
# Bochs 2.7 emulation is broken.  But a 4-CPU Haswell boot stalls after
# perf init (145 s of guest time to user space), so a group with more than
# 2 CPUs may name another model ("# cpu-model:" in its header).
# docs/test-machine.md.  WARDEN_BOCHS_MODEL overrides it for experiments.
BOCHS_CPU_MODEL = os.environ.get('WARDEN_BOCHS_MODEL', 'corei7_haswell_4770')
# What a model needs on the kernel command line.  Skylake-X: leaf 0xD has
# inconsistent AVX-512 sizes (a WARNING at every boot), and Bochs' XSAVES
# and XSAVEC store the AVX upper halves over the XSAVE header (Linux 6.1
# saves with XSAVEC when XSAVES is gone: both must go).
# Bochs CPU models with AMD SVM (docs/test-machine.md): Bochs 2.7 takes
# the SHUTDOWN intercept of a guest's triple fault only after it has logged
# the fault as a CPU panic ("3rd (N) exception with no resolution") and
# stopped in its debugger, so on these models a CPU panic is reported
# rather than fatal, the debugger continues once per expected fault, and a
# scenario declares the triple faults the hypervisor contains
# (expect-svm-shutdown).
BOCHS_SVM_MODELS = ('zambezi', 'trinity_apu')

MODEL_CMDLINE = {'corei7_skylake_x': 'clearcpuid=avx512f,xsaves,xsavec'}
# idle=halt on every Bochs machine: Linux idles Intel models with MWAIT,
# and a CPU in Bochs 2.7's MWAIT answers an IPI late, from 2 ms to seconds
# of Linux's clock: on bochs-vmx 'warden enable' waited 0.1-1.6 s for CPU
# 1 to take the driver's call ("CPU 1 began last, after 163387210" TSC
# cycles in dmesg, of 165650800 for entering; the hypervisor's own set-up
# is 99 ms), and a normal RCU grace period took 15 ms to 3.2 s, which Linux
# waits for when it takes a CPU offline (cell create) or frees a network
# interface (disable before c95780a: 0.1-8 s).  With HLT: entering 99 ms
# and disable 118-129 ms in six of six runs of the same boot
# (docs/bench.md).  Real machines do not need this; a bare Linux on the
# same model with MWAIT hit a 22 s soft lockup waiting for an IPI in
# text_poke, so it is Bochs', not Warden's.
BOCHS_CMDLINE = 'idle=halt'

# The test machines (docs/test-machine.md, "The machines").  A system test
# group names the ones it runs on ("# machines:" in its header).
#   bochs-vmx    Bochs, an Intel CPU with VMX, EPT; root stays in xAPIC mode
#   bochs-svm    Bochs, the AMD zambezi CPU: SVM, NPT, NRIP save, no x2APIC
#   qemu-svm     QEMU 10 TCG q35, its AMD "max" CPU (SVM, NPT, x2APIC, no
#                NRIP save), an Intel IOMMU with interrupt remapping in
#                x2APIC mode (eim=on), so root Linux runs in x2APIC mode
#   qemu-novirt  QEMU TCG, a CPU with neither VMX nor SVM
#   qemu-nonpt   QEMU TCG, an AMD CPU with SVM but no nested paging
#   qemu-svm-bridge  qemu-svm's IOMMU, the edu behind a PCIe-to-PCI bridge
#   qemu-svm-noiommu  QEMU TCG q35 without an IOMMU and without x2APIC:
#                root Linux in xAPIC mode, its IOAPIC entries in the
#                compatibility format the hypervisor checks
# PCI devices for cells (the devices and pci groups): the Bochs machines
# have an e1000 (82540EM, INTx only) in slot 1, alone on its PIRQ link; the
# q35 machines with SVM an e1000 (INTx) at 00:02.0, the edu device
# (1234:11e8: INTx, MSI, interrupts on demand; its DMA widened from 28 to
# 32 address bits, so that it reaches the reservation) at 00:03.0 and an e1000e
# (82574L, 8086:10d3: INTx, MSI-X) at 00:04.0.  No test loads a
# driver for them unless it wants one (the initramfs has e1000.ko).
QEMU_PCI = ['-netdev', 'user,id=n0,restrict=on',
            '-device', 'e1000,netdev=n0,addr=02.0',
            '-device', 'edu,addr=03.0,dma_mask=0xffffffff',
            '-netdev', 'user,id=n1,restrict=on',
            '-device', 'e1000e,netdev=n1,addr=04.0,romfile=']
MACHINES = {
    'bochs-vmx': {'emulator': 'bochs', 'model': BOCHS_CPU_MODEL},
    'bochs-svm': {'emulator': 'bochs', 'model': 'zambezi'},
    'qemu-svm': {'emulator': 'qemu',
                 'qemu': ['-machine', 'q35', '-cpu', 'max',
                          '-device', 'intel-iommu,intremap=on,eim=on'] +
                 QEMU_PCI,
                 # DMA remapping is the hypervisor's: Debian's kernel turns
                 # it on by default; interrupt remapping stays root's
                 'cmdline': 'intel_iommu=off'},
    # Requester-id aliases (tests/system/iommu-bridge.sh only): q35 with
    # the IOMMU as qemu-svm, and the edu (conventional PCI) behind a
    # PCIe-to-PCI bridge, whose DMA QEMU's IOMMU sees as the bridge's
    # secondary bus, device and function 0.  No other devices: a boot as
    # short as qemu-svm's, for one group.
    'qemu-svm-bridge': {'emulator': 'qemu',
                        'qemu': ['-machine', 'q35', '-cpu', 'max',
                                 '-device', 'intel-iommu,intremap=on,eim=on',
                                 '-device', 'pcie-pci-bridge,id=pbr,addr=05.0',
                                 '-device', 'edu,bus=pbr,addr=01.0,'
                                 'dma_mask=0xffffffff'],
                        'cmdline': 'intel_iommu=off'},
    'qemu-novirt': {'emulator': 'qemu',
                    'qemu': ['-machine', 'pc', '-cpu', 'max,-svm']},
    'qemu-nonpt': {'emulator': 'qemu',
                   'qemu': ['-machine', 'q35', '-cpu', 'max,-npt']},
    'qemu-svm-noiommu': {'emulator': 'qemu',
                         'qemu': ['-machine', 'q35', '-cpu', 'max,-x2apic'] +
                         QEMU_PCI},
    # The AMD-Vi probe only (tests/system/amdvi-probe.sh, a "manual"
    # group: make test runs it only when T names it): QEMU's amd-iommu
    # with interrupt remapping off, and the same with it on (-ir).  Root
    # Linux drives the unit itself; no suite group names these machines.
    'qemu-svm-amdvi': {'emulator': 'qemu',
                       'qemu': ['-machine', 'q35', '-cpu', 'max',
                                '-device', 'amd-iommu,intremap=off'] +
                       QEMU_PCI},
    'qemu-svm-amdvi-ir': {'emulator': 'qemu',
                          'qemu': ['-machine', 'q35', '-cpu', 'max',
                                   '-device', 'amd-iommu,intremap=on'] +
                          QEMU_PCI},
}

GUEST_MEM_MB = 1024
START_MARKER = 'WARDEN-SCENARIO-START'  # init, before the scenario
END_MARKER = 'WARDEN-SCENARIO-END'
CONSOLES = [('com1.log', '[linux] '), ('com2.log', '[hv] '),
            ('com3.log', '[cell-com3] '), ('com4.log', '[cell-com4] '),
            ('e9.log', '[e9] ')]

RE_PANIC = re.compile(r'Kernel panic')
RE_OOPS = re.compile(r'BUG:|Oops|general protection fault|---\[ end trace')
# "unchecked MSR access error" is the kernel's warning for a faulting
# rdmsr/wrmsr without _safe (with a call trace): an MSR policy hole.
RE_WARN = re.compile(r'(^|\]\s*|WARDEN-DMESG: )'
                     r'(WARNING:|unchecked MSR access error)')
RE_END = re.compile(END_MARKER + r' rc=(-?\d+)')
RE_TRACE_END = re.compile(r'---\[ end ')
RE_TRIPLE = re.compile(r'3rd \(\d+\) exception with no resolution')
RE_VMX_FAIL = re.compile(r'VMFAIL|VMENTER FAIL|VMEntry failure|VMABORT|'
                         r'Guest State Checks Failed|PDPTRs Checks Failed|'
                         r'VMENTER CR[04] is broken|VMEXIT CR[04] is broken')
RE_BOCHS_PANIC = re.compile(r'>>PANIC<<')
RE_BOCHS_POWEROFF = re.compile(r'ACPI control: soft power off|'
                               r'Shutdown port: shutdown requested')
# Bochs' own stdout (banner, debugger state) shares e9.log with port 0xE9.
RE_BOCHS_STDOUT = re.compile(r'^(={40,}$|\s+Bochs x86 Emulator |\s+Built from SVN |'
                             r'\s+Timestamp: |Next at t=\d+$|'
                             r'\(\d+\)\.?\[?\d*\]? ?\[0x[0-9a-f]+\] [0-9a-f]{4}:)')
# Noise that fills the Bochs log (the kernel polls APERF/MPERF).
RE_BOCHS_NOISE = re.compile(r'(RD|WR)MSR: Unknown register')

CYLINDER = 16 * 63 * 512


def _sh(cmd, **kw):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, **kw)


def build_image(out, initrd, cmdline):
    """FAT superfloppy with SYSLINUX, mboot.c32, shim, vmlinux, initrd."""
    img = os.path.join(out, 'disk.img')
    cfg = os.path.join(out, 'syslinux.cfg')
    with open(cfg, 'w') as f:
        f.write('DEFAULT warden\nPROMPT 0\nTIMEOUT 0\nNOESCAPE 1\n'
                'NOCOMPLETE 1\n'
                'LABEL warden\n  KERNEL mboot.c32\n'
                '  APPEND shim.elf --- vmlinux %s --- initrd\n' % cmdline)
    files = [(cfg, 'syslinux.cfg'),
             (os.path.join(SYSLINUX_MODULES, 'mboot.c32'), 'mboot.c32'),
             (os.path.join(SYSLINUX_MODULES, 'libcom32.c32'), 'libcom32.c32'),
             (SHIM, 'shim.elf'), (KERNEL, 'vmlinux'),
             (initrd, 'initrd')]
    need = sum(os.path.getsize(p) for p, _ in files) + 4 * 1024 * 1024
    need += need // 50
    size = (need + CYLINDER - 1) // CYLINDER * CYLINDER
    if os.path.exists(img):
        os.unlink(img)
    with open(img, 'wb') as f:
        f.truncate(size)
    _sh(['mkfs.fat', '-g', '16/63', '-n', 'WARDEN', img])
    _sh(['syslinux', '--install', img])
    for src, name in files:
        _sh(['mcopy', '-o', '-i', img, src, '::' + name])
    return img


def write_bochsrc(out, img, cpus, model, svm_shutdowns=0):
    rc = os.path.join(out, 'bochsrc')
    lines = [
        'cpu: model=%s, count=%d, ips=100000000, '
        'reset_on_triple_fault=0, ignore_bad_msrs=1, quantum=16'
        % (model, cpus),
        'memory: guest=%d, host=%d' % (GUEST_MEM_MB, GUEST_MEM_MB),
        'clock: sync=none, time0=local',
        'display_library: term',
        'romimage: file=%s/BIOS-bochs-latest, options=fastboot' % BOCHS_SHARE,
        'vgaromimage: file=%s/VGABIOS-lgpl-latest' % BOCHS_SHARE,
        'ata0-master: type=disk, path=%s, mode=flat' % img,
        'pci: enabled=1, chipset=i440fx, slot1=e1000',
        'e1000: enabled=1, mac=52:54:00:12:34:56, ethmod=null',
        'boot: disk',
        'log: %s' % os.path.join(out, 'bochs.log'),
        'panic: action=fatal' + ''.join(
            ', cpu%x=report' % i for i in range(cpus)
            if model in BOCHS_SVM_MODELS),
        'error: action=report',
        'info: action=report',
        'debug: action=ignore',
        'port_e9_hack: enabled=1',
    ]
    for i in range(1, 5):
        lines.append('com%d: enabled=1, mode=file, dev=%s'
                     % (i, os.path.join(out, 'com%d.log' % i)))
    with open(rc, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    cmds = os.path.join(out, 'bochs.rc')
    with open(cmds, 'w') as f:
        # Bochs's debugger stops at every triple fault, before the SVM
        # SHUTDOWN intercept: continue once more for each one expected
        f.write('c\n' * (1 + (svm_shutdowns if model in BOCHS_SVM_MODELS
                                else 0)) + 'quit\n')
    return rc, cmds


class Console:
    """Follows one console file while the emulator writes it."""

    def __init__(self, path, label, drop=None):
        self.path, self.label, self.drop = path, label, drop
        self.pos = 0
        self.partial = ''
        self.lines = []

    def poll(self, stream, final=False):
        new = []
        try:
            with open(self.path, 'rb') as f:
                f.seek(self.pos)
                data = f.read()
        except FileNotFoundError:
            data = b''
        if data:
            self.pos += len(data)
            text = self.partial + data.decode('utf-8', 'replace')
            text = text.replace('\r\n', '\n').replace('\r', '\n')
            parts = text.split('\n')
            self.partial = parts.pop()
            new = parts
        if final and self.partial:
            new.append(self.partial)
            self.partial = ''
        if self.drop:
            new = [line for line in new if not self.drop.search(line)]
        self.lines.extend(new)
        if callable(stream):  # a viewer (make demo: tests/demo_view.py)
            for line in new:
                stream(self.label, line)
        elif stream:
            for line in new:
                sys.stdout.write(self.label + line + '\n')
            if new:
                sys.stdout.flush()
        return new


def _kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def _filter_bochs_log(out):
    """Drop the unknown-MSR noise; keep everything else (VMX lines too)."""
    path = os.path.join(out, 'bochs.log')
    if not os.path.exists(path):
        return []
    kept, dropped = [], 0
    with open(path, 'r', errors='replace') as f:
        for line in f:
            if RE_BOCHS_NOISE.search(line):
                dropped += 1
                continue
            kept.append(line.rstrip('\n'))
    # Bound the size: head and tail, plus every VMX failure / panic line.
    limit = 20000
    if len(kept) > limit:
        head, tail = kept[:2000], kept[-(limit - 2000):]
        middle = [line for line in kept[2000:-(limit - 2000)]
                  if RE_VMX_FAIL.search(line) or RE_BOCHS_PANIC.search(line)]
        kept = head + ['... (%d lines cut) ...'
                       % (len(kept) - limit - len(middle))] + middle + tail
    if dropped:
        kept.append('(boot.py: dropped %d "Unknown register" MSR lines)'
                    % dropped)
    with open(path, 'w') as f:
        f.write('\n'.join(kept) + '\n')
    return kept


def merge_clearcpuid(cmdline):
    """Linux takes only the last clearcpuid=: join every list into one."""
    words = cmdline.split()
    feats = [f for w in words if w.startswith('clearcpuid=')
             for f in w[len('clearcpuid='):].split(',') if f]
    words = [w for w in words if not w.startswith('clearcpuid=')]
    if feats:
        words.append('clearcpuid=' + ','.join(dict.fromkeys(feats)))
    return ' '.join(words)


def run(machine, cpus, timeout, initrd, out, cmdline_extra='',
        rodata_off=True, stream=False, expected_vmfail=(0, None),
        cpu_model='', expected_svm_shutdown=0, qemu_extra=(),
        memory_mb=0):
    """Boot once on a machine of MACHINES; return the result dict (also
    written to out/result.json).  cpu_model: another Bochs CPU model
    for a bochs-vmx run.  qemu_extra: more QEMU arguments (bench: -icount).
    memory_mb: the guest's RAM on a QEMU machine (0: GUEST_MEM_MB; Bochs
    machines always have GUEST_MEM_MB).
    expected_vmfail (count, regex): up to count failed VM entries whose
    emulator log line matches regex are a test's doing, not a failure.
    expected_svm_shutdown: on a Bochs SVM model, up to this many guest
    triple faults (logged as CPU panics, BOCHS_SVM_MODELS) are a test's
    doing."""
    out = os.path.abspath(out)
    initrd = os.path.abspath(initrd)
    os.makedirs(out, exist_ok=True)
    for name in ['com1.log', 'com2.log', 'com3.log', 'com4.log', 'e9.log',
                 'bochs.log', 'emulator.err', 'result.json', 'disk.img.lock']:
        p = os.path.join(out, name)
        if os.path.exists(p):
            os.unlink(p)
    for path, what in [(KERNEL, 'make kernel'), (initrd, 'the initrd')]:
        if not os.path.exists(path):
            raise SystemExit('boot.py: missing %s (%s)' % (path, what))

    if machine not in MACHINES:
        raise SystemExit('boot.py: unknown machine %r (one of %s)'
                         % (machine, ', '.join(sorted(MACHINES))))
    emulator = MACHINES[machine]['emulator']
    if memory_mb and emulator != 'qemu':
        raise SystemExit('boot.py: the guest memory is fixed on %s (%d MiB)'
                         % (machine, GUEST_MEM_MB))
    if machine == 'bochs-vmx':
        model = os.environ.get('WARDEN_BOCHS_MODEL') or cpu_model or \
            BOCHS_CPU_MODEL
    else:
        model = MACHINES[machine].get('model', '')
    cmdline = CMDLINE
    if emulator == 'bochs':
        cmdline += ' ' + BOCHS_CMDLINE
    if emulator == 'bochs' and model in MODEL_CMDLINE:
        cmdline += ' ' + MODEL_CMDLINE[model]
    if not rodata_off:
        cmdline = cmdline.replace('rodata=off ', '').replace(' rodata=off', '')
    if MACHINES[machine].get('cmdline'):
        cmdline += ' ' + MACHINES[machine]['cmdline']
    if cmdline_extra:
        cmdline += ' ' + cmdline_extra.strip()
    # an experiment's extra kernel parameters (docs/test-machine.md)
    if os.environ.get('WARDEN_CMDLINE_EXTRA'):
        cmdline += ' ' + os.environ['WARDEN_CMDLINE_EXTRA'].strip()
    cmdline = merge_clearcpuid(cmdline)

    e9_path = os.path.join(out, 'e9.log')
    err_path = os.path.join(out, 'emulator.err')
    if emulator == 'bochs':
        if not os.path.exists(SHIM):
            raise SystemExit('boot.py: missing %s (make vm-tools)' % SHIM)
        img = build_image(out, initrd, cmdline)
        rc, cmds = write_bochsrc(out, img, cpus, model,
                                 expected_svm_shutdown)
        argv = ['bochs-bin', '-q', '-f', rc, '-rc', cmds]
        env = dict(os.environ, TERM='dumb')
    elif emulator == 'qemu':
        argv = ['qemu-system-x86_64'] + MACHINES[machine]['qemu'] + \
            list(qemu_extra) + [
                '-smp', str(cpus), '-m', str(memory_mb or GUEST_MEM_MB),
                '-kernel', KERNEL, '-initrd', initrd, '-append', cmdline,
                '-nodefaults', '-display', 'none', '-no-reboot',
                '-debugcon', 'file:' + e9_path]
        for i in range(1, 5):
            argv += ['-serial', 'file:' + os.path.join(out, 'com%d.log' % i)]
        env = None
    else:
        raise SystemExit('boot.py: unknown emulator %r' % emulator)

    consoles = [Console(os.path.join(out, n), label,
                        RE_BOCHS_STDOUT if (n == 'e9.log' and
                                            emulator == 'bochs') else None)
                for n, label in CONSOLES]
    com1 = consoles[0]
    start = time.monotonic()
    with open(e9_path if emulator == 'bochs' else os.devnull, 'wb') as so, \
            open(err_path, 'wb') as se:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=so,
                                stderr=se, cwd=out, env=env,
                                start_new_session=True)
        timed_out = False
        crash_at = None
        booted_at = None  # seconds until init printed START_MARKER
        while True:
            try:
                proc.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                pass
            for c in consoles:
                new = c.poll(stream)
                if c is com1:
                    for line in new:
                        if booted_at is None and START_MARKER in line:
                            booted_at = time.monotonic() - start
                        if crash_at is None and (RE_PANIC.search(line) or
                                                 RE_OOPS.search(line)):
                            crash_at = time.monotonic()
                        elif crash_at is not None and RE_TRACE_END.search(line):
                            crash_at = 0  # the trace is complete
            now = time.monotonic()
            # After a panic/oops wait for the end of the trace (max 5 s).
            if crash_at is not None and now - crash_at > 5:
                _kill(proc)
                break
            if now - start > timeout:
                timed_out = True
                _kill(proc)
                break
        seconds = time.monotonic() - start
        exit_code = proc.returncode
    for c in consoles:
        c.poll(stream, final=True)

    bochs_lines = []
    if emulator == 'bochs':
        bochs_lines = _filter_bochs_log(out)
        # keep only what the guest wrote to port 0xE9
        with open(e9_path, 'w') as f:
            f.write(''.join(line + '\n' for line in consoles[4].lines))
    result = classify(emulator, com1.lines, bochs_lines, exit_code, timed_out,
                      out, expected_vmfail,
                      expected_svm_shutdown
                      if emulator == 'bochs' and model in BOCHS_SVM_MODELS
                      else 0)
    result.update({'seconds': round(seconds, 1), 'emulator': emulator,
                   'boot_seconds': None if booted_at is None
                   else round(booted_at, 1),
                   'machine': machine,
                   'cpus': cpus})
    with open(os.path.join(out, 'result.json'), 'w') as f:
        json.dump(result, f, indent=2)
        f.write('\n')
    return result


def classify(emulator, com1, bochs, exit_code, timed_out, out,
             expected_vmfail=(0, None), expected_triple=0):
    scenario_rc = None
    for line in com1:
        m = RE_END.search(line)
        if m:
            scenario_rc = int(m.group(1))
    first_crash = None
    for i, line in enumerate(com1):
        if RE_PANIC.search(line) or RE_OOPS.search(line):
            first_crash = i
            break
    warns = [line for line in com1 if RE_WARN.search(line)]
    triple = [line for line in bochs if RE_TRIPLE.search(line)]
    if len(triple) <= expected_triple:
        triple = []
    vmfail = [line for line in bochs if RE_VMX_FAIL.search(line)]
    count, regex = expected_vmfail
    expected = [line for line in vmfail
                if regex and re.search(regex, line)]
    if expected and len(expected) <= count:
        vmfail = [line for line in vmfail if line not in expected]
    panics = [line for line in bochs if RE_BOCHS_PANIC.search(line)]
    powered_off = False
    if emulator == 'bochs':
        powered_off = bool(panics) and bool(RE_BOCHS_POWEROFF.search(panics[-1]))
    else:
        powered_off = exit_code == 0 and not timed_out

    def tail(lines, n=20):
        return '\n'.join(lines[-n:])

    if triple:
        end, detail = 'triple-fault', '\n'.join(triple[-3:])
    elif first_crash is not None:
        line = com1[first_crash]
        end = 'guest-panic' if RE_PANIC.search(line) else 'guest-oops'
        detail = '\n'.join(com1[max(0, first_crash - 5):first_crash + 40])
    elif vmfail:
        end, detail = 'vmentry-fail', '\n'.join(vmfail[:20])
    elif timed_out:
        end, detail = 'timeout', tail(com1)
    elif warns:
        end, detail = 'guest-warn', '\n'.join(warns[:20])
    elif scenario_rc is not None and powered_off:
        end, detail = 'clean', ''
    else:
        err = ''
        try:
            with open(os.path.join(out, 'emulator.err'), errors='replace') as f:
                err = f.read()[-2000:]
        except OSError:
            pass
        detail = 'exit status %s' % exit_code
        if panics:
            detail += '\n' + '\n'.join(panics[-5:])
        if err.strip():
            detail += '\n' + err.strip()
        if scenario_rc is None:
            detail += '\n(no %s marker)\n' % END_MARKER + tail(com1)
        end = 'emulator-error'
    return {'end': end, 'detail': detail, 'scenario_rc': scenario_rc}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--machine', choices=sorted(MACHINES), default='bochs-vmx')
    ap.add_argument('--cpus', type=int, default=1)
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--cmdline-extra', default='')
    ap.add_argument('--no-rodata-off', action='store_true')
    ap.add_argument('--stream', action='store_true')
    a = ap.parse_args()
    r = run(a.machine, a.cpus, a.timeout, a.initrd, a.out,
            cmdline_extra=a.cmdline_extra, rodata_off=not a.no_rodata_off,
            stream=a.stream)
    print('boot: %s machine=%s cpus=%d seconds=%.1f scenario_rc=%s out=%s'
          % (r['end'], r['machine'], r['cpus'], r['seconds'],
             r['scenario_rc'], os.path.abspath(a.out)))
    if r['end'] != 'clean':
        com1 = os.path.join(a.out, 'com1.log')
        print('--- %s' % r['end'])
        if r['detail']:
            print(r['detail'])
        if r['end'] not in ('guest-panic', 'guest-oops', 'timeout') and \
                os.path.exists(com1):
            with open(com1, errors='replace') as f:
                lines = f.read().replace('\r', '').split('\n')
            print('--- last lines of COM1')
            print('\n'.join(lines[-20:]))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

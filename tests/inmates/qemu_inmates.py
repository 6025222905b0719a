#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run inmates in QEMU (TCG, no VMX), started the way a Warden cell CPU is.

(Runs that ask for x2APIC use KVM instead when this QEMU's TCG has no
x2APIC, before 8.1, and /dev/kvm works.)

QEMU gets a 64 KiB firmware of our own whose reset code leaves junk in the
registers and far-jumps to 0000:0000, so the CPU enters the inmate in 16-bit
real mode at guest-physical 0 with CS.base 0, IP 0, like a cell CPU at reset
address 0.  Further CPUs (-smp) wait for INIT/SIPI, as in a cell.  The
inmate image is loaded at 0 and a communication region we build (signature
"WRDNCOM", TSC_KHZ, console = UART_PIO at 0x3e8, the CPUs and their APIC
IDs) at 0x100000, both with "-device loader".  The firmware also holds the
inmate's command line: its last 4 KiB show at 0xff000 (INMATE_CMDLINE).
COM3 (the third -serial of the pc machine, port 0x3e8) goes to a file.
Guest RAM is a shared file that the script maps, to read the comm region
back and to post shutdown requests in it as the hypervisor does.

  tests/inmates/qemu_inmates.py --build build [--verbose]

prints "PASS <name>" / "FAIL <name>: <reason>" and exits non-zero when a
check failed.  run(build_dir, report) calls report(name, ok, reason) once
per check, for tests/run.py.
"""
import argparse
import mmap
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

QEMU = 'qemu-system-x86_64'
TIMEOUT = 20.0            # seconds of wall time per inmate
STATE_TIMEOUT = 3.0       # for the comm region to show the final state
REPLY_TIMEOUT = 1.0       # for an answer to a shutdown request (hv: 0.2 s)
RAM_SIZE = 64 << 20
COMM_ADDR = 0x100000
COMM_SIZE = 4096
CMDLINE_ADDR = 0xff000    # INMATE_CMDLINE, inside the firmware's alias
FIRMWARE_SIZE = 0x10000   # mapped at 0xf0000-0xfffff (and below 4 GiB)
TSC_KHZ = 1234567         # distinctive, so the demo's echo proves the read
CONSOLE_PORT = 0x3e8
CONSOLE_BAUD = 115200

WARDEN_ABI_REVISION = 2
WARDEN_CONSOLE_UART_PIO = 1
WARDEN_CELL_RUNNING = 0
WARDEN_CELL_SHUT_DOWN = 2
WARDEN_CELL_FAILED = 3
STATE_NAMES = {0: 'RUNNING', 1: 'RUNNING_LOCKED', 2: 'SHUT_DOWN',
               3: 'FAILED'}
WARDEN_MSG_NONE = 0
WARDEN_MSG_SHUTDOWN_REQUEST = 1
WARDEN_REPLY_NONE = 0
WARDEN_REPLY_APPROVED = 1
WARDEN_REPLY_DENIED = 2
REPLY_NAMES = {0: 'none', 1: 'approved', 2: 'denied'}
# KVM (x2APIC runs, when TCG has no x2APIC): without arch-capabilities,
# whose MSR some hosts refuse to set.
CPU_MODEL = {'tcg': 'max', 'kvm': 'max,-arch-capabilities'}
# struct warden_comm_region offsets (include/warden/comm.h)
COMM_CELL_STATE = 16
COMM_MSG_TO_CELL = 20
COMM_REPLY_FROM_CELL = 24


def firmware(cmdline=''):
    """64 KiB ROM at 0xF0000 (and below 4 GiB).  The reset vector (offset
    0xFFF0) jumps to code at F000:0000 that leaves junk behind, as a cell
    CPU may find it: segment registers 0x5a5a, SP 0, DF set, general
    registers with patterns, CR4.PGE|OSFXSR|OSXMMEXCPT, EFER.SCE|NXE (CR0
    has CD and NW from the reset).  Then it jumps to 0000:0000, the
    inmate's entry, in real mode.  Offset 0xF000 (0xFF000) holds the
    command line, NUL-terminated.  Other CPUs wait for INIT/SIPI and never
    run this."""
    junk = bytes.fromhex(
        'b85a5a'          # mov ax, 0x5a5a
        '8ed8' '8ec0' '8ed0' '8ee0' '8ee8'  # mov ds/es/ss/fs/gs, ax
        'bc0000'          # mov sp, 0
        '66b880060000'    # mov eax, 0x680 (PGE|OSFXSR|OSXMMEXCPT)
        '0f22e0'          # mov cr4, eax
        '66b9800000c0'    # mov ecx, 0xc0000080 (EFER)
        '66b801080000'    # mov eax, 0x801 (SCE|NXE)
        '6631d2'          # xor edx, edx
        '0f30'            # wrmsr
        '66b8efbeadde'    # mov eax, 0xdeadbeef
        '66bbefbeadde'    # mov ebx, 0xdeadbeef
        '66b9efbeadde'    # mov ecx, 0xdeadbeef
        '66baefbeadde'    # mov edx, 0xdeadbeef
        '66beefbeadde'    # mov esi, 0xdeadbeef
        '66bfefbeadde'    # mov edi, 0xdeadbeef
        '66bdefbeadde'    # mov ebp, 0xdeadbeef
        'fd'              # std
        'ea00000000')     # ljmp 0x0000:0x0000
    rom = bytearray(b'\xf4' * FIRMWARE_SIZE)      # hlt everywhere else
    rom[0:len(junk)] = junk
    line = cmdline.encode('ascii') + b'\0'
    off = CMDLINE_ADDR - (0x100000 - FIRMWARE_SIZE)
    assert off + len(line) <= 0xfff0
    rom[off:off + len(line)] = line
    rom[0xfff0:0xfff5] = b'\xea\x00\x00\x00\xf0'  # ljmp 0xf000:0x0000
    return bytes(rom)


def comm_region(apic_ids=(0,)):
    """struct warden_comm_region (include/warden/comm.h) in a 4 KiB page,
    for the CPUs with these APIC IDs."""
    head = struct.pack('<8sHHIIIIIIIHHI',
                       b'WRDNCOM\0',         # signature
                       WARDEN_ABI_REVISION,  # revision
                       0,                    # reserved0
                       0,                    # flags
                       WARDEN_CELL_RUNNING,  # cell_state      @16
                       0,                    # msg_to_cell
                       0,                    # reply_from_cell
                       len(apic_ids),        # num_cpus
                       TSC_KHZ,              # tsc_khz         @32
                       0,                    # apic_khz
                       0,                    # pm_timer_port   @40
                       0,                    # reserved1
                       0)                    # reserved2
    console = struct.pack('<HHIQ', WARDEN_CONSOLE_UART_PIO, 0,
                          CONSOLE_BAUD, CONSOLE_PORT)
    bitmap = [0, 0, 0, 0]
    for i in apic_ids:
        bitmap[i // 64] |= 1 << (i % 64)
    tail = struct.pack('<Q4Q', 0, *bitmap)  # watchdog @64, apic_ids @72
    page = head + console + tail
    assert len(head) == 48 and len(page) == 104
    return page + bytes(COMM_SIZE - len(page))


class Guest:
    """A running QEMU: what the inmate wrote on COM3, and guest RAM."""

    def __init__(self, proc, log_path, ram, err):
        self.proc, self.log_path, self.ram, self.err = proc, log_path, ram, err
        self.end = 'timeout'

    def log(self):
        with open(self.log_path, 'rb') as f:
            return f.read().decode('utf-8', 'replace')

    def comm32(self, off):
        return struct.unpack_from('<I', self.ram, COMM_ADDR + off)[0]

    def set_comm32(self, off, value):
        struct.pack_into('<I', self.ram, COMM_ADDR + off, value)

    def wait(self, cond, timeout):
        """Poll cond() until it is true (True), QEMU ended or the timeout
        passed (False, with self.end saying why)."""
        deadline = time.time() + timeout
        while True:
            if cond():
                return True
            if self.proc.poll() is not None:
                self.err.seek(0)
                self.end = 'QEMU exited with %d (%s)' % (
                    self.proc.returncode, self.err.read().strip()[-200:] or
                    'triple fault? -no-reboot')
                return False
            if time.time() > deadline:
                self.end = 'timeout'
                return False
            time.sleep(0.02)

    def shutdown_request(self):
        """What the hypervisor does (hypervisor/core/cell.c ask_shutdown):
        reply = NONE, msg = SHUTDOWN_REQUEST, wait for a reply, withdraw
        the request (reply = NONE, msg = NONE).  Returns the reply and
        the seconds it took."""
        self.set_comm32(COMM_REPLY_FROM_CELL, WARDEN_REPLY_NONE)
        self.set_comm32(COMM_MSG_TO_CELL, WARDEN_MSG_SHUTDOWN_REQUEST)
        start = time.time()
        self.wait(lambda: self.comm32(COMM_REPLY_FROM_CELL) !=
                  WARDEN_REPLY_NONE, REPLY_TIMEOUT)
        reply = self.comm32(COMM_REPLY_FROM_CELL)
        took = time.time() - start
        self.set_comm32(COMM_REPLY_FROM_CELL, WARDEN_REPLY_NONE)
        self.set_comm32(COMM_MSG_TO_CELL, WARDEN_MSG_NONE)
        return reply, took

    def final_state(self, state):
        """Wait (STATE_TIMEOUT) for the comm region's cell_state to become
        state; returns the last value seen."""
        self.wait(lambda: self.comm32(COMM_CELL_STATE) == state,
                  STATE_TIMEOUT)
        return self.comm32(COMM_CELL_STATE)


def run_inmate(image, tmp, scenario, cmdline='', cpus=1, accel='tcg'):
    """Boot image with cpus CPUs (APIC IDs 0..cpus-1, all in the comm
    region) and run scenario(guest, res) on it; res starts as {'log': '',
    'state': None, 'end': 'timeout'} and gets the final log."""
    fw = os.path.join(tmp, 'firmware.rom')
    comm = os.path.join(tmp, 'comm.bin')
    log = os.path.join(tmp, 'com3.log')
    ram_path = os.path.join(tmp, 'ram')
    with open(fw, 'wb') as f:
        f.write(firmware(cmdline))
    with open(comm, 'wb') as f:
        f.write(comm_region(tuple(range(cpus))))
    with open(ram_path, 'wb') as f:
        f.truncate(RAM_SIZE)
    open(log, 'wb').close()
    cmd = [QEMU, '-machine', 'pc,memory-backend=ram', '-accel', accel,
           '-cpu', CPU_MODEL[accel], '-smp', str(cpus),
           '-object', 'memory-backend-file,id=ram,size=%d,mem-path=%s,'
           'share=on' % (RAM_SIZE, ram_path),
           '-m', '%dM' % (RAM_SIZE >> 20), '-display', 'none',
           '-no-reboot', '-nodefaults', '-bios', fw,
           '-device', 'loader,file=%s,addr=0x0,force-raw=on' % image,
           '-device', 'loader,file=%s,addr=0x%x,force-raw=on' %
           (comm, COMM_ADDR),
           '-serial', 'null', '-serial', 'null',
           '-serial', 'file:%s' % log]
    err = open(os.path.join(tmp, 'qemu.stderr'), 'w+')
    ram_file = open(ram_path, 'r+b')
    ram = mmap.mmap(ram_file.fileno(), RAM_SIZE)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=err)
    guest = Guest(proc, log, ram, err)
    res = {'log': '', 'state': None, 'end': 'timeout'}
    try:
        scenario(guest, res)
    finally:
        res['log'] = guest.log()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        ram.close()
        ram_file.close()
        err.close()
    return res


def wait_done(done, final_state):
    """Scenario: wait for done(log) (TIMEOUT), then for the final state."""
    def scenario(guest, res):
        if guest.wait(lambda: done(guest.log()), TIMEOUT):
            res['end'] = 'done'
        else:
            res['end'] = guest.end
        res['state'] = guest.final_state(final_state)
    return scenario


def line_done(*texts):
    """done() for wait_done: one of the texts ends a line of the log."""
    return lambda log: any(t + '\n' in log or t + '\r\n' in log
                           for t in texts)


def state_name(state):
    if state is None:
        return 'unknown'
    return '%d (%s)' % (state, STATE_NAMES.get(state, '?'))


def tail(log):
    return ' | '.join(log.strip().splitlines()[-4:]) or '(no output)'


def check_tiny_demo(res, report):
    log = res['log']
    why = 'ended: %s; log: %s' % (res['end'], tail(log))
    m = re.search(r'^tiny-demo: hello from cell CPU (\d+)\r?$', log, re.M)
    report('inmate-qemu/tiny-demo-banner', bool(m),
           '' if m else 'no banner; ' + why)

    m = re.search(r'^tiny-demo: comm region at 0x100000: signature ok, '
                  r'revision (\d+), tsc_khz (\d+), num_cpus (\d+)', log, re.M)
    port = re.search(r'^tiny-demo: console UART at port 0x([0-9a-f]+)',
                     log, re.M)
    if not m:
        report('inmate-qemu/tiny-demo-comm-region', False,
               'no "signature ok" line; ' + why)
    elif int(m.group(2)) != TSC_KHZ or int(m.group(1)) != \
            WARDEN_ABI_REVISION or int(m.group(3)) != 1:
        report('inmate-qemu/tiny-demo-comm-region', False,
               'read revision %s tsc_khz %s num_cpus %s, wrote %d %d 1' %
               (m.group(1), m.group(2), m.group(3), WARDEN_ABI_REVISION,
                TSC_KHZ))
    elif not port or int(port.group(1), 16) != CONSOLE_PORT:
        report('inmate-qemu/tiny-demo-comm-region', False,
               'console port not 0x%x: %s' % (CONSOLE_PORT, why))
    else:
        report('inmate-qemu/tiny-demo-comm-region', True, '')

    counts = [int(n) for n in
              re.findall(r'^tiny-demo: count (\d+)\r?$', log, re.M)]
    report('inmate-qemu/tiny-demo-counts', counts == [1, 2, 3, 4, 5],
           'counts %s; %s' % (counts, why))

    ok = re.search(r'^tiny-demo: done\r?$', log, re.M) is not None
    report('inmate-qemu/tiny-demo-done', ok, '' if ok else why)

    report('inmate-qemu/tiny-demo-shut-down',
           res['state'] == WARDEN_CELL_SHUT_DOWN,
           'comm region cell_state %s, want %d (SHUT_DOWN); %s' %
           (state_name(res['state']), WARDEN_CELL_SHUT_DOWN, res['end']))


def check_exception(res, report, image):
    log = res['log']
    why = 'ended: %s; log: %s' % (res['end'], tail(log))
    m = re.search(r'^EXCEPTION (\d+) (\S+) at RIP 0x([0-9a-f]+) error '
                  r'0x([0-9a-f]+)', log, re.M)
    if 'exception-test: start' not in log:
        report('inmate-qemu/exception-reported', False,
               'no "exception-test: start"; ' + why)
    elif not m:
        report('inmate-qemu/exception-reported', False,
               'no EXCEPTION line; ' + why)
    else:
        vector, name, rip = int(m.group(1)), m.group(2), int(m.group(3), 16)
        if vector != 6 or name != '#UD':
            report('inmate-qemu/exception-reported', False,
                   'reported vector %d %s, want 6 #UD' % (vector, name))
        elif rip >= len(image):
            report('inmate-qemu/exception-reported', False,
                   'RIP 0x%x outside the image (0x%x bytes)' %
                   (rip, len(image)))
        elif image[rip:rip + 2] != b'\x0f\x0b':
            report('inmate-qemu/exception-reported', False,
                   'RIP 0x%x is not at a ud2 (bytes %s)' %
                   (rip, image[rip:rip + 2].hex()))
        elif 'still running after ud2' in log:
            report('inmate-qemu/exception-reported', False,
                   'the inmate went on after the exception')
        else:
            report('inmate-qemu/exception-reported', True, '')
    report('inmate-qemu/exception-cell-failed',
           res['state'] == WARDEN_CELL_FAILED,
           'comm region cell_state %s, want %d (FAILED); %s' %
           (state_name(res['state']), WARDEN_CELL_FAILED, res['end']))



REPORT_RE = re.compile(
    r'^apic-demo: (x2apic|xapic) ticks (\d+) jitter min/avg/max '
    r'(-?\d+)/(-?\d+)/(-?\d+) ns unexpected (\d+)\r?$', re.M)
PERIOD_NS = 1000000       # apic-demo's default period


def apic_demo_scenario(guest, res):
    """First report; shutdown request 1 (must be denied); another report
    (still running); request 2 (must be approved, state SHUT_DOWN)."""
    def reports():
        return len(REPORT_RE.findall(guest.log()))

    res['requests'] = []
    if not guest.wait(lambda: reports() >= 1, TIMEOUT):
        res['end'] = 'no report: ' + guest.end
        return
    res['requests'].append(guest.shutdown_request())
    seen = reports()
    if not guest.wait(lambda: reports() > seen, TIMEOUT):
        res['end'] = 'no report after the first request: ' + guest.end
        return
    res['requests'].append(guest.shutdown_request())
    res['state'] = guest.final_state(WARDEN_CELL_SHUT_DOWN)
    guest.wait(lambda: 'approved' in guest.log(), STATE_TIMEOUT)
    res['end'] = 'done'


def check_mode(log, name, mode):
    """The inmate said it uses mode (falling back to xAPIC if need be)."""
    m = re.search(r'^%s: (x2apic|xapic)[ ,]' % name, log, re.M)
    got = m.group(1) if m else None
    return got == mode, 'mode %s, want %s' % (got, mode)


def check_apic_demo(res, report, label, mode, ticks):
    log = res['log']
    why = 'ended: %s; log: %s' % (res['end'], tail(log))
    name = 'inmate-qemu/' + label
    m = REPORT_RE.search(log)
    if not m:
        report(name + '-report', False, 'no report line; ' + why)
    else:
        n = int(m.group(2))
        lo, avg, hi, unexpected = (int(m.group(i)) for i in range(3, 7))
        problem = None
        if m.group(1) != mode:
            problem = 'mode %s, want %s' % (m.group(1), mode)
        elif n != ticks:
            problem = 'ticks %d, want %d (command line report=)' % (n, ticks)
        elif not lo <= avg <= hi:
            problem = 'jitter min/avg/max out of order'
        elif lo < -PERIOD_NS // 4 or hi > 50 * PERIOD_NS:
            problem = 'jitter implausible'
        elif unexpected:
            problem = 'unexpected interrupts'
        report(name + '-report', problem is None,
               '%s: %s' % (problem, m.group(0).strip()))

    reqs = res.get('requests', [])
    denied = re.search(r'^apic-demo: shutdown request 1 denied\r?$', log,
                       re.M)
    if not reqs:
        report(name + '-shutdown-denied', False, 'no request made; ' + why)
    else:
        report(name + '-shutdown-denied',
               reqs[0][0] == WARDEN_REPLY_DENIED and denied,
               'reply %s after %.2f s, "denied" line %s; %s' % (
                   REPLY_NAMES.get(reqs[0][0], reqs[0][0]), reqs[0][1],
                   'printed' if denied else 'missing', why))

    approved = re.search(r'^apic-demo: shutdown request 2 approved',
                         log, re.M)
    if len(reqs) < 2:
        report(name + '-shutdown-approved', False,
               'no second request; ' + why)
    else:
        report(name + '-shutdown-approved',
               reqs[1][0] == WARDEN_REPLY_APPROVED and approved and
               res['state'] == WARDEN_CELL_SHUT_DOWN,
               'reply %s after %.2f s, "approved" line %s, cell_state %s; '
               '%s' % (REPLY_NAMES.get(reqs[1][0], reqs[1][0]), reqs[1][1],
                       'printed' if approved else 'missing',
                       state_name(res['state']), why))


def check_smp_demo(res, report, label, mode, cpus):
    log = res['log']
    why = 'ended: %s; log: %s' % (res['end'], tail(log))
    name = 'inmate-qemu/' + label
    up = sorted(int(n) for n in
                re.findall(r'^smp-demo: CPU (\d+) up\r?$', log, re.M))
    ok, problem = check_mode(log, 'smp-demo', mode)
    report(name + '-cpus-up', ok and up == list(range(cpus)),
           '%s, CPUs up %s, want %s; %s' % (problem, up, list(range(cpus)),
                                            why))
    k = cpus * (cpus - 1)
    want = 'smp-demo: %d CPUs, %d IPIs sent, %d received, unexpected 0' % (
        cpus, k, k)
    m = re.search(r'^smp-demo: \d+ CPUs, .*$', log, re.M)
    got = m.group(0).strip() if m else None
    report(name + '-ipis', got == want,
           'got "%s", want "%s"; %s' % (got, want, why))
    done = re.search(r'^smp-demo: done\r?$', log, re.M) is not None
    report(name + '-done', done and res['state'] == WARDEN_CELL_SHUT_DOWN,
           '"done" %s, cell_state %s, want %d (SHUT_DOWN); %s' % (
               'printed' if done else 'missing', state_name(res['state']),
               WARDEN_CELL_SHUT_DOWN, why))


def check_ipi_root(res, report, label, mode):
    """Bare, nothing stops ipi-root: it must have sent its IPI (to itself,
    APIC ID 0 here) and still run 100 ms later."""
    log = res['log']
    why = 'ended: %s; log: %s' % (res['end'], tail(log))
    sent = re.search(r'^ipi-root: %s, APIC ID 0: sending IPI vector 0x60 '
                     r'to APIC ID 0\r?$' % mode, log, re.M)
    running = re.search(r'^ipi-root: still running\r?$', log, re.M)
    report('inmate-qemu/%s-still-running' % label, bool(sent and running),
           '"%s ... sending" line %s, "still running" %s; %s' % (
               mode, 'printed' if sent else 'missing',
               'printed' if running else 'missing', why))


def tcg_has_x2apic():
    """Whether QEMU's TCG CPU "max" offers x2APIC (QEMU 8.1 and later)."""
    try:
        out = subprocess.run([QEMU, '--version'], capture_output=True,
                             text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    m = re.search(r'version (\d+)\.(\d+)', out)
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= (8, 1)


def kvm_usable():
    """Whether QEMU starts a KVM guest here (a paused one, for 1 s)."""
    if not os.access('/dev/kvm', os.R_OK | os.W_OK):
        return False
    try:
        proc = subprocess.Popen(
            [QEMU, '-accel', 'kvm', '-cpu', CPU_MODEL['kvm'], '-machine',
             'pc', '-m', '16', '-nodefaults', '-display', 'none', '-S'],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
    except OSError:
        return False
    try:
        proc.wait(timeout=1.0)
        return False                      # it gave up
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return True


def x2apic_accel():
    """(accelerator, mode the inmates end up in) for the runs that ask for
    x2APIC: TCG if it has x2APIC, else KVM if usable, else TCG, where the
    inmates fall back to xAPIC."""
    if tcg_has_x2apic():
        return 'tcg', 'x2apic'
    if kvm_usable():
        return 'kvm', 'x2apic'
    return 'tcg', 'xapic'


def runs(x2):
    """Every QEMU run: (image, label, command line, CPUs, accelerator,
    scenario, check(res, report, image))."""
    x2_accel, x2_mode = x2
    shut_down = WARDEN_CELL_SHUT_DOWN
    out = [
        ('tiny-demo', 'tiny-demo', '', 1, 'tcg',
         wait_done(line_done('tiny-demo: done'), shut_down),
         lambda res, report, image: check_tiny_demo(res, report)),
        ('exception-test', 'exception-test', '', 1, 'tcg',
         wait_done(line_done('inmate halted'), WARDEN_CELL_FAILED),
         check_exception),
    ]
    for label, cmdline, accel, mode, ticks in [
            ('apic-demo-x2apic', '', x2_accel, x2_mode, 1000),
            ('apic-demo-xapic', 'mode=xapic report=500', 'tcg', 'xapic',
             500)]:
        out.append(('apic-demo', label, cmdline, 1, accel,
                    apic_demo_scenario,
                    lambda res, report, image, label=label, mode=mode,
                    ticks=ticks: check_apic_demo(res, report, label, mode,
                                                 ticks)))
    for label, cmdline, accel, mode in [
            ('smp-demo-x2apic', '', x2_accel, x2_mode),
            ('smp-demo-xapic', 'mode=xapic', 'tcg', 'xapic')]:
        out.append(('smp-demo', label, cmdline, 2, accel,
                    wait_done(line_done('smp-demo: done',
                                        'smp-demo: incomplete',
                                        'inmate halted'), shut_down),
                    lambda res, report, image, label=label, mode=mode:
                    check_smp_demo(res, report, label, mode, 2)))
    out.append(('ipi-root', 'ipi-root', '', 1, x2_accel,
                wait_done(line_done('ipi-root: still running',
                                    'inmate halted'), WARDEN_CELL_RUNNING),
                lambda res, report, image: check_ipi_root(
                    res, report, 'ipi-root', x2_mode)))
    return out


# The checks of each image, reported as failed when it cannot run.
CHECKS = {
    'tiny-demo': ['tiny-demo-banner', 'tiny-demo-comm-region',
                  'tiny-demo-counts', 'tiny-demo-done',
                  'tiny-demo-shut-down'],
    'exception-test': ['exception-reported', 'exception-cell-failed'],
    'apic-demo': ['apic-demo-%s-%s' % (m, c) for m in ('x2apic', 'xapic')
                  for c in ('report', 'shutdown-denied',
                            'shutdown-approved')],
    'smp-demo': ['smp-demo-%s-%s' % (m, c) for m in ('x2apic', 'xapic')
                 for c in ('cpus-up', 'ipis', 'done')],
    'ipi-root': ['ipi-root-still-running'],
}


def run(build_dir, report, verbose=False):
    inmates = os.path.join(build_dir, 'inmates')
    if not shutil.which(QEMU):
        for checks in CHECKS.values():
            for check in checks:
                report('inmate-qemu/' + check, False, '%s not found' % QEMU)
        return
    x2 = x2apic_accel()
    if verbose:
        sys.stdout.write('x2APIC runs: %s, the inmates use %s\n' % x2)
    missing = set()
    for name, label, cmdline, cpus, accel, scenario, check in runs(x2):
        image_path = os.path.join(inmates, name + '.bin')
        if not os.path.isfile(image_path):
            if name not in missing:
                missing.add(name)
                for c in CHECKS[name]:
                    report('inmate-qemu/' + c, False,
                           'missing %s (make inmates)' % image_path)
            continue
        with open(image_path, 'rb') as f:
            image = f.read()
        with tempfile.TemporaryDirectory(prefix='inmate-qemu-') as tmp:
            res = run_inmate(image_path, tmp, scenario, cmdline, cpus, accel)
        if verbose:
            sys.stdout.write(
                '--- %s (%s, %d CPU%s, command line "%s"; COM3, %s) ---\n'
                '%s--- end ---\n' % (label, accel, cpus,
                                     's' if cpus > 1 else '', cmdline,
                                     res['end'],
                                     res['log'].replace('\r\n', '\n')))
        check(res, report, image)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(root, 'build'))
    ap.add_argument('--verbose', '-v', action='store_true',
                    help='also print what each inmate wrote on COM3')
    args = ap.parse_args()
    failed = []

    def report(name, ok, reason=''):
        if ok:
            print('PASS %s' % name, flush=True)
        else:
            failed.append(name)
            reason = ' '.join(reason.split())[:400]
            print('FAIL %s: %s' % (name, reason or 'failed'), flush=True)

    run(os.path.abspath(args.build), report, args.verbose)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()

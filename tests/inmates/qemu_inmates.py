#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run inmates in QEMU (TCG, no VMX), started the way a Warden cell CPU is.

QEMU gets a 64 KiB firmware of our own whose reset code leaves junk in the
registers and far-jumps to 0000:0000, so the CPU enters the inmate in 16-bit
real mode at guest-physical 0 with CS.base 0, IP 0, like a cell CPU at reset
address 0.  The
inmate image is loaded at 0 and a communication region we build (signature
"WRDNCOM", TSC_KHZ, console = UART_PIO at 0x3e8, one CPU) at 0x100000, both
with "-device loader".  COM3 (the third -serial of the pc machine, port
0x3e8) goes to a file; the comm region is read back through QMP (pmemsave).

  tests/inmates/qemu_inmates.py --build build [--verbose]

prints "PASS <name>" / "FAIL <name>: <reason>" and exits non-zero when a
check failed.  run(build_dir, report) calls report(name, ok, reason) once
per check, for tests/run.py.
"""
import argparse
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

QEMU = 'qemu-system-x86_64'
TIMEOUT = 20.0            # seconds of wall time per inmate
STATE_TIMEOUT = 3.0       # for the comm region to show the final state
COMM_ADDR = 0x100000
COMM_SIZE = 4096
TSC_KHZ = 1234567         # distinctive, so the demo's echo proves the read
CONSOLE_PORT = 0x3e8
CONSOLE_BAUD = 115200

WARDEN_ABI_REVISION = 1
WARDEN_CONSOLE_UART_PIO = 1
WARDEN_CELL_RUNNING = 0
WARDEN_CELL_SHUT_DOWN = 2
WARDEN_CELL_FAILED = 3
STATE_NAMES = {0: 'RUNNING', 1: 'RUNNING_LOCKED', 2: 'SHUT_DOWN',
               3: 'FAILED'}

CHECKS = {
    'tiny-demo': ['tiny-demo-banner', 'tiny-demo-comm-region',
                  'tiny-demo-counts', 'tiny-demo-done',
                  'tiny-demo-shut-down'],
    'exception-test': ['exception-reported', 'exception-cell-failed'],
}


def firmware():
    """64 KiB ROM at 0xF0000 (and below 4 GiB).  The reset vector (offset
    0xFFF0) jumps to code at F000:0000 that leaves junk behind, as a cell
    CPU may find it: segment registers 0x5a5a, SP 0, DF set, general
    registers with patterns, CR4.PGE|OSFXSR|OSXMMEXCPT, EFER.SCE|NXE (CR0
    has CD and NW from the reset).  Then it jumps to 0000:0000, the
    inmate's entry, in real mode."""
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
    rom = bytearray(b'\xf4' * 0x10000)            # hlt everywhere else
    rom[0:len(junk)] = junk
    rom[0xfff0:0xfff5] = b'\xea\x00\x00\x00\xf0'  # ljmp 0xf000:0x0000
    return bytes(rom)


def comm_region():
    """struct warden_comm_region (include/warden/comm.h) in a 4 KiB page."""
    head = struct.pack('<8sHHIIIIIIIHHI',
                       b'WRDNCOM\0',         # signature
                       WARDEN_ABI_REVISION,  # revision
                       0,                    # reserved0
                       0,                    # flags
                       WARDEN_CELL_RUNNING,  # cell_state      @16
                       0,                    # msg_to_cell
                       0,                    # reply_from_cell
                       1,                    # num_cpus
                       TSC_KHZ,              # tsc_khz         @32
                       0,                    # apic_khz
                       0,                    # pm_timer_port   @40
                       0,                    # reserved1
                       0)                    # reserved2
    console = struct.pack('<HHIQ', WARDEN_CONSOLE_UART_PIO, 0,
                          CONSOLE_BAUD, CONSOLE_PORT)
    page = head + console                 # watchdog @64, then reserved
    assert len(head) == 48 and len(page) == 64
    return page + bytes(COMM_SIZE - len(page))


class Qmp:
    def __init__(self, path, deadline):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        while True:
            try:
                self.sock.connect(path)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.settimeout(5)
        self.buf = b''
        self._read()                          # greeting
        self.command('qmp_capabilities')

    def _read(self):
        while b'\n' not in self.buf:
            data = self.sock.recv(4096)
            if not data:
                raise OSError('QMP connection closed')
            self.buf += data
        line, self.buf = self.buf.split(b'\n', 1)
        return json.loads(line)

    def command(self, name, **args):
        msg = {'execute': name}
        if args:
            msg['arguments'] = args
        self.sock.sendall(json.dumps(msg).encode() + b'\n')
        while True:
            reply = self._read()
            if 'return' in reply:
                return reply['return']
            if 'error' in reply:
                raise OSError('QMP %s: %s' % (name, reply['error']))

    def close(self):
        self.sock.close()


def read_comm(qmp, tmp):
    path = os.path.join(tmp, 'comm-dump.bin')
    qmp.command('pmemsave', val=COMM_ADDR, size=128, filename=path)
    with open(path, 'rb') as f:
        return f.read()


def run_inmate(image, tmp, done, final_state):
    """Boot image; wait until done(log) or the timeout.  Returns a dict:
    log, state (the comm region's cell_state at the end or None), end
    (why the wait ended)."""
    fw = os.path.join(tmp, 'firmware.rom')
    comm = os.path.join(tmp, 'comm.bin')
    log = os.path.join(tmp, 'com3.log')
    qmp_path = os.path.join(tmp, 'qmp.sock')
    with open(fw, 'wb') as f:
        f.write(firmware())
    with open(comm, 'wb') as f:
        f.write(comm_region())
    open(log, 'wb').close()
    cmd = [QEMU, '-machine', 'pc', '-accel', 'tcg', '-cpu', 'max',
           '-m', '64', '-display', 'none', '-no-reboot', '-nodefaults',
           '-bios', fw,
           '-device', 'loader,file=%s,addr=0x0,force-raw=on' % image,
           '-device', 'loader,file=%s,addr=0x%x,force-raw=on' %
           (comm, COMM_ADDR),
           '-serial', 'null', '-serial', 'null',
           '-serial', 'file:%s' % log,
           '-qmp', 'unix:%s,server=on,wait=off' % qmp_path]
    err = open(os.path.join(tmp, 'qemu.stderr'), 'w+')
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.time() + TIMEOUT
    res = {'log': '', 'state': None, 'end': 'timeout'}
    qmp = None
    try:
        while True:
            with open(log, 'rb') as f:
                res['log'] = f.read().decode('utf-8', 'replace')
            if done(res['log']):
                res['end'] = 'done'
                break
            if proc.poll() is not None:
                err.seek(0)
                res['end'] = 'QEMU exited with %d (%s)' % (
                    proc.returncode, err.read().strip()[-200:] or
                    'triple fault? -no-reboot')
                break
            if time.time() > deadline:
                break
            time.sleep(0.05)
        if proc.poll() is None:
            qmp = Qmp(qmp_path, deadline + STATE_TIMEOUT)
            state_deadline = time.time() + STATE_TIMEOUT
            while True:
                dump = read_comm(qmp, tmp)
                res['state'] = struct.unpack_from('<I', dump, 16)[0]
                if res['state'] == final_state or \
                        time.time() > state_deadline:
                    break
                time.sleep(0.05)
            with open(log, 'rb') as f:
                res['log'] = f.read().decode('utf-8', 'replace')
    except OSError as e:
        res['end'] += '; QMP: %s' % e
    finally:
        if qmp:
            qmp.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        err.close()
    return res


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


def run(build_dir, report, verbose=False):
    inmates = os.path.join(build_dir, 'inmates')
    for name, checks in CHECKS.items():
        image_path = os.path.join(inmates, name + '.bin')
        problem = None
        if not shutil.which(QEMU):
            problem = '%s not found' % QEMU
        elif not os.path.isfile(image_path):
            problem = 'missing %s (make inmates)' % image_path
        if problem:
            for check in checks:
                report('inmate-qemu/' + check, False, problem)
            continue
        with open(image_path, 'rb') as f:
            image = f.read()
        with tempfile.TemporaryDirectory(prefix='inmate-qemu-') as tmp:
            if name == 'tiny-demo':
                res = run_inmate(image_path, tmp,
                                 lambda log: 'tiny-demo: done\n' in log or
                                 'tiny-demo: done\r\n' in log,
                                 WARDEN_CELL_SHUT_DOWN)
            else:
                res = run_inmate(image_path, tmp,
                                 lambda log: 'inmate halted' in log,
                                 WARDEN_CELL_FAILED)
        if verbose:
            sys.stdout.write('--- %s (COM3, %s) ---\n%s--- end ---\n' %
                             (name, res['end'],
                              res['log'].replace('\r\n', '\n')))
        if name == 'tiny-demo':
            check_tiny_demo(res, report)
        else:
            check_exception(res, report, image)


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

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The warden CLI on the host, without the driver (tests/run.py's "cli"
tests): --help, the man page and the bash completion against the CLI's
command table (warden --list-commands, whatever commands it holds), and
the exit statuses and messages of docs/cli.md for what needs no driver.

  run(build, report): report(name, ok, reason) per test.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def table(warden):
    """[(command, sub or '', [options])] from --list-commands."""
    out = subprocess.run([warden, '--list-commands'], capture_output=True,
                         text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        words = line.split()
        rows.append((words[0], '' if words[1] == '-' else words[1],
                     words[2:]))
    return rows


def man_synopsis(path):
    """The man page's SYNOPSIS, one entry per '.br'-separated line, troff
    escapes taken out ("warden cell load cell image [-a address] ..."),
    and the whole page so."""
    text = open(path).read()
    syn = text.split('.SH SYNOPSIS', 1)[1].split('.SH DESCRIPTION', 1)[0]
    plain = re.sub(r'\\f[BIRP]', '', syn).replace('\\-', '-')
    entries = []
    for chunk in re.split(r'^\.(?:br|PP)$', plain, flags=re.M):
        words = ' '.join(re.sub(r'^\.(B|I|RB|RI|BR|IR|BI)\b', '', line)
                         for line in chunk.splitlines()).split()
        if len(words) >= 2 and words[0] == 'warden':
            entries.append(' '.join(words))
    return entries, re.sub(r'\\f[BIRP]', '', text).replace('\\-', '-')


def complete(warden, words):
    """What the completion offers for the command line words (the last
    one being completed)."""
    script = ('shopt -s extglob; PATH=%s:$PATH; . %s; COMP_WORDS=(%s); '
              'COMP_CWORD=%d; _warden; printf "%%s\\n" "${COMPREPLY[@]}"'
              % (os.path.dirname(warden),
                 os.path.join(ROOT, 'scripts', 'warden.bash-completion'),
                 ' '.join("'%s'" % w for w in words), len(words) - 1))
    out = subprocess.run(['bash', '-c', script], capture_output=True,
                         text=True, cwd=ROOT).stdout
    return set(out.split())


def docs_cover(warden, report):
    rows = table(warden)
    report('cli/table', len(rows) >= 10 and all(r[0] for r in rows),
           'warden --list-commands gives %d rows' % len(rows))
    help_out = subprocess.run([warden, '--help'], capture_output=True,
                              text=True).stdout
    missing = ['%s %s' % (c, s) for c, s, _ in rows
               if not re.search(r'^  %s\s' % re.escape(('%s %s' % (c, s))
                                                      .strip()),
                                help_out, re.M)]
    report('cli/help-lists-all', not missing,
           'warden --help lacks: %s' % ', '.join(missing))

    entries, whole = man_synopsis(os.path.join(ROOT, 'docs', 'warden.8'))
    missing = []
    for c, s, opts in rows:
        key = ('%s %s' % (c, s)).strip()
        # a command may have more than one form, each its own line
        forms = [e for e in entries if e == 'warden ' + key or
                 e.startswith('warden %s ' % key)]
        if not forms:
            missing.append(key + ' (no SYNOPSIS line)')
            continue
        for o in opts:
            if not any(re.search(r'(^| |\[)%s( |\]|$)' % re.escape(o), e)
                       for e in forms):
                missing.append('%s %s (not in its SYNOPSIS lines)' % (key, o))
        if not re.search(r'^\.(B|BI|BR)\s+"?%s\b' % re.escape(key), whole,
                         re.M):
            missing.append(key + ' (not described under COMMANDS)')
    report('cli/man-covers-all', not missing,
           'warden.8: %s' % '; '.join(missing))

    missing = []
    commands = sorted({c for c, _, _ in rows})
    for c in commands:
        if c not in complete(warden, ['warden', c[:2]]):
            missing.append("'warden %s<TAB>' does not offer %s" % (c[:2], c))
    for c, s, opts in rows:
        if s and s not in complete(warden, ['warden', c, '']):
            missing.append("'warden %s <TAB>' does not offer %s" % (c, s))
        for o in opts:
            words = ['warden', c] + ([s] if s else []) + [o[:2]]
            if o not in complete(warden, words):
                missing.append("'%s<TAB>' does not offer %s"
                               % (' '.join(words), o))
    got = complete(warden, ['warden', 'enable', 'configs/system-'])
    if 'configs/system-bochs.yaml' not in got:
        missing.append('enable does not complete config paths (%s)' % got)
    report('cli/completion-covers-all', not missing, '; '.join(missing))


def run_cli(warden, args, cwd=ROOT):
    p = subprocess.run([warden] + args, capture_output=True, text=True,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def expect(report, name, warden, args, rc, pattern, stream='stderr'):
    got_rc, out, err = run_cli(warden, args)
    text = err if stream == 'stderr' else out
    ok = got_rc == rc and re.search(pattern, text, re.M)
    report('cli/' + name, bool(ok),
           "'warden %s' exited %d (want %d), %s: %r"
           % (' '.join(args), got_rc, rc, stream, text[-300:]))
    return out


def exit_codes(warden, build, report):
    if os.path.exists('/dev/warden'):
        report('cli/exit-codes', False, '/dev/warden exists on the host: '
               'these tests are for a machine without the driver')
        return
    tmp = tempfile.mkdtemp(prefix='warden-cli-')
    bad = os.path.join(tmp, 'two-names.yaml')
    with open(os.path.join(ROOT, 'configs', 'cells', 'tiny-demo.yaml')) as f:
        text = f.read()
    with open(bad, 'w') as f:
        f.write(text.replace('  cpus: 1', '  cpus: 1\n  cpus: 2', 1))
    small = os.path.join(tmp, 'small.yaml')
    with open(small, 'w') as f:
        f.write(text.replace('size: 1M', 'size: 64K', 1))
    elf = os.path.join(build, 'inmates', 'apic-demo.elf')
    obj = os.path.join(build, 'inmates', 'obj', 'tiny-demo.o')

    expect(report, 'usage-no-command', warden, [], 2, 'Usage: warden')
    expect(report, 'help-exit-0', warden, ['--help'], 0, 'cell load',
           'stdout')
    expect(report, 'unknown-command-named', warden, ['frobnicate'], 2,
           "unknown command 'frobnicate'")
    expect(report, 'unknown-subcommand-named', warden,
           ['cell', 'frobnicate'], 2, "unknown cell command 'frobnicate'")
    expect(report, 'config-error-exit-1', warden, ['cell', 'create', bad],
           1, re.escape(bad) + r':\d+:')
    expect(report, 'enable-validates-first', warden,
           ['enable', 'configs/bad/overlap.yaml'], 1,
           r'^warden: enable: configs/bad/overlap.yaml:\d+: memory\[6\]')
    expect(report, 'valid-then-driver', warden,
           ['enable', 'configs/system-bochs.yaml'], 2,
           r'valid on its own(.|\n)*load the driver first')
    expect(report, 'file-error-reason', warden,
           ['cell', 'load', 'x', '/nonexistent.bin'], 2,
           'cannot read /nonexistent.bin: No such file or directory')
    expect(report, 'config-file-reason', warden,
           ['cell', 'create', '/nonexistent.yaml'], 2,
           '/nonexistent.yaml: No such file or directory')
    expect(report, 'elf-object-refused', warden, ['cell', 'load', 'x', obj],
           2, r'tiny-demo.o: an object file \(ET_REL\), not linked')
    expect(report, 'elf-outside-cell', warden,
           ['cell', 'run', small, elf, '--cmdline', 'report=5'], 2,
           r'apic-demo.elf segment \d \(0x[0-9a-f]+\+0x[0-9a-f]+\) is '
           r'outside the cell\'s loadable memory \(0x0\+0x10000\)')
    # rule 191: the worked example's NICs unconfined (no IOMMU named,
    # dma_unisolated) in a Linux cell whose RAM is not at guest = phys
    with open(os.path.join(ROOT, 'configs', 'system-qemu.yaml')) as f:
        sys_text = re.sub(r'\n *iommu_base:[^\n]*', '', f.read())
    noiommu = os.path.join(tmp, 'system-noiommu.yaml')
    with open(noiommu, 'w') as f:
        f.write(sys_text)
    with open(os.path.join(ROOT, 'configs', 'cells', 'linux-net.yaml')) as f:
        cell_text = f.read().replace(
            '      int_pin: A\n', '      int_pin: A\n'
            '      dma_unisolated: true\n')
    # as it is (the relocated boot's layout: the first MiB elsewhere,
    # which Linux never gives a device, the rest at guest = phys): taken
    unconfined = os.path.join(tmp, 'linux-net-unconfined.yaml')
    with open(unconfined, 'w') as f:
        f.write(cell_text)
    expect(report, 'linux-dma-unconfined-low-mib-taken', warden,
           ['config', 'check', noiommu, 'configs/cells/link-echo.yaml',
            'configs/cells/link-peer.yaml', unconfined], 0,
           r'4 configs valid', 'stdout')
    # its RAM from guest 0 at phys 0x20000000 (the PVH layout): refused
    pvh_text = re.sub(r'    - phys: 0x27f00000\n.*?\n    - phys: 0x20000000\n'
                      r'      guest: 0x20000000\n      size: 127M\n',
                      '    - phys: 0x20000000\n      guest: 0\n'
                      '      size: 128M\n', cell_text, flags=re.S)
    assert pvh_text != cell_text, 'linux-net.yaml: its RAM regions moved'
    pvh = os.path.join(tmp, 'linux-net-unconfined-pvh.yaml')
    with open(pvh, 'w') as f:
        f.write(pvh_text)
    expect(report, 'linux-dma-unconfined-refused', warden,
           ['config', 'check', noiommu, 'configs/cells/link-echo.yaml',
            'configs/cells/link-peer.yaml', pvh], 1,
           r'PCI device 00:04\.0: no IOMMU confines its DMA, and this '
           r'Linux cell\'s memory at guest 0x0 is phys 0x20000000', 'stdout')
    # warden cell linux: each refusal before anything is created
    kernel = os.path.join(ROOT, 'build', 'kernel', 'vmlinuz')
    expect(report, 'linux-needs-flags', warden,
           ['cell', 'linux', 'configs/cells/tiny-demo.yaml', kernel], 2,
           r'tiny-demo.yaml lacks the cell flags linux and legacy_quiet')
    expect(report, 'linux-not-a-kernel', warden,
           ['cell', 'linux', 'configs/cells/linux-1cpu.yaml', elf], 2,
           r'apic-demo.elf: no PVH entry \(ELF note Xen')
    gz = os.path.join(tmp, 'vmlinuz-gzip')
    with open(gz, 'wb') as f:
        hdr = bytearray(0x1000)
        hdr[0x1f1] = 4
        hdr[0x202:0x206] = b'HdrS'
        hdr[0x206:0x208] = b'\x0f\x02'
        hdr[0x248:0x24c] = (0).to_bytes(4, 'little')
        hdr[0x24c:0x250] = (16).to_bytes(4, 'little')
        hdr[0xa00:0xa04] = b'\x1f\x8b\x08\x00'
        f.write(hdr)
    expect(report, 'linux-gzip-named', warden,
           ['cell', 'linux', 'configs/cells/linux-1cpu.yaml', gz], 2,
           r'its payload is compressed with gzip; Warden reads XZ payloads')
    if os.path.exists(kernel):
        # Debian's kernel unpacks; without the driver there is no TSC rate
        expect(report, 'linux-needs-tsc-rate', warden,
               ['cell', 'linux', 'configs/cells/linux-1cpu.yaml', kernel],
               2, r'no TSC rate in /sys/class/misc/warden/tsc_khz')
    out = expect(report, 'status-json-no-driver', warden,
                 ['status', '--json'], 2, r'^\{', 'stdout')
    try:
        ok = json.loads(out) == {'enabled': False, 'driver_loaded': False}
    except ValueError:
        ok = False
    report('cli/status-json-parses', ok, 'not the JSON expected: %r' % out)
    subprocess.run(['rm', '-rf', tmp])


def json_reads(warden, report):
    """config show --json says what the YAML says (every config the
    project ships parses, with sizes in bytes), and hardware dump --json
    holds the same facts as the text dump."""
    bad = []
    for d in ('configs', os.path.join('configs', 'cells')):
        for name in sorted(os.listdir(os.path.join(ROOT, d))):
            if not name.endswith('.yaml'):
                continue
            path = os.path.join(d, name)
            rc, out, err = run_cli(warden, ['config', 'show', path, '--json'])
            try:
                doc = json.loads(out)
            except ValueError:
                doc = None
            if rc != 0 or not isinstance(doc, dict):
                bad.append('%s: exit %d, %r' % (path, rc, (out + err)[-200:]))
    report('cli/config-show-json-all', not bad, '; '.join(bad))
    rc, out, _ = run_cli(warden, ['config', 'show',
                                  'configs/cells/pci-demo-edu.yaml', '--json'])
    try:
        cell = json.loads(out)['cell']
        ok = (cell['name'] == 'pci-demo-edu' and cell['cpus'] == '1' and
              cell['memory'][0]['size'] == 1 << 20 and
              cell['memory'][0]['phys'] == 0x30600000 and
              cell['ports'] == ['0x3e8-0x3ef'] and
              cell['pci_devices'][0]['bdf'] == '00:03.0' and
              cell['pci_devices'][0]['msi'] is True and
              cell['pci_devices'][0]['bars'][0]['size'] == 1 << 20)
    except (ValueError, KeyError, IndexError, TypeError):
        ok = False
    report('cli/config-show-json-values', rc == 0 and ok,
           'pci-demo-edu as JSON: %r' % out[:400])
    expect(report, 'config-show-json-usage', warden,
           ['config', 'show', '--json'], 2, 'Usage: warden config')

    rc, text, _ = run_cli(warden, ['hardware', 'dump'])
    rc2, out, _ = run_cli(warden, ['hardware', 'dump', '--json'])
    facts = set()
    for line in text.splitlines():
        w = line.split()
        if len(w) >= 3 and w[0] == 'cpu' and w[2] == 'cpuid':
            facts.add(('cpuid', int(w[1])) + tuple(int(x, 16) for x in w[3:]))
        elif len(w) == 4 and w[0] == 'cpu' and w[2] == 'msr':
            facts.add(('msr', int(w[1]), int(w[3], 16),
                       None if w[3] == 'fault' else int(w[3], 16)))
    try:
        dump = json.loads(out)
        got = set()
        for c in dump['cpus']:
            for leaf in c['cpuid']:
                got.add(('cpuid', c['cpu'], leaf['leaf'], leaf['subleaf'],
                         leaf['eax'], leaf['ebx'], leaf['ecx'], leaf['edx']))
            for m in c['msrs']:
                got.add(('msr', c['cpu'], m['index'], m.get('value')))
    except (ValueError, KeyError, TypeError):
        got = None
    report('cli/hardware-dump-json', rc == rc2 and facts and got == facts,
           'hardware dump --json differs from the text dump '
           '(exit %d/%d, %d facts in text)' % (rc, rc2, len(facts)))


def sdk(build, report):
    """The out-of-tree example is the one docs/inmates.md shows, and the
    installed pkg-config file builds the same image as the fragment."""
    example = open(os.path.join(ROOT, 'tests', 'sdk', 'hello',
                                'Makefile')).read()
    doc = open(os.path.join(ROOT, 'docs', 'inmates.md')).read()
    report('cli/sdk-makefile-documented', example in doc,
           'docs/inmates.md does not show tests/sdk/hello/Makefile as it is')
    root = os.path.join(build, 'sdk-root')
    fragment_elf = os.path.join(build, 'inmates', 'sdk-hello.elf')
    pc_dir = os.path.join(root, 'usr', 'lib', 'pkgconfig')
    if not shutil.which('pkg-config') or not os.path.isdir(pc_dir):
        return  # nothing to compare with; the fragment's build stands
    env = dict(os.environ, PKG_CONFIG_PATH=pc_dir,
               PKG_CONFIG_SYSROOT_DIR=root)
    tmp = tempfile.mkdtemp(prefix='warden-sdk-')
    src = os.path.join(ROOT, 'tests', 'sdk', 'hello', 'hello.c')

    def pc(what):
        return subprocess.run(['pkg-config', what, 'warden-inmate'],
                              env=env, capture_output=True, text=True,
                              check=True).stdout.split()
    try:
        obj, elf = os.path.join(tmp, 'hello.o'), os.path.join(tmp, 'h.elf')
        subprocess.run(['gcc', '-std=gnu11', '-O2', '-g'] + pc('--cflags') +
                       ['-c', src, '-o', obj], check=True,
                       capture_output=True)
        subprocess.run(['gcc', obj] + pc('--libs') + ['-o', elf],
                       check=True, capture_output=True)
        flat = []
        for f in (elf, fragment_elf):
            out = os.path.join(tmp, 'flat%d.bin' % len(flat))
            subprocess.run(['objcopy', '-O', 'binary', f, out], check=True)
            flat.append(open(out, 'rb').read())
        a, b = flat
        report('cli/sdk-pkg-config', a == b and len(a) > 0,
               'the pkg-config build differs from the fragment\'s '
               '(%d and %d bytes)' % (len(a), len(b)))
    except subprocess.CalledProcessError as e:
        report('cli/sdk-pkg-config', False, '%s: %s' % (
            ' '.join(e.cmd[:3]), (e.stderr or b'')[-300:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def demo_view(report):
    """make demo's terminal (tests/demo_view.py): the story only, periodic
    cell lines condensed, never more than its limit."""
    import io
    import sys
    sys.path.insert(0, os.path.join(ROOT, 'tests'))
    import demo_view
    tmp = tempfile.mkdtemp(prefix='warden-demo-')
    out = io.StringIO()
    view = demo_view.DemoView(os.path.join(tmp, 'demo.log'), out=out,
                              limit=150)
    view('[linux] ', 'Linux version 6.1.0 (boot noise)')
    view('[linux] ', '=== a step')
    view('[linux] ', '[   16.390546] warden: a kernel message')
    view('[hv] ', 'Warden hypervisor, ABI revision 9')
    for i in range(200):
        view('[cell-com3] ', 'apic-demo: ticks 20 jitter %d ns' % i)
        if i % 7 == 0:
            view('[cell-com3] ', 'apic-demo: %d ticks missed' % (i % 3))
    view('[linux] ', '=== the next step')
    shown = out.getvalue().splitlines()
    logged = open(os.path.join(tmp, 'demo.log')).read().splitlines()
    want = ['=== a step',
            '[cell-com3] apic-demo: ticks 20 jitter 0 ns',
            '[cell-com3] apic-demo: 0 ticks missed',
            '[cell-com3] apic-demo: ticks 20 jitter 1 ns',
            '[cell-com3] apic-demo: 1 ticks missed',
            '[cell-com3] ... and %d more such lines (%s)'
            % (200 + 29 - 4, os.path.join(tmp, 'demo.log')),
            '', '=== the next step']
    report('cli/demo-view-story', shown == want,
           'the terminal got %r' % shown[:10])
    report('cli/demo-view-log', len(logged) == 4 + 200 + 29 + 1,
           'the log has %d lines' % len(logged))
    out = io.StringIO()
    view = demo_view.DemoView(os.path.join(tmp, 'demo.log'), out=out,
                              limit=150)
    for i in range(400):
        view('[linux] ', '=== step %d' % i)
    view.close()
    n = len(out.getvalue().splitlines())
    report('cli/demo-view-limit', n == 150 and 'the rest is in' in
           out.getvalue().splitlines()[-1],
           '%d lines for 400 steps (150, the last the notice, wanted)' % n)
    shutil.rmtree(tmp, ignore_errors=True)


def run(build, report):
    warden = os.path.join(build, 'tools', 'warden')
    if not os.access(warden, os.X_OK):
        report('cli/build', False, '%s missing (make tools)' % warden)
        return
    docs_cover(warden, report)
    exit_codes(warden, build, report)
    json_reads(warden, report)
    sdk(build, report)
    demo_view(report)

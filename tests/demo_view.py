# SPDX-License-Identifier: GPL-2.0
"""What "make demo" shows on the terminal (tests/run.py --demo).

Every console line goes to the log file, labelled by its console as
before ([linux], [hv], [cell-com3], [cell-com4]).  The terminal gets the
story only: the scenario's lines of the Linux console from its first
"=== " line on (no boot, no kernel messages), and the cells' consoles
condensed: of the lines of one step that differ only in their numbers
(a periodic report), the first two, and at the next step how many more
there were.  The hypervisor's own log stays in the file; the scenario
shows what matters of it with "warden console CELL".
"""
import re
import sys

KERNEL = re.compile(r'^\[ *\d+\.\d{6}\] ')
SHOWN_PER_KIND = 2


class DemoView:
    def __init__(self, log_path, out=sys.stdout, limit=150):
        self.log_path = log_path
        self.log = open(log_path, 'w')
        self.out = out
        self.limit = limit
        self.printed = 0
        self.started = False
        # (label, line without its numbers) -> lines of it in this step
        self.kinds = {}

    def _print(self, text):
        """One line on the terminal; the limit's last one says where the
        rest is instead."""
        self.printed += 1
        if self.printed == self.limit:
            text = 'demo: the rest is in %s (%d lines shown at most)' % (
                self.log_path, self.limit)
        if self.printed <= self.limit:
            self.out.write(text + '\n')
            self.out.flush()

    def _end_step(self):
        """The periodic lines of the step that ends: how many were not
        shown, a line per console."""
        more = {}
        for (label, _), n in self.kinds.items():
            if n > SHOWN_PER_KIND:
                more[label] = more.get(label, 0) + n - SHOWN_PER_KIND
        for label, n in sorted(more.items()):
            self._print('%s... and %d more such lines (%s)'
                        % (label, n, self.log_path))
        self.kinds = {}

    def __call__(self, label, line):
        self.log.write(label + line + '\n')
        self.log.flush()
        if label.startswith('[linux]'):
            if KERNEL.match(line):
                return
            if not self.started and not line.startswith('=== ') or \
                    not line.strip() or line.startswith('WARDEN-SCENARIO-END'):
                return
            self.started = True
            if line.startswith('=== '):
                self._end_step()
                if self.printed:
                    self._print('')
            self._print(line)
        elif label.startswith('[cell-'):
            kind = (label, re.sub(r'-?\d+', '#', line))
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            if self.kinds[kind] <= SHOWN_PER_KIND:
                self._print(label + line)

    def close(self):
        self._end_step()
        self.log.close()
        return self.printed

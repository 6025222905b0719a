// SPDX-License-Identifier: GPL-2.0
/*
 * The console's line store (hypervisor/core/console_log.c): each source
 * keeps its own lines, a flood from one cell leaves the hypervisor's lines
 * and other cells' alone, repeats are counted, long lines continue in
 * the next slot, and a guest's bytes are escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include <hv/console_log.h>

static struct warden_hv_console con;
static struct console_log log_;

/* The store's lines in the order written, joined as a reader joins them:
 * "text\n" per line, continued slots without the newline. */
static char *dump(void)
{
	static char out[WARDEN_CONSOLE_LINES * (WARDEN_CONSOLE_TEXT + 1) + 1];
	u64 pos = 1, seq, best_seq;
	unsigned int i, best = 0;
	size_t n = 0;

	for (;;) {
		best_seq = 0;
		for (i = 0; i < WARDEN_CONSOLE_LINES; i++) {
			seq = con.line[i].seq;
			if (seq >= pos && (!best_seq || seq < best_seq)) {
				best_seq = seq;
				best = i;
			}
		}
		if (!best_seq)
			break;
		memcpy(out + n, con.line[best].text, con.line[best].len);
		n += con.line[best].len;
		if (!(con.line[best].flags & WARDEN_LINE_CONTINUED))
			out[n++] = '\n';
		pos = best_seq + 1;
	}
	out[n] = 0;
	return out;
}

static unsigned int line(unsigned int source, const char *text)
{
	u64 ended;

	return console_log_line(&log_, source, text, strlen(text), &ended);
}

static int setup(void **state)
{
	(void)state;
	console_log_init(&log_, &con);
	console_log_reset_source(&log_, CONSOLE_SRC_CELL(1),
				 "cell 1 \"tiny-demo\"");
	return 0;
}

static void flood_keeps_others(void **state)
{
	char text[64];
	unsigned int i, n = 0;
	char *d, *p;

	(void)state;
	line(CONSOLE_SRC_HV, "Warden hypervisor, ABI revision 3");
	line(CONSOLE_SRC_CELL(2), "[other] a line of another cell");
	for (i = 0; i < 10000; i++) {
		snprintf(text, sizeof(text), "[tiny-demo] flood line %u",
			 i + 1);
		line(CONSOLE_SRC_CELL(1), text);
	}
	line(CONSOLE_SRC_HV, "Cell 1 \"tiny-demo\" destroyed");
	d = dump();
	assert_non_null(strstr(d, "Warden hypervisor, ABI revision 3\n"));
	assert_non_null(strstr(d, "[other] a line of another cell\n"));
	assert_non_null(strstr(d, "[tiny-demo] flood line 10000\n"));
	assert_null(strstr(d, "[tiny-demo] flood line 1\n"));
	for (p = d; (p = strstr(p, "flood line")); p++)
		n++;
	assert_int_equal(n, WARDEN_CONSOLE_CELL_LINES);
	/* and in order: the last hypervisor line comes last */
	assert_string_equal(d + strlen(d) -
				    strlen("Cell 1 \"tiny-demo\" "
					   "destroyed\n"),
			    "Cell 1 \"tiny-demo\" destroyed\n");
}

static void hv_lines_keep_256(void **state)
{
	char text[64];
	unsigned int i;
	char *d;

	(void)state;
	for (i = 0; i < 300; i++) {
		snprintf(text, sizeof(text), "hv %u", i);
		line(CONSOLE_SRC_HV, text);
	}
	d = dump();
	assert_null(strstr(d, "hv 43\n"));
	assert_non_null(strstr(d, "hv 44\n"));
	assert_non_null(strstr(d, "hv 299\n"));
}

static void repeats_counted(void **state)
{
	u64 ended = 0;
	unsigned int i, stored = 0;
	char *d;

	(void)state;
	for (i = 0; i < 806; i++)
		stored += console_log_line(&log_, CONSOLE_SRC_CELL(1), "same",
					   4, &ended);
	assert_int_equal(stored, 1);
	d = dump();
	assert_string_equal(d, "same\n(cell 1 \"tiny-demo\": the line before "
			       "repeated 805 more times)\n");
	/* the next different line ends the run and says how long it was */
	console_log_line(&log_, CONSOLE_SRC_CELL(1), "other", 5, &ended);
	assert_int_equal(ended, 805);
	line(CONSOLE_SRC_CELL(1), "same");
	d = dump();
	assert_non_null(strstr(d, "other\nsame\n"));
}

static void long_lines_continue(void **state)
{
	char text[300];
	unsigned int n;

	(void)state;
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = 0;
	n = line(CONSOLE_SRC_HV, text);
	assert_int_equal(n, 3);
	assert_int_equal(strlen(dump()), sizeof(text));
}

static void guest_bytes_escaped(void **state)
{
	char out[4];

	(void)state;
	assert_int_equal(console_escape('a', out), 1);
	assert_memory_equal(out, "a", 1);
	assert_int_equal(console_escape('\\', out), 2);
	assert_memory_equal(out, "\\\\", 2);
	assert_int_equal(console_escape(0x1b, out), 4);
	assert_memory_equal(out, "\\x1b", 4);
	assert_int_equal(console_escape('\n', out), 4);
	assert_memory_equal(out, "\\x0a", 4);
	assert_int_equal(console_escape(0xff, out), 4);
	assert_memory_equal(out, "\\xff", 4);
}

static void reset_empties_a_source(void **state)
{
	(void)state;
	line(CONSOLE_SRC_CELL(1), "old cell's line");
	line(CONSOLE_SRC_HV, "kept");
	console_log_reset_source(&log_, CONSOLE_SRC_CELL(1), "cell 1 \"next\"");
	assert_string_equal(dump(), "kept\n");
	assert_int_equal(line(CONSOLE_SRC_CELL(99), "nowhere"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(flood_keeps_others, setup),
		cmocka_unit_test_setup(hv_lines_keep_256, setup),
		cmocka_unit_test_setup(repeats_counted, setup),
		cmocka_unit_test_setup(long_lines_continue, setup),
		cmocka_unit_test(guest_bytes_escaped),
		cmocka_unit_test_setup(reset_empties_a_source, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

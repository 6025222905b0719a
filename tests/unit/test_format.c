// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's formatter (hypervisor/lib/format.c), compared with the
 * C library's snprintf for every conversion it supports, plus truncation.
 */
#include <stdio.h>
#include <string.h>

#include "cmocka_wrap.h"
#include <hv/format.h>

#define SAME(...)                                                              \
	do {                                                                   \
		char want[128], got[128];                                      \
		int nw = snprintf(want, sizeof(want), __VA_ARGS__);            \
		int ng = hv_format(got, sizeof(got), __VA_ARGS__);             \
		assert_string_equal(got, want);                                \
		assert_int_equal(ng, nw);                                      \
	} while (0)

static void conversions(void **state)
{
	(void)state;
	SAME("plain text");
	SAME("%d %d %d", 0, -1, 2147483647);
	SAME("%i", -2147483647 - 1);
	SAME("%u %x %X", 4294967295u, 0xdeadbeefu, 0xabcdefu);
	SAME("%lu %lx %ld", 18446744073709551615ul, 0xfffful, -5l);
	SAME("%llx %lld", 0xffffffff80000000ull, -9223372036854775807ll);
	SAME("%zu", (size_t)12345);
	SAME("%c%c", 'o', 'k');
	SAME("%s|%s", "cpu", "");
	SAME("%08x|%-6d|%6d|%04d", 0x2b, 42, -42, -7);
	SAME("%10s|%-10s|", "right", "left");
	SAME("100%%");
	SAME("%p", (void *)0x1000);
}

static void truncation(void **state)
{
	char buf[8];
	int n;

	(void)state;
	n = hv_format(buf, sizeof(buf), "VM exit %u", 123456u);
	assert_int_equal(n, 14);
	assert_string_equal(buf, "VM exit");
	n = hv_format(buf, 1, "abc");
	assert_int_equal(n, 3);
	assert_string_equal(buf, "");
	assert_int_equal(hv_format(NULL, 0, "%d", 1000), 4);
}

/* Calls the formatter without the compiler's format checks, for inputs
 * that are wrong on purpose. */
static int unchecked(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = hv_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void null_and_unknown(void **state)
{
	char buf[32];

	(void)state;
	unchecked(buf, sizeof(buf), "%s", (char *)NULL);
	assert_string_equal(buf, "(null)");
	unchecked(buf, sizeof(buf), "a%qb");
	assert_string_equal(buf, "a%qb");
	unchecked(buf, sizeof(buf), "end%");
	assert_string_equal(buf, "end%");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(conversions),
		cmocka_unit_test(truncation),
		cmocka_unit_test(null_and_unknown),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A small printf-style formatter (no floating point) with two sinks: the
 * console (printk) and a buffer (snprintf).
 *
 * printk holds a console lock for the whole message, so that the lines of
 * several CPUs do not mix.  Its owner is the CPU index + 1 (0: free); a CPU
 * that already holds it (printk from an interrupt or exception handler)
 * prints without waiting, and a CPU that waited CONSOLE_LOCK_WAIT_MS (the
 * holder may have died) prints anyway.
 */
#include <inmate.h>

#define CONSOLE_LOCK_WAIT_MS 100

static unsigned int console_owner;

struct sink {
	void (*put)(struct sink *sink, char c);
	char *buf;
	size_t size;
	size_t pos; /* characters produced, including dropped ones */
};

struct spec {
	bool left;
	bool zero;
	int width;
	int precision; /* -1: none */
	int length;    /* 0 int, 1 long, 2 long long, -1 short, -2 char */
};

static void emit_repeat(struct sink *sink, char c, int n)
{
	while (n-- > 0)
		sink->put(sink, c);
}

static void emit_string(struct sink *sink, const struct spec *spec,
			const char *s)
{
	int len = 0;

	if (!s)
		s = "(null)";
	while (s[len] && (spec->precision < 0 || len < spec->precision))
		len++;
	if (!spec->left)
		emit_repeat(sink, ' ', spec->width - len);
	for (int i = 0; i < len; i++)
		sink->put(sink, s[i]);
	if (spec->left)
		emit_repeat(sink, ' ', spec->width - len);
}

static void emit_number(struct sink *sink, const struct spec *spec,
			unsigned long long value, bool negative,
			unsigned int base, bool upper, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int len = 0, plen = 0, pad;

	do {
		tmp[len++] = digits[value % base];
		value /= base;
	} while (value);
	if (negative)
		prefix = "-";
	if (prefix)
		plen = strlen(prefix);
	pad = spec->width - len - plen;

	if (!spec->left && !spec->zero)
		emit_repeat(sink, ' ', pad);
	for (int i = 0; i < plen; i++)
		sink->put(sink, prefix[i]);
	if (!spec->left && spec->zero)
		emit_repeat(sink, '0', pad);
	while (len)
		sink->put(sink, tmp[--len]);
	if (spec->left)
		emit_repeat(sink, ' ', pad);
}

static unsigned long long get_unsigned(const struct spec *spec, va_list *ap)
{
	switch (spec->length) {
	case 2:
		return va_arg(*ap, unsigned long long);
	case 1:
		return va_arg(*ap, unsigned long);
	case -1:
		return (unsigned short)va_arg(*ap, unsigned int);
	case -2:
		return (unsigned char)va_arg(*ap, unsigned int);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static long long get_signed(const struct spec *spec, va_list *ap)
{
	switch (spec->length) {
	case 2:
		return va_arg(*ap, long long);
	case 1:
		return va_arg(*ap, long);
	case -1:
		return (short)va_arg(*ap, int);
	case -2:
		return (signed char)va_arg(*ap, int);
	default:
		return va_arg(*ap, int);
	}
}

static void format(struct sink *sink, const char *fmt, va_list *ap)
{
	struct spec spec;
	long long sval;

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			sink->put(sink, *fmt);
			continue;
		}
		fmt++;
		spec = (struct spec){ .precision = -1 };
		for (;; fmt++) {
			if (*fmt == '-')
				spec.left = true;
			else if (*fmt == '0')
				spec.zero = true;
			else
				break;
		}
		if (*fmt == '*') {
			spec.width = va_arg(*ap, int);
			if (spec.width < 0) {
				spec.left = true;
				spec.width = -spec.width;
			}
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			spec.width = spec.width * 10 + (*fmt++ - '0');
		if (*fmt == '.') {
			fmt++;
			spec.precision = 0;
			if (*fmt == '*') {
				spec.precision = va_arg(*ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				spec.precision =
					spec.precision * 10 + (*fmt++ - '0');
		}
		for (;; fmt++) {
			if (*fmt == 'l')
				spec.length++;
			else if (*fmt == 'h')
				spec.length--;
			else if (*fmt == 'z')
				spec.length = 1;
			else
				break;
		}
		if (spec.length > 2)
			spec.length = 2;
		if (spec.length < -2)
			spec.length = -2;

		switch (*fmt) {
		case 'd':
		case 'i':
			sval = get_signed(&spec, ap);
			emit_number(sink, &spec,
				    sval < 0 ? 0ULL - (unsigned long long)sval
					     : (unsigned long long)sval,
				    sval < 0, 10, false, NULL);
			break;
		case 'u':
			emit_number(sink, &spec, get_unsigned(&spec, ap), false,
				    10, false, NULL);
			break;
		case 'x':
		case 'X':
			emit_number(sink, &spec, get_unsigned(&spec, ap), false,
				    16, *fmt == 'X', NULL);
			break;
		case 'p':
			emit_number(sink, &spec,
				    (unsigned long)va_arg(*ap, void *), false,
				    16, false, "0x");
			break;
		case 'c':
			spec.precision = -1;
			emit_repeat(sink, ' ', spec.left ? 0 : spec.width - 1);
			sink->put(sink, (char)va_arg(*ap, int));
			emit_repeat(sink, ' ', spec.left ? spec.width - 1 : 0);
			break;
		case 's':
			emit_string(sink, &spec, va_arg(*ap, const char *));
			break;
		case '%':
			sink->put(sink, '%');
			break;
		case '\0':
			return;
		default:
			/* Unknown conversion: show it as it is. */
			sink->put(sink, '%');
			sink->put(sink, *fmt);
			break;
		}
	}
}

static void console_sink_put(struct sink *sink, char c)
{
	console_putc(c);
	sink->pos++;
}

static void buffer_sink_put(struct sink *sink, char c)
{
	if (sink->pos + 1 < sink->size)
		sink->buf[sink->pos] = c;
	sink->pos++;
}

static bool console_lock(void)
{
	unsigned int me = smp_cpu_index() + 1, free = 0;
	uint64_t start, wait;

	if (__atomic_load_n(&console_owner, __ATOMIC_ACQUIRE) == me)
		return false;
	if (__atomic_compare_exchange_n(&console_owner, &free, me, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return true;
	wait = (uint64_t)tsc_khz() * CONSOLE_LOCK_WAIT_MS;
	start = rdtsc();
	do {
		cpu_relax();
		free = 0;
		if (__atomic_compare_exchange_n(&console_owner, &free, me,
						false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	} while (rdtsc() - start < wait);
	return false;
}

int vprintk(const char *fmt, va_list ap)
{
	struct sink sink = { .put = console_sink_put };
	bool locked = console_lock();
	va_list copy;

	va_copy(copy, ap);
	format(&sink, fmt, &copy);
	va_end(copy);
	if (locked)
		__atomic_store_n(&console_owner, 0, __ATOMIC_RELEASE);
	return sink.pos;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink sink = { .put = buffer_sink_put, .buf = buf, .size = size };
	va_list copy;

	va_copy(copy, ap);
	format(&sink, fmt, &copy);
	va_end(copy);
	if (size)
		buf[sink.pos < size ? sink.pos : size - 1] = '\0';
	return sink.pos;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

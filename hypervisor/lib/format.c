// SPDX-License-Identifier: GPL-2.0
/* The hypervisor's formatter (contract in hv/format.h). */
#include <hv/format.h>

struct out {
	char *buf;
	size_t size;
	size_t len; /* would-be length */
};

static size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width,
		       bool left, char pad)
{
	int fill = width > (int)n ? width - (int)n : 0;

	if (!left)
		while (fill-- > 0)
			put(o, pad);
	while (n--)
		put(o, *s++);
	if (left)
		while (fill-- > 0)
			put(o, ' ');
}

static void put_number(struct out *o, unsigned long long v, bool negative,
		       unsigned int base, bool upper, int width, bool left,
		       bool zero)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = digits[v % base];
		v /= base;
	} while (v);
	if (negative && zero && !left) {
		put(o, '-');
		width = width > 0 ? width - 1 : 0;
	} else if (negative) {
		tmp[sizeof(tmp) - 1 - n++] = '-';
	}
	put_padded(o, &tmp[sizeof(tmp) - n], (size_t)n, width, left,
		   zero && !left ? '0' : ' ');
}

int hv_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size, .len = 0 };

	for (; *fmt; fmt++) {
		bool left = false, zero = false, upper = false;
		const char *start = fmt;
		unsigned long long u;
		int width = 0, lng = 0;
		long long s;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0')
				zero = true;
			else
				break;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z') {
			lng++;
			fmt++;
		}

		switch (*fmt) {
		case '%':
			put(&o, '%');
			break;
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *str = va_arg(ap, const char *);

			if (!str)
				str = "(null)";
			put_padded(&o, str, str_len(str), width, left, ' ');
			break;
		}
		case 'd':
		case 'i':
			s = lng >= 2   ? va_arg(ap, long long)
			    : lng == 1 ? va_arg(ap, long)
				       : va_arg(ap, int);
			u = s < 0 ? 0ull - (unsigned long long)s
				  : (unsigned long long)s;
			put_number(&o, u, s < 0, 10, false, width, left, zero);
			break;
		case 'X':
			upper = true;
			/* fall through */
		case 'u':
		case 'x':
			u = lng >= 2   ? va_arg(ap, unsigned long long)
			    : lng == 1 ? va_arg(ap, unsigned long)
				       : va_arg(ap, unsigned int);
			put_number(&o, u, false, *fmt == 'u' ? 10 : 16, upper,
				   width, left, zero);
			break;
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_number(&o, (unsigned long)va_arg(ap, void *), false,
				   16, false, width, left, zero);
			break;
		default:
			/* Unknown: copy the conversion as written. */
			while (start <= fmt && *start)
				put(&o, *start++);
			if (!*fmt)
				fmt--;
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int hv_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = hv_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

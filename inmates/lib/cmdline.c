// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The command line: a NUL-terminated string at INMATE_CMDLINE (at most
 * INMATE_CMDLINE_SIZE bytes with the NUL), written there by the loader
 * ("warden cell load <cell> -s <string> -a 0xff000").  It holds options
 * separated by spaces: key=value, or a bare key (an empty value).  When a
 * key is given several times, the last one counts.
 *
 * cmdline_init() (before inmate_main()) copies it: the inmate may reuse
 * the page.  A page without a NUL, or with other than printable ASCII and
 * white space, is ignored (no command line was loaded): every option then
 * has its default.
 */
#include <inmate.h>
#include "internal.h"

static char raw[INMATE_CMDLINE_SIZE];
static char tokens[INMATE_CMDLINE_SIZE]; /* raw, white space -> NUL */
static size_t length;

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void cmdline_init(void)
{
	const char *src = (const char *)INMATE_CMDLINE;
	size_t n;

	for (n = 0; n < INMATE_CMDLINE_SIZE && src[n]; n++) {
		if ((src[n] < 0x20 || src[n] > 0x7e) && !is_space(src[n]))
			break;
		raw[n] = src[n];
	}
	if (n == INMATE_CMDLINE_SIZE || src[n]) {
		printk("inmate: no command line at 0x%x (not a string), "
		       "using defaults\n",
		       INMATE_CMDLINE);
		n = 0;
	}
	raw[n] = '\0';
	length = n;
	for (n = 0; n <= length; n++)
		tokens[n] = is_space(raw[n]) ? '\0' : raw[n];
}

const char *cmdline(void)
{
	return raw;
}

/* The value of the last "key=value" or bare "key", or NULL. */
static const char *lookup(const char *key)
{
	size_t klen = strlen(key), tlen, i = 0;
	const char *found = NULL, *tok;

	while (i < length) {
		if (!tokens[i]) {
			i++;
			continue;
		}
		tok = &tokens[i];
		tlen = strlen(tok);
		if (tlen >= klen && !memcmp(tok, key, klen) &&
		    (tok[klen] == '=' || !tok[klen]))
			found = tok[klen] ? tok + klen + 1 : tok + klen;
		i += tlen;
	}
	return found;
}

const char *cmdline_str(const char *key, const char *def)
{
	const char *value = lookup(key);

	return value ? value : def;
}

static bool parse_uint(const char *s, uint64_t *out)
{
	unsigned int base = 10, digit;
	uint64_t value = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digit = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			digit = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			digit = *s - 'A' + 10;
		else
			return false;
		if (value > (UINT64_MAX - digit) / base)
			return false;
		value = value * base + digit;
	}
	*out = value;
	return true;
}

uint64_t cmdline_uint(const char *key, uint64_t def)
{
	const char *value = lookup(key);
	uint64_t n;

	if (!value)
		return def;
	if (parse_uint(value, &n))
		return n;
	printk("inmate: command line: %s=%s is not a number, using %lu\n", key,
	       value, (unsigned long)def);
	return def;
}

bool cmdline_bool(const char *key, bool def)
{
	static const char *const yes[] = { "", "1", "y", "yes", "on", "true" };
	static const char *const no[] = { "0", "n", "no", "off", "false" };
	const char *value = lookup(key);
	unsigned int i;

	if (!value)
		return def;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcmp(value, yes[i]))
			return true;
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcmp(value, no[i]))
			return false;
	printk("inmate: command line: %s=%s is not a boolean, using %s\n", key,
	       value, def ? "true" : "false");
	return def;
}

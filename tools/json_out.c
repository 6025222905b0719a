// SPDX-License-Identifier: GPL-2.0
/* JSON output of the read commands (json_out.h). */
#include "json_out.h"

void json_str(FILE *out, const char *str, size_t max)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < max && str[i]; i++) {
		unsigned char c = (unsigned char)str[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * "warden console [-f] [<cell>]": the hypervisor console that the driver
 * reads out of /dev/warden, whole or one cell's share: the lines the cell
 * printed ("[name] ...") and the hypervisor's lines that name it
 * ("cell 1 \"name\" ..."), so that a user watching one inmate does not
 * dig through the others.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <warden/ioctl.h>

#include "cli_args.h"
#include "json_out.h"
#include "warden.h"

static int usage(FILE *out)
{
	fputs("Usage: warden console [-f] [--json] [<cell>]\n\n"
	      "Prints the hypervisor console, oldest line first (the "
	      "hypervisor's last 256\nlines, each cell's last 32); -f keeps "
	      "printing new lines. With <cell> (an id\nor a name), only that "
	      "cell's lines: its output (\"[name] ...\") and what the\n"
	      "hypervisor says about it. --json: one JSON object a line, "
	      "{\"cell\": the name\nof the cell whose output it is, or null "
	      "for the hypervisor's, \"text\": ...}.\n\nExit status: 0 "
	      "success, 2 no such cell or no driver.\n",
	      out);
	return out == stdout ? EXIT_OK : EXIT_ERROR;
}

bool console_line_of(const char *line, const char *name)
{
	char tag[WARDEN_NAME_LEN + 4];

	snprintf(tag, sizeof(tag), "[%s] ", name);
	if (!strncmp(line, tag, strlen(tag)))
		return true;
	snprintf(tag, sizeof(tag), "\"%s\"", name);
	return strstr(line, tag) != NULL;
}

/* One line as JSON: a cell's output ("[name] text") names the cell. */
static void json_line(const char *line)
{
	const char *end = line[0] == '[' ? strstr(line, "] ") : NULL;

	fputs("{\"cell\": ", stdout);
	if (end)
		json_str(stdout, line + 1, (size_t)(end - line - 1));
	else
		fputs("null", stdout);
	fputs(", \"text\": ", stdout);
	json_str(stdout, end ? end + 2 : line, (size_t)-1);
	fputs("}\n", stdout);
}

/* Lines of buf (n bytes, from an unfinished line kept from the last read
 * on) that belong to name ("": all), printed as they are or (json) as
 * JSON; an unfinished last line is kept in buf, its length returned. */
static size_t filter(char *buf, size_t n, const char *name, bool json)
{
	char *line = buf, *nl;
	size_t rest;

	while ((nl = memchr(line, '\n', n - (size_t)(line - buf)))) {
		*nl = 0;
		if (!name[0] || console_line_of(line, name)) {
			if (json)
				json_line(line);
			else
				printf("%s\n", line);
		}
		line = nl + 1;
	}
	rest = n - (size_t)(line - buf);
	memmove(buf, line, rest);
	return rest;
}

int cmd_console(int argc, char **argv)
{
	static const char *const flags[] = { "-f", "--json", NULL };
	struct warden_cell_info info;
	const char *cell;
	bool opt[2] = { false, false }; /* -f, --json */
	char buf[8192], name[WARDEN_NAME_LEN + 1] = "";
	size_t held = 0;
	ssize_t n;
	uint32_t id, i;
	int fd, r = args_flags(argc, argv, flags, opt, &cell);

	if (r == ARGS_HELP)
		return usage(stdout);
	if (r != ARGS_OK)
		return usage(stderr);
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	if (cell) {
		id = resolve_cell(fd, cell, "console");
		for (i = 0; id && cell_at(fd, i, &info); i++)
			if (info.cell_id == id)
				snprintf(name, sizeof(name), "%.*s",
					 (int)sizeof(info.name), info.name);
		if (!name[0]) {
			if (id)
				fprintf(stderr,
					"warden: console: no cell %u (see "
					"'warden cell list')\n",
					id);
			close(fd);
			return EXIT_ERROR;
		}
	}
	for (;;) {
		n = read(fd, buf + held, sizeof(buf) - 1 - held);
		if (n > 0 && (cell || opt[1])) {
			held = filter(buf, held + (size_t)n, name, opt[1]);
			if (held == sizeof(buf) - 1) { /* a line this long */
				buf[held] = '\n';
				held = filter(buf, held + 1, name, opt[1]);
			}
			fflush(stdout);
			continue;
		}
		if (n > 0) {
			fwrite(buf, 1, (size_t)n, stdout);
			fflush(stdout);
			continue;
		}
		if (n < 0 || !opt[0])
			break;
		usleep(200000);
	}
	close(fd);
	return n < 0 ? EXIT_ERROR : EXIT_OK;
}

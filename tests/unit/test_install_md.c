// SPDX-License-Identifier: GPL-2.0
/*
 * docs/install.md cannot drift: every fenced block is one of
 *   sh test=NAME    run as written by the boot system group (NAME must be
 *                   one of its tests; tests/system/boot.sh runs it)
 *   sh shown-only   not runnable in a test (apt, GRUB, reboot, systemd):
 *                   bash -n accepts it
 *   grub            /etc/default/grub lines: read by the shell, then
 *                   unescaped as GRUB does, Linux gets a reservation
 * and every warden command in a block exists (its --help exits 0).  The
 * rules named in the troubleshooting table exist, and the "config check"
 * examples of docs/config.md pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cmocka_wrap.h"
#include "memmap.h"

#define DOC WARDEN_DOCS "/install.md"
#define MAX_BLOCKS 32

struct block {
	unsigned int line; /* of the opening fence */
	char info[64];
	char text[2048];
};

static struct block blocks[MAX_BLOCKS];
static size_t n_blocks;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, (1 << 20) - 1, f) > 0);
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	char line[512];
	struct block *b = NULL;
	unsigned int no = 0;
	FILE *f = fopen(DOC, "r");

	(void)state;
	assert_non_null(f);
	n_blocks = 0;
	while (fgets(line, sizeof(line), f)) {
		no++;
		if (strncmp(line, "```", 3)) {
			if (b)
				strncat(b->text, line,
					sizeof(b->text) - strlen(b->text) - 1);
			continue;
		}
		if (b) {
			b = NULL;
			continue;
		}
		assert_true(n_blocks < MAX_BLOCKS);
		b = &blocks[n_blocks++];
		memset(b, 0, sizeof(*b));
		b->line = no;
		line[strcspn(line, "\n")] = '\0';
		snprintf(b->info, sizeof(b->info), "%.60s", line + 3);
	}
	fclose(f);
	return 0;
}

/* Runs cmd with "sh -c"; its exit status. */
static int shell(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Each "[sudo] warden A [B] ..." line names a command the CLI has. */
static void warden_commands_exist(const struct block *b)
{
	static const char *const groups[] = { "cell", "config", "hardware",
					      "link" };
	char copy[sizeof(b->text)], words[512], cmd[600], *line, *save, *w[3];
	size_t i, n;

	snprintf(copy, sizeof(copy), "%s", b->text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "sudo ", 5))
			line += 5;
		if (strncmp(line, "warden ", 7))
			continue;
		n = 0;
		snprintf(words, sizeof(words), "%s", line + 7);
		for (w[0] = strtok(words, " "); w[n] && n < 2;)
			w[++n] = strtok(NULL, " ");
		for (i = 0; i < 4 && w[0]; i++)
			if (!strcmp(w[0], groups[i]))
				break;
		snprintf(cmd, sizeof(cmd), "%s %s %s --help >/dev/null 2>&1",
			 WARDEN_CLI, w[0], i < 4 && w[1] ? w[1] : "");
		if (shell(cmd) != 0)
			fail_msg("install.md:%u: '%s' is not a warden command",
				 b->line, line);
	}
}

/* A "test=NAME" block is one of the boot group's declared tests. */
static void run_by_test(const struct block *b, const char *name,
			const char *group)
{
	char *text = slurp(group), *tests = strstr(text, "\n# tests:");
	char want[80];

	assert_non_null(tests);
	*strchr(tests + 1, '\n') = '\0';
	snprintf(want, sizeof(want), " %s ", name);
	strcat(tests, " ");
	if (!strstr(tests, want))
		fail_msg("install.md:%u: block test=%s is not a test of %s",
			 b->line, name, group);
	free(text);
}

static void shown_only_parses(const struct block *b)
{
	char path[] = "/tmp/wd-install-md-XXXXXX", cmd[128];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	fputs(b->text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "bash -n %s", path);
	if (shell(cmd) != 0)
		fail_msg("install.md:%u: bash -n refuses the block", b->line);
	unlink(path);
}

/* The shell reads /etc/default/grub, GRUB unescapes "\$" and "\\" in
 * what it puts on the kernel command line: the reservation survives. */
static void grub_gives_reservation(const struct block *b)
{
	char path[] = "/tmp/wd-install-md-XXXXXX", cmd[160], got[512];
	char linux_sees[512], *o = linux_sees;
	const char *p;
	struct memmap m;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	fputs(b->text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), ". %s; printf %%s \"$GRUB_CMDLINE_LINUX\"",
		 path);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(got, sizeof(got), f));
	pclose(f);
	unlink(path);
	for (p = got; *p; p++) {
		if (*p == '\\' && (p[1] == '$' || p[1] == '\\'))
			p++;
		*o++ = *p;
	}
	*o = '\0';
	if (memmap_find(linux_sees, &m) != MEMMAP_FOUND)
		fail_msg("install.md:%u: Linux would get '%s': no memmap= "
			 "reservation",
			 b->line, linux_sees);
	/* the example cell's memory is in this reservation */
	assert_int_equal(m.start, 0x30000000);
	assert_int_equal(m.size, 64ull << 20);
}

static void every_block_checked(void **state)
{
	size_t i, tests = 0, shown = 0, grub = 0;

	(void)state;
	assert_true(n_blocks > 5);
	for (i = 0; i < n_blocks; i++) {
		const struct block *b = &blocks[i];

		if (!strncmp(b->info, "sh test=", 8)) {
			run_by_test(b, b->info + 8,
				    WARDEN_TESTS "/system/boot.sh");
			warden_commands_exist(b);
			tests++;
		} else if (!strcmp(b->info, "sh shown-only")) {
			shown_only_parses(b);
			warden_commands_exist(b);
			shown++;
		} else if (!strcmp(b->info, "grub")) {
			grub_gives_reservation(b);
			grub++;
		} else {
			fail_msg("install.md:%u: block '%s' is neither run by "
				 "a test (sh test=NAME), shown-only nor grub",
				 b->line, b->info);
		}
	}
	assert_int_equal(tests, 3);
	assert_true(shown >= 5);
	assert_int_equal(grub, 1);
}

/* A rule named in backquotes in the troubleshooting table exists. */
static void troubleshooting_rules_exist(void **state)
{
	char *doc = slurp(DOC), *err = slurp(WARDEN_INCLUDE "/warden/error.h");
	char *p = strstr(doc, "## 7. Troubleshooting"), name[64], want[80];
	unsigned int found = 0;

	(void)state;
	assert_non_null(p);
	while ((p = strstr(p, "| `"))) {
		size_t n = strspn(p + 3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_"
					 "0123456789");

		p += 3;
		if (n == 0 || p[n] != '`' || n >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		snprintf(want, sizeof(want), "WARDEN_RULE_%s ", name);
		if (!strstr(err, want))
			fail_msg("install.md names rule %s, which error.h "
				 "does not have",
				 name);
		found++;
	}
	assert_true(found >= 10);
	free(doc);
	free(err);
}

/* The "warden config check" lines of config.md's first block pass, run
 * from the source tree as they are written. */
static void config_md_checks_pass(void **state)
{
	char *doc = slurp(WARDEN_DOCS "/config.md"), *p, *eol, cmd[700];
	unsigned int run = 0;

	(void)state;
	p = strstr(doc, "```sh\n");
	assert_non_null(p);
	*strstr(p + 6, "```") = '\0';
	for (p += 6; *p; p = eol + 1) {
		eol = strchr(p, '\n');
		*eol = '\0';
		if (strncmp(p, "warden config check ", 20))
			continue;
		p[strcspn(p, "#")] = '\0';
		snprintf(cmd, sizeof(cmd), "cd %s/.. && %s %s >/dev/null",
			 WARDEN_DOCS, WARDEN_CLI, p + 7);
		if (shell(cmd) != 0)
			fail_msg("config.md: '%s' fails", p);
		run++;
	}
	assert_int_equal(run, 2);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(every_block_checked, setup),
		cmocka_unit_test(troubleshooting_rules_exist),
		cmocka_unit_test(config_md_checks_pass),
	};

	return cmocka_run_group_tests_name("install_md", tests, NULL, NULL);
}

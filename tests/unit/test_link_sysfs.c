// SPDX-License-Identifier: GPL-2.0
/*
 * tools/link_sysfs.c: the links warden.ko lists in
 * /sys/kernel/warden/links, on a fake tree in a temporary directory (the
 * test machines' two links, "echo" and "trio"), the parsers on their own,
 * damaged files, and the table of "warden link list".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmocka_wrap.h"
#include "fake_tree.h"
#include "link_sysfs.h"

/* A link directory with every file. */
static void link_dir(const char *name, const char *index, const char *memory,
		     const char *local_peer, const char *device,
		     const char *netdev, const char *peers)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "kernel/warden/links/%s", name);
	dir(rel);
#define FILE_OF(attr, text)                                                    \
	do {                                                                   \
		snprintf(rel, sizeof(rel), "kernel/warden/links/%s/%s", name,  \
			 attr);                                                \
		put(rel, text);                                                \
	} while (0)
	FILE_OF("index", index);
	FILE_OF("memory", memory);
	FILE_OF("access", "directional\n");
	FILE_OF("local_peer", local_peer);
	FILE_OF("device", device);
	FILE_OF("netdev", netdev);
	FILE_OF("peers", peers);
#undef FILE_OF
}

/* Warden enabled, with trio (index 1) listed before echo (index 0) by
 * the directory. */
static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/wd-link-XXXXXX");
	assert_non_null(mkdtemp(root));
	dir("kernel");
	dir("kernel/warden");
	put("kernel/warden/enabled", "1\n");
	dir("kernel/warden/links");
	link_dir("trio", "1\n", "0x33d00000 0x100000\n", "0\n",
		 "/dev/warden-link-trio\n", "wl-trio\n",
		 "0 Linux 00:11.0 3 present up\n"
		 "1 link-echo 00:02.0 3 present down\n"
		 "2 link peer 00:01.0 3 absent down\n");
	link_dir("echo", "0\n", "0x33c00000 0x100000\n", "0\n",
		 "/dev/warden-link-echo\n", "wl-echo\n",
		 "0 Linux 00:10.0 3 present up\n"
		 "1 link-echo 00:01.0 3 present up\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void parsers(void **state)
{
	struct link_state l;
	uint64_t phys, size;

	(void)state;
	assert_int_equal(
		link_parse_memory("0x33c00000 0x100000\n", &phys, &size), 0);
	assert_true(phys == 0x33c00000 && size == 0x100000);
	assert_int_equal(link_parse_memory("33c00000 10000", &phys, &size), 0);
	assert_true(phys == 0x33c00000 && size == 0x10000);
	assert_int_equal(link_parse_memory("0x33c00000\n", &phys, &size), -1);
	assert_int_equal(link_parse_memory("0x1 0x2 0x3", &phys, &size), -1);
	assert_int_equal(link_parse_memory("", &phys, &size), -1);

	/* a name with blanks; the last line without its newline */
	assert_int_equal(link_parse_peers("0 Linux 00:10.0 3 present up\n"
					  "1 my cell 00:01.0 1 absent down",
					  &l),
			 0);
	assert_int_equal(l.n_peers, 2);
	assert_string_equal(l.peers[1].cell, "my cell");
	assert_string_equal(l.peers[1].bdf, "00:01.0");
	assert_int_equal(l.peers[1].vectors, 1);
	assert_false(l.peers[1].present);
	assert_false(l.peers[1].up);
	assert_true(l.peers[0].present && l.peers[0].up);
	assert_int_equal(link_parse_peers("", &l), 0);
	assert_int_equal(l.n_peers, 0);
	/* the line at fault */
	assert_int_equal(link_parse_peers("0 Linux 00:10.0 3 present up\n"
					  "1 a 00:01.0 3 present sideways\n",
					  &l),
			 2);
	assert_int_equal(link_parse_peers("0 Linux 00:10.0 3 here up\n", &l),
			 1);
	assert_int_equal(link_parse_peers("x Linux 00:10.0 3 present up\n", &l),
			 1);
	assert_int_equal(link_parse_peers("0 00:10.0 3 present up\n", &l), 1);
	assert_int_equal(link_parse_peers("0 a 00:10.0 3x present up\n", &l),
			 1);
	assert_int_equal(link_parse_peers("0 a 00:10.0 3 present up\n"
					  "1 a 00:10.0 3 present up\n"
					  "2 a 00:10.0 3 present up\n"
					  "3 a 00:10.0 3 present up\n"
					  "4 a 00:10.0 3 present up\n",
					  &l),
			 5);
}

static void read_tree(void **state)
{
	struct link_state *links;
	char err[512];
	size_t n;

	(void)state;
	assert_int_equal(link_enabled(root), 1);
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	/* by index, not by directory order */
	assert_string_equal(links[0].name, "echo");
	assert_string_equal(links[1].name, "trio");
	assert_int_equal(links[1].index, 1);
	assert_true(links[1].phys == 0x33d00000 && links[1].size == 0x100000);
	assert_string_equal(links[1].access, "directional");
	assert_int_equal(links[1].local_peer, 0);
	assert_string_equal(links[1].device, "/dev/warden-link-trio");
	assert_string_equal(links[1].netdev, "wl-trio");
	assert_int_equal(links[1].n_peers, 3);
	assert_string_equal(links[1].peers[2].cell, "link peer");
	free(links);
}

/* The table, exactly: one row per peer, root's device on its row. */
static void table(void **state)
{
	static const char expect[] =
		"link  memory         access       peer  cell       bdf      "
		"vectors  cell is  state  root's device, netdev\n"
		"echo  0x33c00000+1M  directional  0     Linux      00:10.0  "
		"3        present  up     /dev/warden-link-echo, wl-echo\n"
		"                                  1     link-echo  00:01.0  "
		"3        present  up\n"
		"trio  0x33d00000+1M  directional  0     Linux      00:11.0  "
		"3        present  up     /dev/warden-link-trio, wl-trio\n"
		"                                  1     link-echo  00:02.0  "
		"3        present  down\n"
		"                                  2     link peer  00:01.0  "
		"3        absent   down\n";
	struct link_state *links;
	char err[512], *out = NULL;
	size_t n, len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)), 0);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	link_print_table(f, links, n);
	fclose(f);
	if (strcmp(out, expect))
		print_message("got:\n%s", out);
	assert_string_equal(out, expect);
	free(out);
	/* a link root is not a peer of: no device on any row */
	links[0].local_peer = -1;
	out = NULL;
	f = open_memstream(&out, &len);
	assert_non_null(f);
	link_print_table(f, links, 1);
	fclose(f);
	assert_null(strstr(out, "/dev/"));
	free(out);
	free(links);
}

/* link list --json: the same facts, as one array; the cell name with a
 * blank and a quote comes out escaped. */
static void json(void **state)
{
	struct link_state *links;
	char err[512], *out = NULL;
	size_t n, len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)), 0);
	strcpy(links[1].peers[2].cell, "link \"peer\"");
	f = open_memstream(&out, &len);
	link_print_json(f, links, n);
	fclose(f);
	assert_non_null(out);
	assert_non_null(strstr(out, "[{\"name\": \"echo\", \"index\": 0, "
				    "\"phys\": "
				    "868220928, \"size\": 1048576, \"access\": "
				    "\"directional\", \"root_peer\": 0, "
				    "\"device\": "
				    "\"/dev/warden-link-echo\", \"netdev\": "
				    "\"wl-echo\", "
				    "\"peers\": [{\"index\": 0, \"cell\": "
				    "\"Linux\", "
				    "\"bdf\": \"00:10.0\", \"vectors\": 3, "
				    "\"present\": "
				    "true, \"up\": true}, "));
	assert_non_null(strstr(out, "{\"index\": 2, \"cell\": \"link "
				    "\\\"peer\\\"\", \"bdf\": \"00:01.0\", "
				    "\"vectors\": 3, \"present\": false, "
				    "\"up\": false}]}]\n"));
	free(out);
	free(links);
}

/* Not enabled, no driver, no list, damaged files: each named. */
static void refusals(void **state)
{
	struct link_state *links;
	char err[512], path[256];
	size_t n;

	(void)state;
	put("kernel/warden/enabled", "0\n");
	assert_int_equal(link_enabled(root), 0);
	put("kernel/warden/enabled", "1\n");
	snprintf(path, sizeof(path), "%s/none", root);
	assert_int_equal(link_enabled(path), -ENOENT);
	assert_int_equal(link_read_all(path, &links, &n, err, sizeof(err)),
			 -ENOENT);
	assert_null(links);

	put("kernel/warden/links/echo/peers", "0 Linux 00:10.0 3 present up\n"
					      "1 link-echo 00:01.0 3 gone "
					      "up\n");
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "/kernel/warden/links/echo/peers: line 2 "
				    "is not"));
	put("kernel/warden/links/echo/peers", "0 Linux 00:10.0 3 present up\n");
	put("kernel/warden/links/echo/memory", "somewhere\n");
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "echo/memory: 'somewhere' is not"));
	put("kernel/warden/links/echo/memory", "0x33c00000 0x100000\n");
	put("kernel/warden/links/echo/local_peer", "4\n");
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "echo/local_peer: '4' is not a peer"));
	put("kernel/warden/links/echo/local_peer", "-1\n");
	snprintf(path, sizeof(path), "%s/kernel/warden/links/echo/netdev",
		 root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "echo/netdev: No such file"));
	put("kernel/warden/links/echo/netdev", "-\n");
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)), 0);
	assert_int_equal(links[0].local_peer, -1);
	assert_string_equal(links[0].netdev, "-");
	free(links);
}

/* Enabled, but the system config has no links: an empty list. */
static void no_links(void **state)
{
	struct link_state *links;
	char err[512], cmd[256];
	size_t n;

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s/kernel/warden/links/*", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(link_read_all(root, &links, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(links);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parsers),  cmocka_unit_test(read_tree),
		cmocka_unit_test(table),    cmocka_unit_test(json),
		cmocka_unit_test(refusals), cmocka_unit_test(no_links),
	};

	return cmocka_run_group_tests_name("link_sysfs", tests, setup,
					   teardown);
}

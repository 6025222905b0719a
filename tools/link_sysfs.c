// SPDX-License-Identifier: GPL-2.0
/* The links in sysfs, and their table (see link_sysfs.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_out.h"
#include "link_sysfs.h"

#define LINKS_DIR "/kernel/warden/links"
#define FILE_MAX 4096

/* Reads a whole small file, NUL-terminated: its length, or a negative
 * errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t r;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len && (r = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)r;
	err = r < 0 ? -errno : 0;
	close(fd);
	buf[got] = '\0';
	return err ? err : (int)got;
}

/* Drops trailing newlines and blanks. */
static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

static int parse_hex(const char **p, uint64_t *v)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!isxdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*v = strtoull(*p, &end, 16);
	if (end == *p || errno)
		return -1;
	*p = end;
	return 0;
}

int link_parse_memory(const char *text, uint64_t *phys, uint64_t *size)
{
	const char *p = text;

	if (parse_hex(&p, phys) || parse_hex(&p, size))
		return -1;
	while (*p == ' ' || *p == '\n')
		p++;
	return *p ? -1 : 0;
}

/* Splits off the last blank-separated word of line (which is cut
 * there); NULL when there is none. */
static char *last_word(char *line)
{
	char *sp = strrchr(line, ' ');

	if (!sp || !sp[1])
		return NULL;
	*sp = '\0';
	return sp + 1;
}

/* One line of the peers file into q: 0 or -1. */
static int parse_peer(char *line, struct link_peer_state *q)
{
	char *state, *presence, *vectors, *bdf, *end;
	unsigned long v;

	state = last_word(line);
	presence = state ? last_word(line) : NULL;
	vectors = presence ? last_word(line) : NULL;
	bdf = vectors ? last_word(line) : NULL;
	if (!bdf)
		return -1;
	if (!strcmp(state, "up"))
		q->up = true;
	else if (!strcmp(state, "down"))
		q->up = false;
	else
		return -1;
	if (!strcmp(presence, "present"))
		q->present = true;
	else if (!strcmp(presence, "absent"))
		q->present = false;
	else
		return -1;
	v = strtoul(vectors, &end, 10);
	if (end == vectors || *end || v > 0xff)
		return -1;
	q->vectors = (unsigned int)v;
	if (strlen(bdf) >= sizeof(q->bdf))
		return -1;
	strcpy(q->bdf, bdf);
	/* what is left: "<index> <cell>", the name possibly with blanks */
	v = strtoul(line, &end, 10);
	if (end == line || *end != ' ' || !end[1] ||
	    strlen(end + 1) >= sizeof(q->cell))
		return -1;
	q->index = (unsigned int)v;
	strcpy(q->cell, end + 1);
	return 0;
}

int link_parse_peers(const char *text, struct link_state *l)
{
	char line[256];
	const char *p = text, *eol;
	size_t n;
	int number = 0;

	l->n_peers = 0;
	while (*p) {
		number++;
		eol = strchr(p, '\n');
		n = eol ? (size_t)(eol - p) : strlen(p);
		if (n >= sizeof(line) || l->n_peers >= WARDEN_LINK_MAX_PEERS)
			return number;
		memcpy(line, p, n);
		line[n] = '\0';
		if (parse_peer(line, &l->peers[l->n_peers]))
			return number;
		l->n_peers++;
		p = eol ? eol + 1 : p + n;
	}
	return 0;
}

int link_enabled(const char *sysfs)
{
	char path[512], buf[16];
	int r;

	snprintf(path, sizeof(path), "%s/kernel/warden/enabled", sysfs);
	r = read_text(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	return buf[0] == '1';
}

/* Reads attribute attr of the link at dir; chomped.  On error, says
 * which file in err. */
static int attr(const char *dir, const char *name, char *buf, size_t len,
		char *err, size_t errlen)
{
	char path[768];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	r = read_text(path, buf, len);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	chomp(buf);
	return 0;
}

/* The link of directory dir (named name) into l. */
static int read_link(const char *dir, const char *name, struct link_state *l,
		     char *err, size_t errlen)
{
	char buf[FILE_MAX], *end;
	long v;
	int r, line;

	memset(l, 0, sizeof(*l));
	if (strlen(name) >= sizeof(l->name)) {
		snprintf(err, errlen, "%s: not the name of a link (too long)",
			 dir);
		return -EINVAL;
	}
	memcpy(l->name, name, strlen(name) + 1);
	r = attr(dir, "index", buf, sizeof(buf), err, errlen);
	if (r)
		return r;
	v = strtol(buf, &end, 10);
	if (end == buf || *end || v < 0) {
		snprintf(err, errlen, "%s/index: '%s' is not an index", dir,
			 buf);
		return -EINVAL;
	}
	l->index = (unsigned int)v;
	r = attr(dir, "memory", buf, sizeof(buf), err, errlen);
	if (r)
		return r;
	if (link_parse_memory(buf, &l->phys, &l->size)) {
		snprintf(err, errlen,
			 "%s/memory: '%s' is not \"<address> <size>\"", dir,
			 buf);
		return -EINVAL;
	}
	r = attr(dir, "access", l->access, sizeof(l->access), err, errlen);
	if (r)
		return r;
	r = attr(dir, "local_peer", buf, sizeof(buf), err, errlen);
	if (r)
		return r;
	v = strtol(buf, &end, 10);
	if (end == buf || *end || v < -1 || v >= WARDEN_LINK_MAX_PEERS) {
		snprintf(err, errlen, "%s/local_peer: '%s' is not a peer", dir,
			 buf);
		return -EINVAL;
	}
	l->local_peer = (int)v;
	r = attr(dir, "device", l->device, sizeof(l->device), err, errlen);
	if (!r)
		r = attr(dir, "netdev", l->netdev, sizeof(l->netdev), err,
			 errlen);
	if (!r)
		r = attr(dir, "peers", buf, sizeof(buf), err, errlen);
	if (r)
		return r;
	line = link_parse_peers(buf, l);
	if (line) {
		snprintf(err, errlen,
			 "%s/peers: line %d is not \"<index> <cell> <bdf> "
			 "<vectors> <present|absent> <up|down>\"",
			 dir, line);
		return -EINVAL;
	}
	return 0;
}

static int by_index(const void *a, const void *b)
{
	const struct link_state *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

int link_read_all(const char *sysfs, struct link_state **out, size_t *n,
		  char *err, size_t errlen)
{
	char path[512], dir[768];
	struct link_state *list = NULL, *grown;
	struct dirent *de;
	size_t count = 0;
	DIR *d;
	int r = 0;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s%s", sysfs, LINKS_DIR);
	d = opendir(path);
	if (!d) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		grown = realloc(list, (count + 1) * sizeof(*list));
		if (!grown) {
			r = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			break;
		}
		list = grown;
		snprintf(dir, sizeof(dir), "%s/%s", path, de->d_name);
		r = read_link(dir, de->d_name, &list[count], err, errlen);
		if (r)
			break;
		count++;
	}
	closedir(d);
	if (r) {
		free(list);
		return r;
	}
	if (count)
		qsort(list, count, sizeof(*list), by_index);
	*out = list;
	*n = count;
	return 0;
}

/* "0x33c00000+1M": the size in the largest unit that divides it. */
static void memory_text(const struct link_state *l, char *buf, size_t len)
{
	static const char units[] = "GMK";
	unsigned int i, shift;

	for (i = 0; i < 3; i++) {
		shift = 10 * (3 - i);
		if (l->size && !(l->size & ((1ull << shift) - 1))) {
			snprintf(buf, len, "0x%llx+%llu%c",
				 (unsigned long long)l->phys,
				 (unsigned long long)(l->size >> shift),
				 units[i]);
			return;
		}
	}
	snprintf(buf, len, "0x%llx+0x%llx", (unsigned long long)l->phys,
		 (unsigned long long)l->size);
}

static int widest(int w, const char *s)
{
	int n = (int)strlen(s);

	return n > w ? n : w;
}

void link_print_table(FILE *out, const struct link_state *links, size_t n)
{
	int wl = 4, wm = 6, wa = 6, wc = 4;
	char mem[64];
	const struct link_peer_state *q;
	const struct link_state *l;
	unsigned int p;
	size_t i;

	for (i = 0; i < n; i++) {
		l = &links[i];
		memory_text(l, mem, sizeof(mem));
		wl = widest(wl, l->name);
		wm = widest(wm, mem);
		wa = widest(wa, l->access);
		for (p = 0; p < l->n_peers; p++)
			wc = widest(wc, l->peers[p].cell);
	}
	fprintf(out,
		"%-*s  %-*s  %-*s  %-4s  %-*s  %-7s  %-7s  %-7s  %-5s  %s\n",
		wl, "link", wm, "memory", wa, "access", "peer", wc, "cell",
		"bdf", "vectors", "cell is", "state", "root's device, netdev");
	for (i = 0; i < n; i++) {
		l = &links[i];
		memory_text(l, mem, sizeof(mem));
		for (p = 0; p < l->n_peers; p++) {
			q = &l->peers[p];
			fprintf(out,
				"%-*s  %-*s  %-*s  %-4u  %-*s  %-7s  %-7u  "
				"%-7s  ",
				wl, p ? "" : l->name, wm, p ? "" : mem, wa,
				p ? "" : l->access, q->index, wc, q->cell,
				q->bdf, q->vectors,
				q->present ? "present" : "absent");
			/* root's row only: no trailing blanks elsewhere */
			if (l->local_peer >= 0 &&
			    q->index == (unsigned int)l->local_peer)
				fprintf(out, "%-5s  %s, %s\n",
					q->up ? "up" : "down", l->device,
					l->netdev);
			else
				fprintf(out, "%s\n", q->up ? "up" : "down");
		}
		if (!l->n_peers)
			fprintf(out, "%-*s  %-*s  %-*s  (no peers listed)\n",
				wl, l->name, wm, mem, wa, l->access);
	}
}

void link_print_json(FILE *out, const struct link_state *links, size_t n)
{
	const struct link_peer_state *q;
	const struct link_state *l;
	unsigned int p;
	size_t i;

	fputc('[', out);
	for (i = 0; i < n; i++) {
		l = &links[i];
		fprintf(out, "%s{\"name\": ", i ? ", " : "");
		json_str(out, l->name, sizeof(l->name));
		fprintf(out,
			", \"index\": %u, \"phys\": %llu, \"size\": %llu, "
			"\"access\": ",
			l->index, (unsigned long long)l->phys,
			(unsigned long long)l->size);
		json_str(out, l->access, sizeof(l->access));
		fprintf(out,
			", \"root_peer\": %d, \"device\": ", l->local_peer);
		json_str(out, l->device, sizeof(l->device));
		fprintf(out, ", \"netdev\": ");
		json_str(out, l->netdev, sizeof(l->netdev));
		fprintf(out, ", \"peers\": [");
		for (p = 0; p < l->n_peers; p++) {
			q = &l->peers[p];
			fprintf(out,
				"%s{\"index\": %u, \"cell\": ", p ? ", " : "",
				q->index);
			json_str(out, q->cell, sizeof(q->cell));
			fprintf(out, ", \"bdf\": ");
			json_str(out, q->bdf, sizeof(q->bdf));
			fprintf(out,
				", \"vectors\": %u, \"present\": %s, "
				"\"up\": %s}",
				q->vectors, q->present ? "true" : "false",
				q->up ? "true" : "false");
		}
		fprintf(out, "]}");
	}
	fprintf(out, "]\n");
}

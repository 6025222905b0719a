// SPDX-License-Identifier: GPL-2.0
/*
 * What a link function says of itself (include/warden/link_self.h): the
 * NAME register's words as the hypervisor gives them and a driver puts
 * them back, and the check warden.ko makes before it binds a function.
 */
#include "cmocka_wrap.h"
#include <string.h>

#include <warden/link_self.h>

#define BAR2 0x80400000ull
#define SIZE 0x400000ull

/* A function as the hypervisor describes peer 1 of a 2-peer 4 MiB link. */
static struct warden_link_self good(void)
{
	struct warden_link_self s;

	memset(&s, 0, sizeof(s));
	strcpy(s.name, "lnet");
	s.revision = WARDEN_LINK_REGS_REVISION;
	s.index = 4;
	s.id = 1;
	s.num_peers = 2;
	s.flags = WARDEN_LINK_DIRECTIONAL;
	s.vectors = 3;
	s.shmem = BAR2;
	s.size = SIZE;
	s.section_size = warden_link_section_size(SIZE, 2);
	return s;
}

/* Name words out (the hypervisor's) and back in (the driver's). */
static void name_words_round_trip(void **state)
{
	const char *names[] = { "lnet", "a name with blanks", "x",
				"0123456789012345678901234567890" };
	char name[WARDEN_NAME_LEN], back[WARDEN_NAME_LEN];
	uint32_t off, w;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		memset(name, 0, sizeof(name));
		strcpy(name, names[i]);
		for (off = 0; off < WARDEN_NAME_LEN; off += 4) {
			w = warden_link_name_word(name, off);
			back[off] = (char)(w & 0xff);
			back[off + 1] = (char)(w >> 8 & 0xff);
			back[off + 2] = (char)(w >> 16 & 0xff);
			back[off + 3] = (char)(w >> 24);
		}
		assert_memory_equal(name, back, WARDEN_NAME_LEN);
		assert_true(warden_link_self_name_ok(back));
	}
	/* byte 0 is the lowest of the first word */
	memset(name, 0, sizeof(name));
	strcpy(name, "WLNK");
	assert_int_equal(warden_link_name_word(name, 0), 0x4b4e4c57u);
	assert_int_equal(warden_link_name_word(name, 4), 0);
}

static void names(void **state)
{
	char name[WARDEN_NAME_LEN];

	(void)state;
	memset(name, 0, sizeof(name));
	assert_false(warden_link_self_name_ok(name)); /* empty */
	memset(name, 'a', sizeof(name));
	assert_false(warden_link_self_name_ok(name)); /* no NUL */
	name[31] = '\0';
	assert_true(warden_link_self_name_ok(name)); /* 31 bytes */
	strcpy(name, "tab\there");
	assert_false(warden_link_self_name_ok(name));
	strcpy(name, "del\x7f");
	assert_false(warden_link_self_name_ok(name));
	strcpy(name, "high\x80");
	assert_false(warden_link_self_name_ok(name));
}

static void good_function_binds(void **state)
{
	struct warden_link_self s = good();

	(void)state;
	assert_null(warden_link_self_fault(&s, BAR2, SIZE));
	/* a 4-peer link's last peer, one vector, read-write */
	s.num_peers = 4;
	s.id = 3;
	s.vectors = 1;
	s.flags = 0;
	s.section_size = warden_link_section_size(SIZE, 4);
	assert_null(warden_link_self_fault(&s, BAR2, SIZE));
}

/* Each register that makes no sense is the one named. */
static void faults_named(void **state)
{
	struct warden_link_self s;

	(void)state;
#define FAULT(field, value, name)                                              \
	do {                                                                   \
		s = good();                                                    \
		s.field = value;                                               \
		assert_string_equal(warden_link_self_fault(&s, BAR2, SIZE),    \
				    name);                                     \
	} while (0)
	FAULT(revision, 0, "REVISION"); /* an ABI revision 8 hypervisor */
	FAULT(revision, 2, "REVISION");
	FAULT(index, WARDEN_MAX_LINKS, "LINK_INDEX");
	FAULT(num_peers, 1, "NUM_PEERS");
	FAULT(num_peers, 5, "NUM_PEERS");
	FAULT(id, 2, "ID");
	FAULT(flags, 2, "FLAGS");
	FAULT(vectors, 0, "VECTORS");
	FAULT(vectors, 5, "VECTORS");
	FAULT(size, 0x300000, "SHMEM_SIZE");
	FAULT(size, 0x8000, "SHMEM_SIZE");
	FAULT(shmem, BAR2 + 0x1000, "SHMEM_SIZE");
	FAULT(section_size, SIZE / 2 + 0x1000, "SECTION_SIZE");
#undef FAULT
	s = good();
	s.name[0] = '\0';
	assert_string_equal(warden_link_self_fault(&s, BAR2, SIZE), "NAME");
	/* BAR 2 elsewhere than SHMEM says, or of another size */
	s = good();
	assert_string_equal(warden_link_self_fault(&s, BAR2 + SIZE, SIZE),
			    "SHMEM (not BAR 2)");
	assert_string_equal(warden_link_self_fault(&s, BAR2, SIZE / 2), "SHMEM "
									"(not "
									"BAR "
									"2)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(name_words_round_trip),
		cmocka_unit_test(names),
		cmocka_unit_test(good_function_binds),
		cmocka_unit_test(faults_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The list walks every kernel walker shares (shared/kernel/list_walk.c) on lists
 * built by hand: a good circular list, one that loops back to a node
 * (and to itself), one longer than its bound, links that are garbage or
 * point outside the image, and the NULL-terminated chains of ftrace.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "kernel_list.h"
#include "list_walk.h"
#include "said.h"

#define HEAD		0xffffffff82000000ull
#define NODE(i)		(0xffff888000100000ull + (uint64_t)(i) * 0x100)
#define NEXT_OFF	0x10	/* a chain's next pointer within its node */
#define NR		5

struct env {
	struct ks_fake *f;
	struct ks_target t;
	uint64_t got[64];
	size_t nr_got;
};

static int record(void *arg, uint64_t node)
{
	struct env *e = arg;

	if (e->nr_got < sizeof(e->got) / sizeof(e->got[0]))
		e->got[e->nr_got++] = node;
	return 0;
}

/* head -> NODE(0) -> ... -> NODE(NR - 1) -> head, and a chain beside it. */
static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->f = ks_fake_create();
	assert_int_equal(ks_fake_add_memory(e->f, HEAD, NULL, 16), 0);
	assert_int_equal(ks_fake_add_memory(e->f, NODE(0), NULL, NR * 0x100), 0);
	ks_fake_write_u64(e->f, HEAD, NODE(0));
	for (int i = 0; i < NR; i++) {
		ks_fake_write_u64(e->f, NODE(i), i + 1 < NR ? NODE(i + 1) : HEAD);
		ks_fake_write_u64(e->f, NODE(i) + NEXT_OFF,
				  i + 1 < NR ? NODE(i + 1) : 0);
	}
	ks_fake_target(e->f, &e->t);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	ks_fake_destroy(e->f);
	free(e);
	return 0;
}

static struct ks_list_state walk(struct env *e, size_t max)
{
	struct ks_list_state w = { .t = &e->t, .max = max };

	e->nr_got = 0;
	assert_int_equal(ks_list_for_each(&w, HEAD, record, e), 0);
	return w;
}

static void expect_text(const struct ks_list_state *w, const char *part)
{
	struct said d = { "", 0 };

	ks_list_stop_say(&SAID_TO(&d), w, "the list");
	assert_int_equal(d.calls, 1);
	if (!strstr(d.text, part))
		fail_msg("\"%s\" not in \"%s\"", part, d.text);
}

static void test_whole(void **state)
{
	struct env *e = *state;
	struct ks_list_state w = walk(e, 100);
	struct said d = { "", 0 };

	assert_int_equal(w.stop, KS_LIST_END);
	assert_int_equal(w.count, NR);
	assert_int_equal(e->nr_got, NR);
	for (int i = 0; i < NR; i++)
		assert_int_equal(e->got[i], NODE(i));
	ks_list_stop_say(&SAID_TO(&d), &w, "the list");
	assert_int_equal(d.calls, 0);
}

static void test_loop(void **state)
{
	struct env *e = *state;
	struct ks_list_state w;

	/* the last node points back at the second: each node once */
	ks_fake_write_u64(e->f, NODE(NR - 1), NODE(1));
	w = walk(e, 100);
	assert_int_equal(w.stop, KS_LIST_LOOP);
	assert_int_equal(w.count, NR);
	assert_int_equal(w.bad, NODE(1));
	expect_text(&w, "the list loops at 0xffff888000100100 after 5 entries");
	/* a node that is its own next: once */
	ks_fake_write_u64(e->f, NODE(0), NODE(0));
	w = walk(e, 100);
	assert_int_equal(w.stop, KS_LIST_LOOP);
	assert_int_equal(w.count, 1);
}

static void test_too_long(void **state)
{
	struct env *e = *state;
	struct ks_list_state w = walk(e, 3);

	assert_int_equal(w.stop, KS_LIST_LONG);
	assert_int_equal(w.count, 3);
	expect_text(&w, "has more than 3 entries");
}

static void test_broken(void **state)
{
	struct env *e = *state;
	struct ks_list_state w;

	/* a link into memory the image does not have */
	ks_fake_write_u64(e->f, NODE(2), 0xffff888077770000ull);
	w = walk(e, 100);
	assert_int_equal(w.stop, KS_LIST_UNREADABLE);
	/* the node at the bad link is still handed over: fn reads it */
	assert_int_equal(w.count, 4);
	assert_int_equal(w.last, 0xffff888077770000ull);
	expect_text(&w, "its link at 0xffff888077770000 cannot be read");
	/* NULL and a poison value are no kernel nodes */
	ks_fake_write_u64(e->f, NODE(2), 0);
	w = walk(e, 100);
	assert_int_equal(w.stop, KS_LIST_BAD_LINK);
	assert_int_equal(w.count, 3);
	assert_int_equal(w.last, NODE(2));
	expect_text(&w, "breaks off after 0xffff888000100200: its link 0 is not");
	ks_fake_write_u64(e->f, NODE(2), 0xdead000000000100ull);
	w = walk(e, 100);
	assert_int_equal(w.stop, KS_LIST_BAD_LINK);
	/* an unreadable head */
	w = (struct ks_list_state){ .t = &e->t, .max = 10 };
	assert_int_equal(ks_list_for_each(&w, 0xffffffff8f000000ull, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_UNREADABLE);
	assert_int_equal(w.count, 0);
}

static int fail_third(void *arg, uint64_t node)
{
	struct env *e = arg;

	(void)node;
	return ++e->nr_got == 3 ? -ENOMEM : 0;
}

static void test_fn_error(void **state)
{
	struct env *e = *state;
	struct ks_list_state w = { .t = &e->t, .max = 100 };

	assert_int_equal(ks_list_for_each(&w, HEAD, fail_third, e), -ENOMEM);
	assert_int_equal(w.count, 2);
}

static void test_shared_seen(void **state)
{
	struct env *e = *state;
	struct ks_seen seen = { 0 };
	struct ks_list_state w = { .t = &e->t, .max = 100, .seen = &seen };

	/* a node a second list shares with the first is a loop */
	assert_int_equal(ks_list_for_each(&w, HEAD, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_END);
	assert_int_equal(ks_list_for_each(&w, HEAD, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_LOOP);
	assert_int_equal(w.count, 0);
	ks_seen_release(&seen);
}

static void test_chain(void **state)
{
	struct env *e = *state;
	struct ks_list_state w = { .t = &e->t, .max = 100 };

	assert_int_equal(ks_chain_for_each(&w, NODE(0), NEXT_OFF, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_END);
	assert_int_equal(e->nr_got, NR);
	/* empty */
	assert_int_equal(ks_chain_for_each(&w, 0, NEXT_OFF, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_END);
	assert_int_equal(w.count, 0);
	/* the last one's next is the first */
	ks_fake_write_u64(e->f, NODE(NR - 1) + NEXT_OFF, NODE(0));
	e->nr_got = 0;
	assert_int_equal(ks_chain_for_each(&w, NODE(0), NEXT_OFF, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_LOOP);
	assert_int_equal(e->nr_got, NR);
	/* itself */
	ks_fake_write_u64(e->f, NODE(0) + NEXT_OFF, NODE(0));
	assert_int_equal(ks_chain_for_each(&w, NODE(0), NEXT_OFF, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_LOOP);
	assert_int_equal(w.count, 1);
}

static int record_rev(uint64_t node, void *arg)
{
	return record(arg, node);
}

static int stop_at_third(uint64_t node, void *arg)
{
	struct env *e = arg;

	record(e, node);
	return e->nr_got == 3 ? 7 : 0;
}

/*
 * ks_list_walk() (kernel_list.h, the symbol walkers' interface) is the
 * same walk: a loop gives each node to fn once, then -ELOOP.
 */
static void test_errno_interface(void **state)
{
	struct env *e = *state;

	e->nr_got = 0;
	assert_int_equal(ks_list_walk(&e->t, HEAD, 100, record_rev, e), 0);
	assert_int_equal(e->nr_got, NR);
	e->nr_got = 0;
	assert_int_equal(ks_list_walk(&e->t, HEAD, 100, stop_at_third, e), 7);
	assert_int_equal(e->nr_got, 3);
	e->nr_got = 0;
	assert_int_equal(ks_list_walk(&e->t, HEAD, 3, record_rev, e), -ELOOP);
	ks_fake_write_u64(e->f, NODE(NR - 1), NODE(1));
	e->nr_got = 0;
	assert_int_equal(ks_list_walk(&e->t, HEAD, 100, record_rev, e), -ELOOP);
	assert_int_equal(e->nr_got, NR);
	for (int i = 0; i < NR; i++)
		assert_int_equal(e->got[i], NODE(i));
	ks_fake_write_u64(e->f, NODE(2), 0);
	assert_int_equal(ks_list_walk(&e->t, HEAD, 100, record_rev, e), -EFAULT);
}

/* A million-node loop is found in linear time: the set is a hash. */
static void test_long_loop_is_fast(void **state)
{
	enum { N = 1 << 20 };
	struct ks_fake *f = ks_fake_create();
	uint64_t base = 0xffff888100000000ull, *mem = malloc(N * 8ull);
	struct ks_target t;
	struct ks_list_state w = { .t = &t, .max = 4u << 20 };
	struct env *e = calloc(1, sizeof(*e));

	(void)state;
	assert_non_null(mem);
	assert_non_null(e);
	for (size_t i = 0; i < N; i++)
		mem[i] = base + ((i + 1) % N) * 8;
	assert_int_equal(ks_fake_add_memory(f, base, mem, N * 8ull), 0);
	assert_int_equal(ks_fake_add_memory(f, HEAD, &base, 8), 0);
	ks_fake_target(f, &t);
	assert_int_equal(ks_list_for_each(&w, HEAD, record, e), 0);
	assert_int_equal(w.stop, KS_LIST_LOOP);
	assert_int_equal(w.count, N);
	free(e);
	free(mem);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_broken, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fn_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_seen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errno_interface, setup, teardown),
		cmocka_unit_test(test_long_loop_is_fast),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

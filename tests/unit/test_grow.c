// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The growable array every list in kstack uses (shared/core/grow.c): it grows
 * by doubling, never shrinks, and refuses a count whose byte size would
 * overflow instead of allocating a wrapped, too-small array.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "grow.h"

static void grows_by_doubling(void **state)
{
	size_t cap = 0;
	int *v = NULL, *n;

	(void)state;
	for (size_t i = 0; i < 100; i++) {
		n = ks_grow(v, &cap, i + 1, sizeof(*v));
		assert_non_null(n);
		v = n;
		v[i] = (int)i;
	}
	assert_int_equal(cap, 128);
	for (size_t i = 0; i < 100; i++)
		assert_int_equal(v[i], (int)i);
	/* enough room already: same array, same capacity */
	assert_ptr_equal(ks_grow(v, &cap, 50, sizeof(*v)), v);
	assert_int_equal(cap, 128);
	free(v);
}

static void starts_at_min_cap(void **state)
{
	size_t cap = 0;
	char *v;

	(void)state;
	v = ks_grow_min(NULL, &cap, 1, 1, 4096);
	assert_non_null(v);
	assert_int_equal(cap, 4096);
	v = ks_grow_min(v, &cap, 10000, 1, 4096);
	assert_non_null(v);
	assert_int_equal(cap, 16384);
	free(v);
}

static void refuses_overflow(void **state)
{
	size_t cap = 16;
	uint64_t *v = malloc(cap * sizeof(*v));

	(void)state;
	assert_non_null(v);
	/* SIZE_MAX / 4 elements of 8 bytes wrap to a small size */
	assert_null(ks_grow(v, &cap, SIZE_MAX / 4, sizeof(*v)));
	assert_int_equal(cap, 16);
	assert_null(ks_grow(v, &cap, SIZE_MAX, 1));
	assert_int_equal(cap, 16);
	/* the old array is still the caller's */
	v[15] = 1;
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grows_by_doubling),
		cmocka_unit_test(starts_at_min_cap),
		cmocka_unit_test(refuses_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

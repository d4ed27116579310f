// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --log of an image: its ring's records, then the lines left in the
 * printk_safe buffers, written as they are read.
 */
#include <errno.h>

#include "format_log.h"
#include "log_print.h"
#include "printk_ring.h"
#include "printk_safe.h"

struct log_out {
	FILE *out;
	bool json;
};

static int write_record(void *arg, const struct ks_log_record *rec)
{
	const struct log_out *lo = arg;

	ks_format_log_record(lo->out, lo->json, rec);
	/* a closed pipe (kstack --log | head) ends the walk */
	return ferror(lo->out) ? -EIO : 0;
}

int ks_log_print(const struct ks_target *t, FILE *out, bool json,
		 const struct ks_reporter *rep)
{
	struct log_out lo = { out, json };
	struct ks_log_trouble tr;
	int ret;

	ret = ks_printk_ring_walk(t, write_record, &lo, &tr, rep);
	/* then what NMIs printed and no irq_work flushed, as crash's log */
	if (!ret)
		ret = ks_printk_safe_walk(t, write_record, &lo, rep);
	if (ret)
		return ret;
	ks_format_log_trouble(out, json, &tr);
	return ferror(out) ? -EIO : 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "bg_logfile.h"
#include "bg_out.h"

int ks_logfile_init(struct ks_logfile *lf, const struct ks_rotate *samples,
		    bool no_rotation)
{
	int ret;

	memset(lf, 0, sizeof(*lf));
	lf->rot = *samples;
	lf->rot.name = KS_LOGFILE_NAME;
	lf->no_rotation = no_rotation;
	ret = ks_rotate_recover(&lf->rot, NULL);
	if (ret || no_rotation)
		return ret;
	/* a new run starts a new log, as it starts a new sample file */
	ret = ks_rotate(&lf->rot, true, NULL);
	return ret < 0 ? ret : 0;
}

void ks_logfile_sink(enum ks_log_level level, const char *msg,
		     const char *line, size_t len, void *ctx)
{
	struct ks_logfile *lf = ctx;

	(void)level;
	(void)msg;
	if (!lf->no_rotation)
		ks_rotate(&lf->rot, false, NULL);
	/* nowhere left to say it: kept for the run's last line */
	lf->err = ks_bg_append(lf->rot.dirfd, lf->rot.name, line, len);
}

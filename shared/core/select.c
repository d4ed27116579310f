// SPDX-License-Identifier: GPL-2.0-or-later
#include "select.h"

bool ks_select_pids_only(const struct ks_options *opts)
{
	return opts->nr_pids && !opts->all && !opts->states && !opts->comm;
}

bool ks_select_match(const struct ks_options *opts, int32_t pid, char state)
{
	if (opts->all)
		return true;
	if (state >= 'A' && state <= 'z' && (opts->states & KS_ST_BIT(state)))
		return true;
	for (size_t i = 0; i < opts->nr_pids; i++)
		if (opts->pids[i] == pid)
			return true;
	return false;
}

bool ks_select_comm(const struct ks_options *opts, const char *comm)
{
	return opts->comm && !regexec(&opts->comm_re, comm, 0, NULL, 0);
}

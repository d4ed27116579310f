// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "output_file.h"

int ks_output_file_write(const char *path, const struct ks_sample *s,
			 const struct ks_options *opts)
{
	size_t len = strlen(path) + 16;
	char *tmp = malloc(len);
	FILE *f = NULL;
	int fd, ret;

	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, len, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out_unlink;
	}
	ret = ks_format_sample(f, s, opts);
	if (!ret && (fflush(f) || fsync(fileno(f))))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		goto out_unlink;
	if (rename(tmp, path)) {
		ret = -errno;
		goto out_unlink;
	}
	goto out;
out_unlink:
	unlink(tmp);
out:
	free(tmp);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a dump out of the page cache: three reader threads fetch the
 * file around the pages the walk touches, ahead of it.
 *
 * Why: libkdumpfile maps the file, and each fault on a page not in the
 * page cache reads read_ahead_kb around it (8 MiB on this project's
 * machines) while the walk waits, one fault at a time.  The task_structs
 * and stacks of 100,000 threads lie over ~3 GiB of the file, the slab's
 * random free lists scatter them, and the walk follows a linked list, so
 * it meets the region's 400 chunks in random order and waits for each:
 * 3.1 s cold against 0.9 s warm.  A disk reads several streams faster
 * than one (2 streams: 3 GiB in 1.3-1.9 s here, one: 2.4-2.9 s).  The
 * pages a walk needs are dense where they are (4 KiB in every 10), so
 * the chunks next to one it touched are the ones it will touch next: the
 * readers fetch those while the walk goes on.  Reading exactly the pages
 * would be 130,000 small reads, which this disk does at 17,000 a second.
 *
 * The readers only warm the page cache: what the walk reads, and so what
 * kstack prints, does not depend on them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump_prefetch.h"
#include "elf_loads.h"

#define CHUNK_SHIFT	23	/* 8 MiB: the read-around the walk's faults get */
#define RADIUS		2	/* chunks each side of one the walk touched */
#define NR_READERS	3

#define QUEUED		1	/* a reader has it or will */
#define TOUCHED		2	/* the walk read it: its neighbours are asked */

struct ks_dump_prefetch {
	int fd;
	uint64_t file_size;
	struct ks_elf_loads loads;
	/* the walk's thread only */
	uint8_t *asked;			/* by chunk: QUEUED, TOUCHED */
	size_t nr_chunks;
	uint64_t last_pchunk;		/* paddr >> CHUNK_SHIFT of the last note */
	/* under lock */
	pthread_mutex_t lock;
	pthread_cond_t more;
	uint32_t *queue;		/* each chunk at most once: nr_chunks */
	size_t head, tail;
	bool stop;
	pthread_t readers[NR_READERS];
	int nr_readers;
};

static void fetch(struct ks_dump_prefetch *pf, uint32_t chunk)
{
	uint64_t off = (uint64_t)chunk << CHUNK_SHIFT;
	uint64_t len = pf->file_size - off;
	char last;

	if (len > 1ull << CHUNK_SHIFT)
		len = 1ull << CHUNK_SHIFT;
	posix_fadvise(pf->fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
	/*
	 * WILLNEED only starts the reads: wait for the chunk's last page,
	 * so that each reader has one chunk in flight and the walk's own
	 * faults do not queue behind the whole list.
	 */
	if (pread(pf->fd, &last, 1, (off_t)(off + len - 1)) < 0)
		return;		/* the walk's own read says what is wrong */
}

static void *reader(void *arg)
{
	struct ks_dump_prefetch *pf = arg;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		uint32_t chunk;

		while (pf->head == pf->tail && !pf->stop)
			pthread_cond_wait(&pf->more, &pf->lock);
		if (pf->stop)
			break;
		chunk = pf->queue[pf->head++];
		pthread_mutex_unlock(&pf->lock);
		fetch(pf, chunk);
		pthread_mutex_lock(&pf->lock);
	}
	pthread_mutex_unlock(&pf->lock);
	return NULL;
}

static void ask(struct ks_dump_prefetch *pf, size_t chunk)
{
	if (chunk >= pf->nr_chunks || pf->asked[chunk])
		return;
	pf->asked[chunk] = QUEUED;
	pf->queue[pf->tail++] = (uint32_t)chunk;
}

void ks_dump_prefetch_note(struct ks_dump_prefetch *pf, uint64_t paddr)
{
	uint64_t off;
	size_t chunk;

	if (!pf || paddr >> CHUNK_SHIFT == pf->last_pchunk)
		return;
	pf->last_pchunk = paddr >> CHUNK_SHIFT;
	if (ks_elf_loads_offset(&pf->loads, paddr, 1, &off))
		return;
	chunk = off >> CHUNK_SHIFT;
	if (pf->asked[chunk] & TOUCHED)
		return;
	/* the walk's own fault reads it, if no reader has */
	pf->asked[chunk] |= TOUCHED | QUEUED;
	pthread_mutex_lock(&pf->lock);
	for (size_t d = 1; d <= RADIUS; d++) {
		ask(pf, chunk + d);
		if (chunk >= d)
			ask(pf, chunk - d);
	}
	pthread_cond_broadcast(&pf->more);
	pthread_mutex_unlock(&pf->lock);
}

static void release(struct ks_dump_prefetch *pf)
{
	ks_elf_loads_release(&pf->loads);
	free(pf->asked);
	free(pf->queue);
	free(pf);
}

int ks_dump_prefetch_start(int fd, struct ks_dump_prefetch **pf_ret)
{
	struct ks_dump_prefetch *pf;
	struct stat sb;
	int ret;

	*pf_ret = NULL;
	if (fstat(fd, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode) || !sb.st_size)
		return -ENOEXEC;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	pf->fd = fd;
	pf->file_size = (uint64_t)sb.st_size;
	pf->last_pchunk = UINT64_MAX;
	pf->nr_chunks = (size_t)((pf->file_size - 1) >> CHUNK_SHIFT) + 1;
	ret = ks_elf_loads_read(fd, pf->file_size, &pf->loads);
	if (ret)
		goto fail;
	pf->asked = calloc(pf->nr_chunks, 1);
	pf->queue = calloc(pf->nr_chunks, sizeof(*pf->queue));
	if (!pf->asked || !pf->queue) {
		ret = -ENOMEM;
		goto fail;
	}
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->more, NULL);
	for (; pf->nr_readers < NR_READERS; pf->nr_readers++) {
		ret = -pthread_create(&pf->readers[pf->nr_readers], NULL,
				      reader, pf);
		if (ret)
			break;
	}
	if (!pf->nr_readers) {
		pthread_cond_destroy(&pf->more);
		pthread_mutex_destroy(&pf->lock);
		goto fail;
	}
	*pf_ret = pf;
	return 0;
fail:
	release(pf);
	return ret;
}

void ks_dump_prefetch_stop(struct ks_dump_prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_cond_broadcast(&pf->more);
	pthread_mutex_unlock(&pf->lock);
	for (int i = 0; i < pf->nr_readers; i++)
		pthread_join(pf->readers[i], NULL);
	pthread_cond_destroy(&pf->more);
	pthread_mutex_destroy(&pf->lock);
	release(pf);
}

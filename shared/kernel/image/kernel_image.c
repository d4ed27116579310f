// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each question goes to the first finder that has an answer: symbols
 * to the image's ordered list of finders (sym_finders.h: the .symtab or
 * kallsyms, then the chain that kallsyms_lookup() asks after vmlinux);
 * types to BTF, else to a reader that answers types itself (crash), with
 * the one type BTF lacks (thread_union) answered from the symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btf_scan.h"
#include "kernel_image.h"

#define BTF_MAX		(256u << 20)
/* _etext to _sinittext: read-only data, and .data too on x86-64 */
#define BTF_SCAN_MAX	(512ull << 20)

int ks_image_set_vmlinux(struct ks_image *im, struct ks_elf_symtab *syms)
{
	struct ks_sym_finder f = ks_finder_elf(syms);

	im->syms = syms;
	return ks_finders_add(&im->finders, &f);
}

/* im->kmem, just decoded, as the vmlinux symbol finder. */
static int add_kmem_finder(struct ks_image *im)
{
	struct ks_sym_finder f = ks_finder_kallsyms_mem(im->kmem);

	return ks_finders_add(&im->finders, &f);
}

int ks_image_load_kallsyms(struct ks_image *im, const struct ks_target *mem,
			   const struct ks_kallsyms_mem_addrs *a)
{
	int ret = ks_kallsyms_mem_load(mem, a, &im->kmem);

	return ret ? ret : add_kmem_finder(im);
}

int ks_image_find_kallsyms(struct ks_image *im, const struct ks_target *mem,
			   const struct ks_vmcoreinfo *vi,
			   enum ks_kallsyms_from from,
			   const struct ks_reporter *rep,
			   struct ks_kallsyms_scan *sc_ret)
{
	struct ks_kallsyms_mem_addrs a;
	int ret = -ENOENT;

	memset(sc_ret, 0, sizeof(*sc_ret));
	if (from == KS_KALLSYMS_LISTED_OR_SCAN) {
		ks_vmcoreinfo_kallsyms(vi, &a);
		ret = ks_image_load_kallsyms(im, mem, &a);
	}
	if (ret != -ENOENT)
		return ret;
	ret = ks_kallsyms_scan(mem, vi, rep, &im->kmem, sc_ret);
	if (ret)
		return ret;
	im->kmem_scanned = true;
	return add_kmem_finder(im);
}

/* What ks_btf_load() finds damaged, said of the blob's source. */
struct btf_said {
	const char *from;
	const struct ks_reporter *rep;
	bool said;
};

static void btf_say(void *arg, enum ks_say_level level, const char *text)
{
	struct btf_said *b = arg;

	ks_say(b->rep, level, "no usable BTF in %s: %s", b->from, text);
	b->said = true;
}

/* ks_btf_load() of one source: -EBADMSG once its damage is said. */
static int btf_load(struct ks_image *im, const void *data, size_t size,
		    const char *from, const struct ks_reporter *rep)
{
	struct btf_said b = { from, rep, false };
	const struct ks_reporter r = { .say = btf_say, .arg = &b };
	int ret = ks_btf_load(data, size, &im->btf, &r);

	return ret && b.said ? -EBADMSG : ret;
}

/* One candidate of the scan, loaded quietly: a wrong one is passed over. */
struct btf_try {
	struct ks_image *im;
	const struct ks_target *mem;
};

static int btf_try(void *arg, uint64_t addr, size_t size)
{
	struct btf_try *b = arg;
	void *buf = malloc(size);
	int ret = buf ? ks_read(b->mem, addr, buf, size) : -ENOMEM;

	if (!ret)
		ret = ks_btf_load(buf, size, &b->im->btf, NULL);
	free(buf);
	return ret;
}

/*
 * A kernel without CONFIG_KALLSYMS_ALL (Debian's arm64 ones) lists no
 * __start_BTF: the blob is found by its header in the read-only data,
 * between _etext and _sinittext, which kallsyms always lists.
 */
static int btf_scan_memory(struct ks_image *im, const struct ks_target *mem)
{
	struct btf_try b = { im, mem };
	uint64_t etext, sinittext;

	if (ks_image_symbol(im, "_etext", &etext) ||
	    ks_image_symbol(im, "_sinittext", &sinittext) ||
	    sinittext <= etext || sinittext - etext > BTF_SCAN_MAX)
		return -ENOENT;
	im->btf_from = "the kernel's memory";
	return ks_btf_scan(mem, etext, sinittext, BTF_MAX, btf_try, &b);
}

static int btf_from_memory(struct ks_image *im, const struct ks_target *mem,
			   const struct ks_reporter *rep)
{
	uint64_t start, stop;
	void *buf;
	int ret;

	if (ks_image_symbol(im, "__start_BTF", &start) ||
	    ks_image_symbol(im, "__stop_BTF", &stop))
		return btf_scan_memory(im, mem);
	if (stop <= start || stop - start > BTF_MAX)
		return -ENOENT;
	buf = malloc(stop - start);
	if (!buf)
		return -ENOMEM;
	ret = ks_read(mem, start, buf, stop - start);
	if (!ret)
		ret = btf_load(im, buf, stop - start, "the kernel's memory",
			       rep);
	free(buf);
	im->btf_from = "the kernel's memory";
	return ret;
}

/* A regular file only: a FIFO or a device must not block or be drained. */
static int btf_from_file(struct ks_image *im, const char *path,
			 const struct ks_reporter *rep)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	void *buf = NULL;
	ssize_t n = -1;
	int ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    st.st_size > BTF_MAX) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size);
	if (buf)
		n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n != st.st_size)
		ret = buf ? -EIO : -ENOMEM;
	else
		ret = btf_load(im, buf, (size_t)n, path, rep);
	free(buf);
	im->btf_from = path;
	return ret;
}

int ks_image_vmlinux_btf(const struct ks_elf_symtab *vmlinux,
			 struct ks_btf **btf_ret)
{
	const void *sec;
	size_t size;

	sec = ks_elf_section(vmlinux, ".BTF", &size);
	if (!sec)
		return -ENOENT;
	return ks_btf_load(sec, size, btf_ret, NULL);
}

int ks_image_load_btf(struct ks_image *im, const struct ks_target *mem,
		      const char *btf_path, const struct ks_reporter *rep)
{
	const void *sec;
	size_t size;

	if (im->syms && (sec = ks_elf_section(im->syms, ".BTF", &size))) {
		im->btf_from = "the vmlinux";
		return btf_load(im, sec, size, im->btf_from, rep);
	}
	if (btf_path && !btf_from_file(im, btf_path, rep))
		return 0;
	return btf_from_memory(im, mem, rep);
}

int ks_image_load_chain(struct ks_image *im, const struct ks_target *t)
{
	struct ks_sym_finder f;
	int ret = ks_kallsyms_load(t, &im->ksyms);

	if (ret)
		return ret;
	f = ks_finder_chain(im->ksyms);
	return ks_finders_add(&im->finders, &f);
}

int ks_image_add_data_finder(struct ks_image *im, const struct ks_reporter *rep)
{
	struct ks_sym_finder f;
	struct ks_target t;

	if (im->syms || !im->kmem || ks_kallsyms_mem_has_data(im->kmem) ||
	    im->data || !im->mem)
		return 0;
	im->data = malloc(sizeof(*im->data));
	if (!im->data)
		return -ENOMEM;
	ks_image_target(im, im->mem, &t);
	ks_data_finder_init(im->data, &t, rep);
	f = ks_finder_data(im->data);
	return ks_finders_add(&im->finders, &f);
}

void ks_image_release(struct ks_image *im)
{
	free(im->data);
	ks_elf_symtab_free(im->syms);
	ks_kallsyms_mem_free(im->kmem);
	ks_btf_free(im->btf);
	ks_kallsyms_free(im->ksyms);
	memset(im, 0, sizeof(*im));
}

int ks_image_symbol(const struct ks_image *im, const char *name,
		    uint64_t *addr_ret)
{
	return ks_finders_symbol(&im->finders, name, addr_ret);
}

int ks_image_lookup(const struct ks_image *im, uint64_t addr,
		    struct ks_sym *sym_ret)
{
	return ks_finders_lookup(&im->finders, addr, sym_ret);
}

/*
 * Types from the BTF; without one, from the reader where it answers types
 * itself (crash's gdb, from the DWARF), else none.
 */
static const struct ks_target_ops *reader_types(const struct ks_image *im)
{
	return im->btf || !im->mem ? NULL : im->mem->ops;
}

long ks_image_member_offset(const struct ks_image *im, const char *type,
			    const char *member)
{
	const struct ks_target_ops *r = reader_types(im);

	if (im->btf)
		return ks_btf_member_offset(im->btf, type, member);
	if (r && r->member_offset)
		return r->member_offset(im->mem->ctx, type, member);
	return -ENOENT;
}

/*
 * pahole leaves union thread_union out of BTF (no variable has that type
 * in the BTF sense), but THREAD_SIZE is what callers want from it: the
 * linker script places __end_init_task exactly THREAD_SIZE after
 * __start_init_task, so crash's DWARF answer is had from the symbols.
 */
static long thread_union_size(const struct ks_image *im)
{
	uint64_t start, end;

	if (ks_image_symbol(im, "__start_init_task", &start) ||
	    ks_image_symbol(im, "__end_init_task", &end) ||
	    end <= start || end - start > (1u << 20))
		return -ENOENT;
	return (long)(end - start);
}

long ks_image_type_size(const struct ks_image *im, const char *type)
{
	const struct ks_target_ops *r = reader_types(im);
	long size = -ENOENT;

	if (im->btf)
		size = ks_btf_type_size(im->btf, type);
	else if (r && r->type_size)
		size = r->type_size(im->mem->ctx, type);
	if (size == -ENOENT && (!strcmp(type, "thread_union") ||
				!strcmp(type, "union thread_union")))
		return thread_union_size(im);
	return size;
}

long ks_image_member_size(const struct ks_image *im, const char *type,
			  const char *member)
{
	const struct ks_target_ops *r = reader_types(im);

	if (im->btf)
		return ks_btf_member_size(im->btf, type, member);
	if (r && r->member_size)
		return r->member_size(im->mem->ctx, type, member);
	return -ENOENT;
}

int ks_image_enum_value(const struct ks_image *im, const char *type,
			const char *name, long long *val_ret)
{
	const struct ks_target_ops *r = reader_types(im);

	if (im->btf)
		return ks_btf_enum_value(im->btf, type, name, val_ret);
	if (r && r->enum_value)
		return r->enum_value(im->mem->ctx, type, name, val_ret);
	return -ENOENT;
}

/* ---- the image's target: ctx is the struct ks_image itself ---- */

static const struct ks_target_ops image_ops;

static int im_read(void *ctx, uint64_t kaddr, void *buf, size_t len)
{
	const struct ks_image *im = ctx;

	return ks_read(im->mem, kaddr, buf, len);
}

static int im_read_phys(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	const struct ks_image *im = ctx;

	if (!im->mem->ops->read_phys)
		return -ENOSYS;
	return im->mem->ops->read_phys(im->mem->ctx, paddr, buf, len);
}

/*
 * A dump's and /proc/kcore's user memory is the same walk of the task's
 * tables over read_phys: the image does it for both.
 */
static int im_read_user(void *ctx, uint64_t task, uint64_t uaddr, void *buf,
			size_t len)
{
	struct ks_image *im = ctx;
	/* the page walk asks the types where mm and pgd are: the whole target */
	const struct ks_target t = { &image_ops, im, im->mem->arch };

	if (im->mem->ops->read_user)
		return im->mem->ops->read_user(im->mem->ctx, task, uaddr, buf,
					       len);
	if (!im->uw)
		return -ENOSYS;
	return ks_page_read_user(&t, im->uw, task, uaddr, buf, len);
}

/* A source without registers (/proc/kcore) has no cpu_regs op. */
static int im_cpu_regs(void *ctx, int cpu, struct ks_regs *regs_ret)
{
	const struct ks_image *im = ctx;

	if (!im->mem->ops->cpu_regs)
		return -ENOENT;
	return im->mem->ops->cpu_regs(im->mem->ctx, cpu, regs_ret);
}

static int im_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	const struct ks_image *im = ctx;

	if (!im->mem->ops->vmcoreinfo)
		return -ENOENT;
	return im->mem->ops->vmcoreinfo(im->mem->ctx, key, buf, len);
}

static int im_symbol(void *ctx, const char *name, uint64_t *addr_ret)
{
	return ks_image_symbol(ctx, name, addr_ret);
}

static int im_lookup(void *ctx, uint64_t addr, struct ks_sym *sym_ret)
{
	return ks_image_lookup(ctx, addr, sym_ret);
}

static long im_member_offset(void *ctx, const char *type, const char *member)
{
	return ks_image_member_offset(ctx, type, member);
}

static long im_type_size(void *ctx, const char *type)
{
	return ks_image_type_size(ctx, type);
}

static long im_member_size(void *ctx, const char *type, const char *member)
{
	return ks_image_member_size(ctx, type, member);
}

static int im_enum_value(void *ctx, const char *type, const char *name,
			 long long *val_ret)
{
	return ks_image_enum_value(ctx, type, name, val_ret);
}

static const struct ks_target_ops image_ops = {
	.read = im_read,
	.read_phys = im_read_phys,
	.read_user = im_read_user,
	.symbol = im_symbol,
	.lookup = im_lookup,
	.member_offset = im_member_offset,
	.type_size = im_type_size,
	.member_size = im_member_size,
	.enum_value = im_enum_value,
	.cpu_regs = im_cpu_regs,
	.vmcoreinfo = im_vmcoreinfo,
};

void ks_image_target(struct ks_image *im, const struct ks_target *mem,
		     struct ks_target *t_ret)
{
	im->mem = mem;
	t_ret->ops = &image_ops;
	t_ret->ctx = im;
	t_ret->arch = mem->arch;
}

size_t ks_image_nr_symbols(const struct ks_image *im)
{
	if (im->syms)
		return ks_elf_symtab_count(im->syms);
	return im->kmem ? ks_kallsyms_mem_count(im->kmem) : 0;
}

const char *ks_image_symbols_from(const struct ks_image *im)
{
	if (im->syms)
		return "the vmlinux's .symtab";
	if (im->data)
		return im->kmem_scanned ? "kallsyms in memory, found by their "
		       "shape, text only: data found in the dump" :
		       "kallsyms in memory, text only: data found in the dump";
	return im->kmem_scanned ? "kallsyms in memory, found by their shape" :
				  "kallsyms in memory";
}

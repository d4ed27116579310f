// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A module debug file's symbols, as -l needs them: sorted by name, each
 * sized as the kernel's find_kallsyms_symbol() sizes it for %pB (up to
 * the next symbol), found again from the name+off/size a frame carries,
 * and the release the file was built for (its vermagic).
 */
#ifndef KS_NO_LIBDW
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines_obj.h"

static int cmp_msym(const void *a, const void *b)
{
	const struct ks_mod_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_msym_place(const void *a, const void *b)
{
	const struct ks_mod_sym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

static int cmp_msym_name(const void *key, const void *elem)
{
	const struct ks_mod_sym *s = elem;

	return strcmp(key, s->name);
}

/* is_mapping_symbol(): names kallsyms never prints nor sizes by */
static bool mapping_symbol(const char *name)
{
	return name[0] == '$' || (name[0] == '.' && name[1] == 'L') ||
	       (name[0] == 'L' && name[1] == '0');
}

static uint64_t section_size(Elf *elf, uint32_t shndx)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;

	return scn && gelf_getshdr(scn, &shdr) ? shdr.sh_size : 0;
}

/*
 * find_kallsyms_symbol()'s size of each symbol: up to the next one of its
 * section; the last one's runs at least to the section's end.
 */
static void size_module_syms(struct ks_lines_obj *o)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(o->mod, &bias);
	struct ks_mod_sym *s = o->msyms, *next;
	size_t i;

	qsort(s, o->nr_msyms, sizeof(*s), cmp_msym_place);
	for (i = 0; i < o->nr_msyms; i++) {
		next = i + 1 < o->nr_msyms ? &s[i + 1] : NULL;
		if (next && next->shndx == s[i].shndx) {
			s[i].ksize = next->value - s[i].value;
			s[i].ksize_exact = true;
			continue;
		}
		s[i].ksize = section_size(elf, s[i].shndx);
		s[i].ksize = s[i].ksize > s[i].value ? s[i].ksize - s[i].value : 0;
	}
}

int ks_lines_index_module_syms(struct ks_lines_obj *o)
{
	int n = dwfl_module_getsymtab(o->mod), i;
	size_t kept = 0, j;

	if (n <= 0)
		return -ENODATA;
	o->msyms = calloc((size_t)n, sizeof(*o->msyms));
	if (!o->msyms)
		return -ENOMEM;
	/* every symbol kallsyms keeps, for the sizes it prints ... */
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(o->mod, i, &sym, &addr,
							   &shndx, NULL, NULL);
		int type;

		if (!name || !*name || mapping_symbol(name) ||
		    shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;
		o->msyms[o->nr_msyms++] = (struct ks_mod_sym){
			.name = name, .addr = addr, .size = sym.st_size,
			.shndx = shndx, .value = sym.st_value,
			.func = type == STT_FUNC,
			.code = type == STT_FUNC || type == STT_NOTYPE,
		};
	}
	size_module_syms(o);
	/* ... of which frames name code */
	for (j = 0; j < o->nr_msyms; j++)
		if (o->msyms[j].code)
			o->msyms[kept++] = o->msyms[j];
	o->nr_msyms = kept;
	qsort(o->msyms, o->nr_msyms, sizeof(*o->msyms), cmp_msym);
	return 0;
}

/* The first of the module's symbols called name (msyms is sorted by name). */
static const struct ks_mod_sym *first_msym(const struct ks_lines_obj *o,
					   const char *name)
{
	const struct ks_mod_sym *hit;

	hit = o->nr_msyms ? bsearch(name, o->msyms, o->nr_msyms,
				    sizeof(*o->msyms), cmp_msym_name) : NULL;
	while (hit && hit > o->msyms && !strcmp(hit[-1].name, name))
		hit--;
	return hit;
}

static bool same_name(const struct ks_lines_obj *o, const struct ks_mod_sym *s,
		      const char *name)
{
	return s < o->msyms + o->nr_msyms && !strcmp(s->name, name);
}

/* Could kallsyms have printed s with size? */
static bool size_ok(const struct ks_mod_sym *s, uint64_t size)
{
	return s->ksize_exact ? s->ksize == size : size >= s->ksize;
}

int ks_lines_module_addr(const struct ks_lines_obj *o, const char *name,
			 uint64_t off, uint64_t size, uint64_t *addr_ret)
{
	const struct ks_mod_sym *pick = NULL, *s = first_msym(o, name);

	for (; s && same_name(o, s, name); s++) {
		if (!s->func)
			continue;
		if (size && size_ok(s, size)) {
			pick = s;
			break;
		}
		if (!pick && off <= s->size)
			pick = s;
	}
	s = first_msym(o, name);
	if (!pick && !s)
		return -ENOENT;
	*addr_ret = (pick ? pick : s)->addr + off;
	return 0;
}

int ks_lines_module_size(const struct ks_lines_obj *o, const char *name,
			 uint64_t size, uint64_t *have)
{
	const struct ks_mod_sym *s = first_msym(o, name);

	if (!s)
		return -ENOENT;
	*have = s->ksize;
	for (; same_name(o, s, name); s++)
		if (size_ok(s, size))
			return 0;
	return -ESRCH;
}

void ks_lines_module_release(const struct ks_lines_obj *o, char *out,
			     size_t len)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(o->mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr shdr;
	Elf_Data *data;
	const char *p, *end, *name;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		name = gelf_getshdr(scn, &shdr) ?
		       elf_strptr(elf, shstrndx, shdr.sh_name) : NULL;
		if (name && !strcmp(name, ".modinfo"))
			break;
	}
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !data->d_buf)
		return;
	/* NUL-separated "key=value" strings; vermagic starts with the release */
	for (p = data->d_buf, end = p + data->d_size; p < end;
	     p += strnlen(p, (size_t)(end - p)) + 1) {
		size_t n, w;

		if ((size_t)(end - p) <= 9 || strncmp(p, "vermagic=", 9))
			continue;
		n = strnlen(p + 9, (size_t)(end - p) - 9);
		for (w = 0; w < n && p[9 + w] != ' '; w++)
			;
		snprintf(out, len, "%.*s", (int)w, p + 9);
		return;
	}
}
#endif /* KS_NO_LIBDW */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file:line of kernel frames, from the debug vmlinux and the modules'
 * debug files (DWARF, read with elfutils' libdw).  A frame comes as the
 * text kallsyms printed for it, name+0xoff/0xsize and the module, so that
 * a live /proc stack, a vmcore's stack and an old log resolve alike and
 * no running kernel is needed.
 */
#ifndef KS_LINES_H
#define KS_LINES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"

struct ks_lines;

/* One place in the source: func is NULL where DWARF names no function. */
struct ks_line_loc {
	const char *func;
	const char *file;	/* relative to the kernel's source tree */
	int line;
};

/*
 * What addr2line -f -i prints for an address: loc[0] where the code is
 * (in the innermost inlined function), then each inlined function's call
 * site in its caller; loc[n - 1] is in the function the frame names.
 */
struct ks_line_chain {
	size_t n;		/* 0: no line known */
	struct ks_line_loc loc[];
};

struct ks_elf_symtab;

/*
 * The build id the kernel being read shows for vmlinux (module NULL) or a
 * module, into id (cap bytes); 0, or a negative errno when there is none
 * to check against.  The live tool's reads /sys/kernel/notes and
 * /sys/module/NAME/notes: the core knows no /sys.
 */
typedef int (*ks_build_id_fn)(void *arg, const char *module, uint8_t *id,
			      size_t cap, size_t *len);

struct ks_lines_config {
	const char *vmlinux;	/* the debug vmlinux, NULL: find the release's */
	/*
	 * the kernel's uname -r, NULL: the vmlinux's; a vmlinux of another
	 * release decodes nothing, whatever its sizes
	 */
	const char *release;
	const char *debug_dir;	/* KSTACK_DEBUG_DIR, NULL: /usr/lib/debug */
	/* the running kernel's: a debug file of another build is refused */
	ks_build_id_fn build_id;
	void *build_id_arg;
	/*
	 * vmlinux's symbols when the caller has them already (--vmcore),
	 * with KASLR offset kaslr set; borrowed, NULL: loaded here.
	 */
	const struct ks_elf_symtab *syms;
	int64_t kaslr;
};

/* Nothing is read before the first frame; NULL only without memory. */
struct ks_lines *ks_lines_open(const struct ks_lines_config *cfg);
void ks_lines_close(struct ks_lines *l);

/*
 * The chain for the frame kallsyms printed as name+off/size [module]
 * (module NULL for vmlinux, size 0 when not printed).  Never NULL: an
 * empty chain when nothing is known (an offset at or past the size
 * included: damaged text), and the reason is kept for ks_lines_report().
 * The chain lives until the next call on l.
 */
const struct ks_line_chain *ks_lines_frame(struct ks_lines *l, const char *name,
					   uint64_t off, uint64_t size,
					   const char *module);

/*
 * The same for a vmlinux frame known by name and runtime address only
 * (crash's bt): the offset is the address modulo the KASLR alignment.
 */
const struct ks_line_chain *ks_lines_frame_at(struct ks_lines *l,
					      const char *name, uint64_t addr);

/*
 * Before any frame is decoded, every frame of the text is shown here:
 * one whose size is not that of the debug file's symbol of its name
 * proves the file is of another build, and then no frame of that file is
 * decoded (a size that matched elsewhere matched by chance).  The sizes
 * of the running kernel's or the dump's kallsyms are those its frames
 * carry.
 */
void ks_lines_judge(struct ks_lines *l, const char *name, uint64_t off,
		    uint64_t size, const char *module);

/* Was a debug file found to be of another build? */
bool ks_lines_foreign(const struct ks_lines *l);

/* Frames that got a line, and frames that did not. */
void ks_lines_counts(const struct ks_lines *l, size_t *found, size_t *missing);

/*
 * Through rep: one message naming the debug files that were missing,
 * one for each that was of another build, one for damaged frames.
 */
void ks_lines_report(const struct ks_lines *l, const struct ks_reporter *rep);

#endif /* KS_LINES_H */

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stack text with file:line, as the kernel's scripts/decode_stacktrace.sh
 * makes it, but keeping each line's own form so that kstack's text still
 * groups, and its JSON and folded views still see one frame per line.
 *
 * A frame is recognised in any of the texts kernel people paste:
 *   [<0>] vfs_read+0x95/0x196                   /proc/PID/stack, kstack
 *   [<ffffffff8123>] vfs_read+0x95/0x196 [mod]  old oopses
 *   [ 12.3] ? vfs_read+0x95/0x196               a dmesg Call Trace
 *   RIP: 0010:vfs_read+0x95/0x196               the oops' RIP line
 *    #3 [ffffc90000a3fd98] vfs_read at ffffffff8123a5c5    crash's bt
 * Only the symbol is used, never an address the running kernel would have
 * to explain: name+off/size goes through the vmlinux's symbol table (and
 * for bt, the address modulo the KASLR step gives the offset).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode_text.h"

#define NAME_MAX_LEN	512	/* KSYM_NAME_LEN */
#define MODULE_MAX_LEN	64

/* One frame found in a line: where its text is and what it names. */
struct frame {
	size_t name_start;	/* the prefix before it repeats on inlined lines */
	size_t end;		/* just after the frame ("/0x2e0", " [mod]", address) */
	char name[NAME_MAX_LEN];
	char module[MODULE_MAX_LEN];	/* "" for vmlinux */
	uint64_t off, size;
	bool at_addr;		/* crash's bt: name at ADDR */
	uint64_t addr;
};

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* "0x1f" at line[*i]: the value, and *i moved past it. */
static bool hex_at(const char *line, size_t len, size_t *i, bool prefix,
		   uint64_t *val)
{
	size_t j = *i, start;
	uint64_t v = 0;

	if (prefix) {
		if (j + 2 > len || line[j] != '0' || line[j + 1] != 'x')
			return false;
		j += 2;
	}
	for (start = j; j < len && isxdigit((unsigned char)line[j]) &&
	     j - start < 16; j++)
		v = v << 4 | (uint64_t)(isdigit((unsigned char)line[j]) ?
			line[j] - '0' : (tolower((unsigned char)line[j]) - 'a' + 10));
	if (j == start || (j < len && isxdigit((unsigned char)line[j])))
		return false;
	*i = j;
	*val = v;
	return true;
}

static bool copy_text(char *dst, size_t cap, const char *src, size_t n)
{
	if (!n || n >= cap)
		return false;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return true;
}

/* " [module]" or " [module buildid]" at line[*i]. */
static void module_at(const char *line, size_t len, size_t *i, char *module)
{
	size_t j = *i + 2, start = j;
	const char *close;

	module[0] = '\0';
	if (*i + 2 >= len || line[*i] != ' ' || line[*i + 1] != '[')
		return;
	close = memchr(line + start, ']', len - start);
	if (!close)
		return;
	while (j < (size_t)(close - line) && line[j] != ' ')
		j++;
	if (copy_text(module, MODULE_MAX_LEN, line + start, j - start))
		*i = (size_t)(close - line) + 1;
	else
		module[0] = '\0';
}

/* name+0xoff/0xsize anywhere in the line (the size may be missing). */
static bool find_sym_off(const char *line, size_t len, struct frame *f)
{
	const char *p = line;
	size_t i, start;

	while ((p = memmem(p, len - (size_t)(p - line), "+0x", 3))) {
		i = (size_t)(p - line);
		p += 3;
		for (start = i; start && name_char(line[start - 1]); start--)
			;
		if (start == i || !copy_text(f->name, sizeof(f->name),
					     line + start, i - start))
			continue;
		i++;
		if (!hex_at(line, len, &i, true, &f->off))
			continue;
		f->size = 0;
		if (i < len && line[i] == '/') {
			i++;
			if (!hex_at(line, len, &i, true, &f->size))
				continue;
		}
		if (i < len && name_char(line[i]))
			continue;
		f->name_start = start;
		module_at(line, len, &i, f->module);
		f->end = i;
		f->at_addr = false;
		return true;
	}
	return false;
}

/* past the bytes of set at line[i]; a NUL byte is in no set */
static size_t skip(const char *line, size_t len, size_t i, const char *set)
{
	while (i < len && line[i] && strchr(set, line[i]))
		i++;
	return i;
}

/* crash's bt: " #3 [ffffc90000a3fd98] vfs_read at ffffffff8123a5c5 [mod]" */
static bool find_bt(const char *line, size_t len, struct frame *f)
{
	uint64_t v;
	size_t i = skip(line, len, 0, " "), start;

	if (i >= len || line[i++] != '#')
		return false;
	start = i;
	i = skip(line, len, i, "0123456789");
	if (i == start || i + 2 >= len || line[i] != ' ' || line[i + 1] != '[')
		return false;
	i += 2;
	if (!hex_at(line, len, &i, false, &v) || i + 2 >= len ||
	    line[i] != ']' || line[i + 1] != ' ')
		return false;
	start = i += 2;
	while (i < len && line[i] != ' ')
		i++;
	if (!copy_text(f->name, sizeof(f->name), line + start, i - start) ||
	    i + 4 > len || memcmp(line + i, " at ", 4))
		return false;
	f->name_start = start;
	i += 4;
	if (!hex_at(line, len, &i, false, &f->addr))
		return false;
	module_at(line, len, &i, f->module);
	f->end = i;
	f->at_addr = true;
	return true;
}

/* " fs/read_write.c:468" after the frame: decoded already. */
static bool decoded(const char *line, size_t len, size_t end)
{
	size_t i = end + 1, colon = 0;

	if (end >= len || line[end] != ' ')
		return false;
	for (; i < len && line[i] != ' '; i++)
		if (line[i] == ':')
			colon = i;
	if (!colon || colon + 1 == i)
		return false;
	return skip(line, i, colon + 1, "0123456789") == i;
}

static const struct ks_line_chain *chain_of(struct ks_lines *l,
					    const struct frame *f)
{
	const char *module = f->module[0] ? f->module : NULL;

	if (f->at_addr)	/* bt gives no module base: vmlinux only */
		return module ? NULL : ks_lines_frame_at(l, f->name, f->addr);
	return ks_lines_frame(l, f->name, f->off, f->size, module);
}

static bool find_frame(const char *line, size_t len, struct frame *f)
{
	return find_bt(line, len, f) || find_sym_off(line, len, f);
}

void ks_decode_judge_line(struct ks_lines *l, const char *line, size_t len)
{
	struct frame f;

	/* bt prints no size: nothing to judge by */
	if (find_frame(line, len, &f) && !f.at_addr)
		ks_lines_judge(l, f.name, f.off, f.size,
			       f.module[0] ? f.module : NULL);
}

void ks_decode_line(struct ks_lines *l, const char *line, size_t len, FILE *out)
{
	const struct ks_line_chain *c = NULL;
	struct frame f;
	size_t i;

	if (find_frame(line, len, &f) && !decoded(line, len, f.end))
		c = chain_of(l, &f);
	if (!c || !c->n) {
		fwrite(line, 1, len, out);
		fputc('\n', out);
		return;
	}
	for (i = 0; i + 1 < c->n; i++) {
		fwrite(line, 1, f.name_start, out);
		fprintf(out, "%s (inlined) %s:%d\n",
			c->loc[i].func ? c->loc[i].func : "??", c->loc[i].file,
			c->loc[i].line);
	}
	fwrite(line, 1, f.end, out);
	fprintf(out, " %s:%d", c->loc[c->n - 1].file, c->loc[c->n - 1].line);
	fwrite(line + f.end, 1, len - f.end, out);
	fputc('\n', out);
}

/* Each line of text (a NUL-terminated string) to fn. */
static void each_line(const char *text, void (*fn)(struct ks_lines *l,
		      const char *line, size_t len, void *arg),
		      struct ks_lines *l, void *arg)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		fn(l, text, len, arg);
		text += len + (nl ? 1 : 0);
	}
}

static void judge_one(struct ks_lines *l, const char *line, size_t len,
		      void *arg)
{
	(void)arg;
	ks_decode_judge_line(l, line, len);
}

static void decode_one(struct ks_lines *l, const char *line, size_t len,
		       void *arg)
{
	ks_decode_line(l, line, len, arg);
}

static char *decode_judged(struct ks_lines *l, const char *text)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	if (!out)
		return NULL;
	each_line(text, decode_one, l, out);
	if (fclose(out)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *ks_decode_text(struct ks_lines *l, const char *text)
{
	each_line(text, judge_one, l, NULL);
	return decode_judged(l, text);
}

int ks_decode_stacks(struct ks_sample *s, struct ks_lines *l)
{
	size_t i;

	/* every frame of the sample is judged before any is decoded */
	for (i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].stack)
			each_line(s->tasks[i].stack, judge_one, l, NULL);
	for (i = 0; i < s->nr_tasks; i++) {
		struct ks_task *t = &s->tasks[i];
		char *text;

		if (!t->stack || !*t->stack)
			continue;
		text = decode_judged(l, t->stack);
		if (!text)
			return -ENOMEM;
		free(t->stack);
		t->stack = text;
	}
	return 0;
}

int ks_lines_sample(struct ks_sample *s, const struct ks_lines_config *cfg,
		    const struct ks_reporter *rep)
{
	struct ks_lines *l = ks_lines_open(cfg);
	int ret;

	if (!l)
		return -ENOMEM;
	ret = ks_decode_stacks(s, l);
	ks_lines_report(l, rep);
	ks_lines_close(l);
	return ret;
}

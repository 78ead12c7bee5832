/* Driver for the tests/e2e/symbols-*.sh scripts: resolves addresses through report/resolve/symbols.h.
 * Built by the scripts with cc against $BUILD/libc2c.a.
 *
 * Reads lines "code|data START LEN PGOFF PROT FILE ADDR" (numbers in hex, FILE without spaces)
 * and prints one line per query:
 *   code: ADDR<TAB>symbol+0xOFF<TAB>srcfile:line<TAB>inline_fn<TAB>call_file:call_line
 *   data: ADDR<TAB>member<TAB>type<TAB>size
 * with "?" for what is unknown, or ADDR<TAB>!reason when the lookup failed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/resolve/symbols.h"

static const char *str(const char *s)
{
	return s ? s : "?";
}

static void code(struct sym_session *s, const struct trace_mmap *m, unsigned long long a)
{
	struct sym_code_info ci;

	if (sym_code(s, m, a, &ci)) {
		printf("%llx\t!%s\n", a, str(ci.reason));
		return;
	}
	printf("%llx\t%s+0x%llx\t%s:%u\t%s\t%s:%u\n", a, str(ci.symbol),
	       (unsigned long long)ci.sym_offset, str(ci.srcfile), ci.line, str(ci.inline_fn),
	       str(ci.call_file), ci.call_line);
}

static void data(struct sym_session *s, const struct trace_mmap *m, unsigned long long a)
{
	struct sym_data_info di;

	if (sym_data(s, m, a, &di)) {
		printf("%llx\t!%s\n", a, str(di.reason));
		return;
	}
	printf("%llx\t%s\t%s\t%llu\n", a, str(di.member), str(di.type),
	       (unsigned long long)di.var_size);
}

int main(void)
{
	struct sym_opts o = {0};
	struct sym_session *s;
	char line[8192], kind[8], file[4096];
	unsigned long long start, len, pgoff, prot, addr;

	if (sym_session_new(&s, &o))
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		struct trace_mmap m = {0};
		if (sscanf(line, "%7s %llx %llx %llx %llx %4095s %llx", kind, &start, &len, &pgoff,
			   &prot, file, &addr) != 7) {
			fprintf(stderr, "symlookup: bad line: %s", line);
			return 2;
		}
		m.start = start;
		m.len = len;
		m.pgoff = pgoff;
		m.prot = prot;
		m.filename = file;
		if (!strcmp(kind, "data"))
			data(s, &m, addr);
		else
			code(s, &m, addr);
	}
	sym_session_free(s);
	return 0;
}

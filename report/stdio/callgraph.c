/* perf's stdio callchain graph (see report/stdio/callgraph.h). The layout is perf 6.1's: a
 * 12-space margin; per depth a "|" (the level goes on) or a blank, then 10 columns; a branch's
 * first frame carries "--P%--" in them; a blank "|" line before every branch. */
#include <stdlib.h>

#include "report/stdio/callgraph.h"

static void margin(FILE *f, int left)
{
	fprintf(f, "            %*s", left, "");
}

static void graph_line(FILE *f, int depth, uint64_t mask, int left)
{
	margin(f, left);
	for (int i = 0; i < depth; i++)
		fputs(mask & (1ull << i) ? "|          " : "           ", f);
	fputc('\n', f);
}

static void frame_line(FILE *f, const struct callers_node *node, const struct callers_frame *fr,
		       int depth, uint64_t mask, int first, uint64_t total, int left)
{
	char buf[32];

	margin(f, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask & (1ull << i) ? '|' : ' ', f);
		if (first && i == depth - 1)
			fprintf(f, "--%.2f%%--", total ? callers_cumul(node) * 100.0 / total : 0.0);
		else
			fputs("          ", f);
	}
	fprintf(f, "%s\n", callers_frame_name(fr, buf, sizeof(buf)));
}

static void print_children(FILE *f, const struct callers_node *n, uint64_t total, int depth,
			   uint64_t mask, int left)
{
	uint64_t new_mask = mask;

	for (uint32_t k = 0; k < n->nr_child; k++) {
		const struct callers_node *ch = n->child[k];

		if (k + 1 == n->nr_child && depth >= 1)
			new_mask &= ~(1ull << (depth - 1));
		graph_line(f, depth, mask, left);
		for (uint32_t i = 0; i < ch->nr_val; i++)
			frame_line(f, ch, ch->val[i], depth, new_mask, i == 0, total, left);
		if (depth < 63)
			print_children(f, ch, total, depth + 1, new_mask | (1ull << depth), left);
	}
}

uint64_t callgraph_row_samples(const struct rm_row *r)
{
	uint64_t n = 0;

	for (size_t k = 0; k < r->nr_callers; k++)
		n += r->callers[k].n;
	return n;
}

uint64_t callgraph_line_samples(const struct rm_line *l)
{
	uint64_t n = 0;

	for (size_t i = 0; i < l->nr_row; i++)
		n += callgraph_row_samples(&l->row[i]);
	return n;
}

void callgraph_fprint_row(FILE *f, const struct rm_model *m, const struct rm_line *l,
			  const struct rm_row *r, enum callers_order order)
{
	if (m->callers)
		callgraph_fprint(f, m->callers, r->callers, r->nr_callers, order,
				 callgraph_line_samples(l), callgraph_row_samples(r));
}

void callgraph_fprint(FILE *f, const struct callers *c, const struct callers_use *u, size_t n,
		      enum callers_order order, uint64_t total, uint64_t parent)
{
	struct callers_node *root;
	const struct callers_node *top;
	int left = 0;
	char buf[32];

	if (!n)
		return;
	root = callers_tree(c, u, n, order);
	top = root;
	if (root->nr_child == 1 && callers_cumul(root->child[0]) == parent) {
		/* one root holding all of the row: its frames without a percentage */
		const struct callers_node *only = root->child[0];

		for (uint32_t i = 0; i < only->nr_val; i++) {
			if (i == 0) {
				margin(f, left);
				fputs("|\n", f);
				margin(f, left);
				fputs("---", f);
				left += 3;
			} else {
				margin(f, left);
			}
			fprintf(f, "%s\n", callers_frame_name(only->val[i], buf, sizeof(buf)));
		}
		top = only;
	}
	print_children(f, top, total, 1, 1, left);
	if (top != root || top->nr_child)
		fputc('\n', f);
	callers_tree_free(root);
}

/* perf's stdio callchain graph as lines (see callgraph-text.h). The layout is perf 6.1's: a
 * 12-space margin; per depth a "|" (the level goes on) or a blank, then 10 columns; a branch's
 * first frame carries "--P%--" in them; a blank "|" line before every branch. */
#include <stdlib.h>

#include "report/aggregate/callers.h"
#include "report/model/callgraph-text.h"

_Static_assert((int)RM_CALLERS_CALLEE == (int)CALLERS_CALLEE &&
	       (int)RM_CALLERS_CALLER == (int)CALLERS_CALLER, "the model's order is the tree's");

static void margin(struct rm_text *t, int left)
{
	rm_text_addf(t, "            %*s", left, "");
}

static void graph_line(struct rm_text *t, int depth, uint64_t mask, int left)
{
	margin(t, left);
	for (int i = 0; i < depth; i++)
		rm_text_addf(t, "%s", mask & (1ull << i) ? "|          " : "           ");
	rm_text_end(t);
}

static void frame_line(struct rm_text *t, const struct callers_node *node,
		       const struct callers_frame *fr, int depth, uint64_t mask, int first,
		       uint64_t total, int left)
{
	char buf[32];

	margin(t, left);
	for (int i = 0; i < depth; i++) {
		rm_text_addf(t, "%c", mask & (1ull << i) ? '|' : ' ');
		if (first && i == depth - 1)
			rm_text_addf(t, "--%.2f%%--",
				     total ? callers_cumul(node) * 100.0 / total : 0.0);
		else
			rm_text_addf(t, "          ");
	}
	rm_text_addf(t, "%s", callers_frame_name(fr, buf, sizeof(buf)));
	rm_text_end(t);
}

static void children(struct rm_text *t, const struct callers_node *n, uint64_t total, int depth,
		     uint64_t mask, int left)
{
	uint64_t new_mask = mask;

	for (uint32_t k = 0; k < n->nr_child; k++) {
		const struct callers_node *ch = n->child[k];

		if (k + 1 == n->nr_child && depth >= 1)
			new_mask &= ~(1ull << (depth - 1));
		graph_line(t, depth, mask, left);
		for (uint32_t i = 0; i < ch->nr_val; i++)
			frame_line(t, ch, ch->val[i], depth, new_mask, i == 0, total, left);
		if (depth < 63)
			children(t, ch, total, depth + 1, new_mask | (1ull << depth), left);
	}
}

uint64_t rm_callgraph_row_samples(const struct rm_row *r)
{
	uint64_t n = 0;

	for (size_t k = 0; k < r->nr_callers; k++)
		n += r->callers[k].n;
	return n;
}

uint64_t rm_callgraph_line_samples(const struct rm_line *l)
{
	uint64_t n = 0;

	for (size_t i = 0; i < l->nr_row; i++)
		n += rm_callgraph_row_samples(&l->row[i]);
	return n;
}

void rm_callgraph_row_text(const struct rm_model *m, const struct rm_line *l,
			   const struct rm_row *r, enum rm_callers_order order,
			   rm_put_fn *put, void *ctx)
{
	if (m->callers)
		rm_callgraph_text(m->callers, r->callers, r->nr_callers, order,
				  rm_callgraph_line_samples(l), rm_callgraph_row_samples(r), put,
				  ctx);
}

/* One root holding all of the row: its frames without a percentage, after "---"; returns the
 * margin its children are drawn at. */
static int only_root(struct rm_text *t, const struct callers_node *only)
{
	char buf[32];
	int left = 0;

	for (uint32_t i = 0; i < only->nr_val; i++) {
		if (i == 0) {
			margin(t, left);
			rm_text_addf(t, "|");
			rm_text_end(t);
			margin(t, left);
			rm_text_addf(t, "---");
			left += 3;
		} else {
			margin(t, left);
		}
		rm_text_addf(t, "%s", callers_frame_name(only->val[i], buf, sizeof(buf)));
		rm_text_end(t);
	}
	return left;
}

void rm_callgraph_text(const struct callers *c, const struct callers_use *u, size_t n,
		       enum rm_callers_order order, uint64_t total, uint64_t parent,
		       rm_put_fn *put, void *ctx)
{
	struct callers_node *root;
	const struct callers_node *top;
	struct rm_text t;
	int left = 0;

	if (!n)
		return;
	rm_text_init(&t, put, ctx);
	root = callers_tree(c, u, n, (enum callers_order)order);
	top = root;
	if (root->nr_child == 1 && callers_cumul(root->child[0]) == parent) {
		top = root->child[0];
		left = only_root(&t, top);
	}
	children(&t, top, total, 1, 1, left);
	if (top != root || top->nr_child)
		rm_text_end(&t);
	callers_tree_free(root);
	rm_text_release(&t);
}

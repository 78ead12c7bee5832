/* Round-based time ordering of ring records (see queue.h). */
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "record/queue.h"

struct oq_item {
	uint64_t time, seq;
	struct trace_event ev;
	char *str;               /* owned copy of the mmap filename, comm, region name or blob data */
};

void oq_init(struct oq *q, oq_write_fn write, void *ctx)
{
	memset(q, 0, sizeof(*q));
	q->write = write;
	q->ctx = ctx;
}

void oq_release(struct oq *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->nr; i++)
		free(q->item[i].str);
	free(q->item);
	q->item = NULL;
	q->nr = q->cap = 0;
}

/* A sample's callchain, and the user registers and stack that --call-graph dwarf unwinds when
 * the sample leaves the queue, in one owned buffer (one allocation a sample that has any). */
static void copy_sample(struct oq_item *it, const struct trace_sample *s)
{
	size_t chain = s->chain_nr * sizeof(uint64_t), regs = 0, stack = 0;
	char *b;

	/* registers only with a stack (--call-graph dwarf): the soft backend's, read for its
	 * decoding, are done with; neither may point into the ring once queued */
	if (s->regs && s->regs_mask && s->stack && s->stack_size) {
		regs = (size_t)__builtin_popcountll(s->regs_mask) * sizeof(uint64_t);
		stack = s->stack_size;
	} else {
		it->ev.sample.regs = NULL;
		it->ev.sample.stack = NULL;
		it->ev.sample.regs_mask = it->ev.sample.stack_size = 0;
	}
	if (!chain && !regs)
		return;
	it->str = b = xmalloc(chain + regs + stack);
	if (chain) {
		memcpy(b, s->chain, chain);
		it->ev.sample.chain = (const uint64_t *)(void *)b;
	}
	if (regs) {
		memcpy(b + chain, s->regs, regs);
		it->ev.sample.regs = (const uint64_t *)(void *)(b + chain);
	}
	if (stack) {
		memcpy(b + chain + regs, s->stack, stack);
		it->ev.sample.stack = (const uint8_t *)(b + chain + regs);
	}
}

void oq_add(struct oq *q, const struct trace_event *ev, uint64_t time)
{
	struct oq_item *it;

	q->item = xgrow(q->item, &q->cap, q->nr + 1, sizeof(*q->item));
	it = &q->item[q->nr++];
	it->time = time;
	it->seq = q->seq++;
	it->ev = *ev;
	it->str = NULL;
	if (ev->type == TRACE_REC_MMAP && ev->mmap.filename)
		it->ev.mmap.filename = it->str = xstrdup(ev->mmap.filename);
	else if (ev->type == TRACE_REC_COMM && ev->comm.comm)
		it->ev.comm.comm = it->str = xstrdup(ev->comm.comm);
	else if (ev->type == TRACE_REC_REGION && ev->region.name)
		it->ev.region.name = it->str = xstrdup(ev->region.name);
	else if (ev->type == TRACE_REC_SAMPLE)
		copy_sample(it, &ev->sample);
	else if (ev->type == TRACE_REC_BLOB && ev->blob.size) {
		it->str = xmalloc(ev->blob.size);
		memcpy(it->str, ev->blob.data, ev->blob.size);
		it->ev.blob.data = it->str;
	}
	if (time > q->round_max)
		q->round_max = time;
	if (q->nr > q->max_queued)
		q->max_queued = q->nr;
}

static int cmp_item(const void *a, const void *b)
{
	const struct oq_item *x = a, *y = b;

	if (x->time != y->time)
		return (x->time > y->time) - (x->time < y->time);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Write the sorted items with time <= @limit; keep the rest. */
static int flush_upto(struct oq *q, uint64_t limit)
{
	size_t n = 0;
	int err = 0;

	if (!q->nr)
		return 0;  /* an empty round: item may still be NULL, which qsort must not see */
	qsort(q->item, q->nr, sizeof(*q->item), cmp_item);
	while (n < q->nr && q->item[n].time <= limit) {
		if (!err)
			err = q->write(&q->item[n].ev, q->ctx);
		free(q->item[n].str);
		n++;
	}
	q->written += n;
	memmove(q->item, q->item + n, (q->nr - n) * sizeof(*q->item));
	q->nr -= n;
	return err;
}

int oq_round_end(struct oq *q)
{
	int err = flush_upto(q, q->prev_round_max);

	q->prev_round_max = q->round_max;
	return err;
}

int oq_finish(struct oq *q)
{
	return flush_upto(q, UINT64_MAX);
}

/* Candidate lines and watch windows of the soft backend's confirmation (see confirm.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/xalloc.h"
#include "record/confirm.h"

void confirm_sel_init(struct confirm_sel *s, uint32_t cl_size, unsigned int slots)
{
	memset(s, 0, sizeof(*s));
	if (cl_size < CONFIRM_WORD || cl_size > CONFIRM_WORD * CONFIRM_WORDS_MAX ||
	    (cl_size & (cl_size - 1)))
		cl_size = 64;
	s->cl_size = cl_size;
	s->nr_words = cl_size / CONFIRM_WORD;
	s->slots = slots < 2 ? 2 : slots > C2C_CONFIRM_SLOTS ? C2C_CONFIRM_SLOTS : slots;
}

void confirm_sel_release(struct confirm_sel *s)
{
	free(s->c);
	memset(s, 0, sizeof(*s));
}

static struct confirm_cand *find(struct confirm_sel *s, uint32_t pid, uint64_t line)
{
	size_t coldest = 0;

	if (s->last < s->nr && s->c[s->last].line == line && s->c[s->last].pid == pid)
		return &s->c[s->last];
	for (size_t i = 0; i < s->nr; i++) {
		if (s->c[i].line == line && s->c[i].pid == pid) {
			s->last = i;
			return &s->c[i];
		}
		if (s->c[i].heat < s->c[coldest].heat)
			coldest = i;
	}
	if (s->nr < CONFIRM_TRACKED) {
		s->c = xgrow(s->c, &s->cap, s->nr + 1, sizeof(*s->c));
		coldest = s->nr++;
	}
	memset(&s->c[coldest], 0, sizeof(s->c[coldest]));
	s->c[coldest].pid = pid;
	s->c[coldest].line = line;
	s->last = coldest;
	return &s->c[coldest];
}

void confirm_sel_feed(struct confirm_sel *s, uint32_t pid, uint32_t tid, uint64_t addr,
		      int write, uint64_t weight)
{
	struct confirm_cand *c = find(s, pid, addr & ~(uint64_t)(s->cl_size - 1));
	unsigned int w = (unsigned int)((addr & (s->cl_size - 1)) / CONFIRM_WORD), i;
	double x = weight ? (double)weight : 1;

	c->heat += x;
	c->word_heat[w] += x;
	if (write)
		c->word_write[w] += x;
	for (i = 0; i < c->nr_tids && c->tids[i] != tid; i++)
		;
	if (i == c->nr_tids && i < sizeof(c->tids) / sizeof(c->tids[0]))
		c->tids[c->nr_tids++] = tid;
}

/* The heat a candidate ranks by: lower for each window in a row that saw one thread at most. */
static double rank_heat(const struct confirm_cand *c)
{
	return c->heat / (1.0 + c->private_windows);
}

static int hotter(const void *pa, const void *pb)
{
	const struct confirm_cand *a = *(const struct confirm_cand *const *)pa;
	const struct confirm_cand *b = *(const struct confirm_cand *const *)pb;
	double ha = rank_heat(a), hb = rank_heat(b);

	if (ha != hb)
		return (ha < hb) - (ha > hb);
	if (a->line != b->line)
		return (a->line > b->line) - (a->line < b->line);
	return (a->pid > b->pid) - (a->pid < b->pid);
}

size_t confirm_sel_candidates(const struct confirm_sel *s, const struct confirm_cand **out,
			      size_t n)
{
	const struct confirm_cand **all;
	size_t k = 0;

	if (!s->nr || !n)
		return 0;
	all = xmalloc(s->nr * sizeof(*all));
	for (size_t i = 0; i < s->nr; i++)
		all[i] = &s->c[i];
	qsort(all, s->nr, sizeof(*all), hotter);
	for (size_t i = 0; i < s->nr && k < n && k < CONFIRM_CANDIDATES; i++)
		if (all[i]->heat > 0 && rank_heat(all[i]) >= CONFIRM_MIN_SHARE * rank_heat(all[0]))
			out[k++] = all[i];
	free(all);
	return k;
}

void confirm_sel_result(struct confirm_sel *s, const struct c2c_confirm_window *w,
			unsigned int nr_tids)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->c[i].line == w->line && s->c[i].pid == w->pid) {
			s->c[i].private_windows = nr_tids >= 2 ? 0 : s->c[i].private_windows + 1;
			return;
		}
}

static unsigned int anchor_of(const struct confirm_sel *s, const struct confirm_cand *c)
{
	unsigned int best = 0, w;
	int written = 0;

	for (w = 0; w < s->nr_words; w++)
		written |= c->word_write[w] > 0;
	for (w = 1; w < s->nr_words; w++)
		if (written ? c->word_write[w] > c->word_write[best]
			    : c->word_heat[w] > c->word_heat[best])
			best = w;
	return best;
}

int confirm_sel_next(struct confirm_sel *s, struct c2c_confirm_window *w)
{
	const struct confirm_cand *cand[CONFIRM_CANDIDATES];
	struct confirm_cand *c = NULL;
	size_t n = confirm_sel_candidates(s, cand, CONFIRM_CANDIDATES);
	double decay = pow(0.5, 1.0 / CONFIRM_HALF_LIFE);
	unsigned int anchor, others, k;

	memset(w, 0, sizeof(*w));
	/* served longest ago (never: first), then lines several threads were sampled on, then the
	 * hottest */
	for (size_t i = 0; i < n; i++)
		if (!c || cand[i]->served < c->served ||
		    (cand[i]->served == c->served && cand[i]->nr_tids >= 2 && c->nr_tids < 2))
			c = (struct confirm_cand *)cand[i];
	if (c) {
		s->step++;
		if (!c->windows++)
			s->lines++;
		c->served = s->step;
		anchor = anchor_of(s, c);
		others = s->nr_words - 1;
		w->window = s->step;
		w->pid = c->pid;
		w->line = c->line;
		w->word[0].addr = c->line + (uint64_t)anchor * CONFIRM_WORD;
		w->word[0].len = CONFIRM_WORD;
		w->nr_words = 1;
		/* the other words, (slots - 1) a turn, consecutive windows sliding over them */
		for (k = 0; k + 1 < s->slots && k < others; k++) {
			unsigned int o = (unsigned int)(((uint64_t)c->turn * (s->slots - 1) + k) % others);
			unsigned int word = o < anchor ? o : o + 1;

			w->word[w->nr_words].addr = c->line + (uint64_t)word * CONFIRM_WORD;
			w->word[w->nr_words].len = CONFIRM_WORD;
			w->nr_words++;
		}
		c->turn++;
	}
	for (size_t i = 0; i < s->nr; i++) {
		s->c[i].heat *= decay;
		for (k = 0; k < s->nr_words; k++) {
			s->c[i].word_heat[k] *= decay;
			s->c[i].word_write[k] *= decay;
		}
	}
	return c != NULL;
}

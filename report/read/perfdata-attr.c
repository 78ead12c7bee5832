/* perf.data reader: event attrs (perf_event_attr of any perf version, either byte order), the
 * positions of the id, time and cpu fields they imply, and the id -> attr table. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/log.h"
#include "c2c/xalloc.h"
#include "report/read/perfdata-int.h"

/* ---- ids -------------------------------------------------------------------------------- */

static size_t id_slot(uint64_t id, size_t cap)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

/* The slot of @id, or of the free place where it would go. */
static size_t id_find(const struct perfdata_reader *r, uint64_t id)
{
	size_t i;

	for (i = id_slot(id, r->id_cap); r->id_val[i] != UINT32_MAX; i = (i + 1) & (r->id_cap - 1))
		if (r->id_key[i] == id)
			break;
	return i;
}

static void id_grow(struct perfdata_reader *r)
{
	uint64_t *ok = r->id_key, *op = r->id_prev;
	uint32_t *ov = r->id_val;
	size_t i, j, oc = r->id_cap;

	r->id_cap = oc ? oc * 2 : 64;
	r->id_key = xcalloc(r->id_cap, sizeof(*r->id_key));
	r->id_prev = xcalloc(r->id_cap, sizeof(*r->id_prev));
	r->id_val = xmalloc(r->id_cap * sizeof(*r->id_val));
	memset(r->id_val, 0xff, r->id_cap * sizeof(*r->id_val));
	for (i = 0; i < oc; i++) {
		if (ov[i] == UINT32_MAX)
			continue;
		j = id_find(r, ok[i]);
		r->id_key[j] = ok[i];
		r->id_val[j] = ov[i];
		r->id_prev[j] = op[i];
	}
	free(ok);
	free(ov);
	free(op);
}

int pd_attr_add_id(struct perfdata_reader *r, uint64_t id, uint32_t attr)
{
	size_t i;

	if ((r->id_n + 1) * 2 > r->id_cap)
		id_grow(r);
	i = id_find(r, id);
	if (r->id_val[i] == UINT32_MAX) {
		r->id_key[i] = id;
		r->id_prev[i] = 0;
		r->id_n++;
	}
	r->id_val[i] = attr;
	return 0;
}

int pd_attr_of_id(const struct perfdata_reader *r, uint64_t id)
{
	size_t i;

	if (!r->id_cap)
		return -1;
	i = id_find(r, id);
	return r->id_val[i] == UINT32_MAX ? -1 : (int)r->id_val[i];
}

int pd_id_value(struct perfdata_reader *r, uint64_t id, uint64_t value, uint64_t *delta)
{
	size_t i;

	if (!r->id_cap)
		return -1;
	i = id_find(r, id);
	if (r->id_val[i] == UINT32_MAX)
		return -1;
	*delta = value - r->id_prev[i];
	r->id_prev[i] = value;
	return (int)r->id_val[i];
}

/* ---- attrs ------------------------------------------------------------------------------ */

/* perf writes the attr bit fields in the writer's bit order: an opposite-endian file gets each
 * byte of the flag word bit-reversed, not the word byte-swapped (perf's swap_bitfield). */
static uint64_t attr_flags(const struct perfdata_reader *r, const uint8_t *p)
{
	uint8_t b[8];
	uint64_t v;
	int i, j;

	memcpy(b, p, 8);
	if (r->swap)
		for (i = 0; i < 8; i++) {
			uint8_t o = 0;

			for (j = 0; j < 8; j++)
				if (b[i] & (1u << j))
					o |= (uint8_t)(0x80u >> j);
			b[i] = o;
		}
	memcpy(&v, b, 8);
	return v;
}

int pd_attr_parse(struct perfdata_reader *r, const uint8_t *p, size_t avail, struct pd_attr *a,
		  uint64_t off)
{
	uint8_t buf[PD_ATTR_MAX_SIZE];
	uint32_t size;
	size_t i;

	if (avail < 64)
		return c2c_err(-EBADMSG, "'%s': offset %" PRIu64 ": event attr cut short (%zu bytes)",
			       r->name, off, avail);
	size = pd_u32(r, p + 4);
	if (!size)
		size = 64;
	if (size < 64 || size > avail)
		return c2c_err(-EBADMSG, "'%s': offset %" PRIu64 ": bad event attr size %u (room for %zu)",
			       r->name, off, size, avail);
	for (i = PD_ATTR_MAX_SIZE; i < size; i++)
		if (p[i])
			return c2c_err(-ENOTSUP, "'%s': offset %" PRIu64 ": event attr of %u bytes has "
				       "unknown nonzero fields (newer perf?)", r->name, off, size);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, p, size < sizeof(buf) ? size : sizeof(buf));
	memset(a, 0, sizeof(*a));
	a->type = pd_u32(r, buf);
	a->size = size;
	a->config = pd_u64(r, buf + 8);
	a->period = pd_u64(r, buf + 16);
	a->sample_type = pd_u64(r, buf + 24);
	a->read_format = pd_u64(r, buf + 32);
	a->flags = attr_flags(r, buf + 40);
	a->config1 = pd_u64(r, buf + 56);
	a->config2 = pd_u64(r, buf + 64);
	a->branch_sample_type = pd_u64(r, buf + 72);
	a->regs_user = pd_u64(r, buf + 80);
	a->stack_user = pd_u32(r, buf + 88);
	a->regs_intr = pd_u64(r, buf + 96);
	pd_attr_derive(a);
	return 0;
}

void pd_attr_derive(struct pd_attr *a)
{
	uint64_t st = a->sample_type;
	int pos = 0;

	a->sample_id_all = !!(a->flags & (1ull << 18));
	a->time_pos = a->id_pos = -1;
	if (st & PD_S_IDENTIFIER) {
		a->id_pos = 0;
		pos += 8;
	}
	pos += (st & PD_S_IP) ? 8 : 0;
	pos += (st & PD_S_TID) ? 8 : 0;
	if (st & PD_S_TIME) {
		a->time_pos = pos;
		pos += 8;
	}
	pos += (st & PD_S_ADDR) ? 8 : 0;
	if ((st & PD_S_ID) && !(st & PD_S_IDENTIFIER))
		a->id_pos = pos;

	a->trailer = 0;
	a->tr_time = a->tr_id = a->tr_cpu = a->tr_tid = -1;
	if (!a->sample_id_all)
		return;
	pos = 0;
	if (st & PD_S_TID) {
		a->tr_tid = pos;
		pos += 8;
	}
	if (st & PD_S_TIME) {
		a->tr_time = pos;
		pos += 8;
	}
	if (st & PD_S_ID) {
		a->tr_id = pos;
		pos += 8;
	}
	pos += (st & PD_S_STREAM_ID) ? 8 : 0;
	if (st & PD_S_CPU) {
		a->tr_cpu = pos;
		pos += 8;
	}
	if (st & PD_S_IDENTIFIER) {
		a->tr_id = pos;
		pos += 8;
	}
	a->trailer = pos;
}

uint32_t pd_attr_append(struct perfdata_reader *r, const struct pd_attr *a)
{
	r->attr = xrealloc(r->attr, (r->nr_attr + 1) * sizeof(*r->attr));
	r->attr[r->nr_attr] = *a;
	return r->nr_attr++;
}

/* perf refuses files whose events place the id differently: records could not be attributed. */
int pd_attrs_check(struct perfdata_reader *r)
{
	const struct pd_attr *a0;
	uint32_t i;

	if (!r->nr_attr)
		return c2c_err(-EBADMSG, "'%s': no event attributes in the file", r->name);
	a0 = &r->attr[0];
	if (r->nr_attr > UINT16_MAX)
		return c2c_err(-ENOTSUP, "'%s': too many events (%u)", r->name, r->nr_attr);
	if (r->nr_attr == 1)
		return 0;
	if (a0->id_pos < 0)
		return c2c_err(-ENOTSUP, "'%s': %u events but samples carry no event id "
			       "(sample_type lacks ID and IDENTIFIER)", r->name, r->nr_attr);
	for (i = 1; i < r->nr_attr; i++) {
		const struct pd_attr *a = &r->attr[i];

		if (a->id_pos != a0->id_pos || a->sample_id_all != a0->sample_id_all ||
		    (a->sample_id_all && a->trailer - a->tr_id != a0->trailer - a0->tr_id))
			return c2c_err(-ENOTSUP, "'%s': events %u and 0 have non-matching sample_type "
				       "(0x%" PRIx64 " vs 0x%" PRIx64 ")", r->name, i, a->sample_type,
				       a0->sample_type);
	}
	return 0;
}

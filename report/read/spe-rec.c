/* Arm SPE records and their data_src (see spe.h): what perf 6.1's arm_spe_read_record() keeps of
 * each packet, and arm_spe__synth_data_source() with its Neoverse and generic tables. */
#include <stdlib.h>
#include <string.h>

#include "report/aggregate/dsrc.h"
#include "report/read/spe.h"

#define ADDR_MASK  ((1ull << 56) - 1)

void spe_rec_start(struct spe_record *r)
{
	memset(r, 0, sizeof(*r));
	r->context_id = UINT64_MAX;
}

/* arm_spe_calc_ip(): a code address of EL1/EL2 in the non-secure state gets the top byte of a
 * kernel address; a data address whose bits 55:52 are all set (the kernel half) too; the top
 * byte is cleared otherwise (a tag, or the NS/EL bits). */
static uint64_t calc_addr(unsigned int idx, uint64_t v)
{
	uint64_t ns = v >> 63, el = (v >> 61) & 3;

	switch (idx) {
	case SPE_ADDR_PC:
	case SPE_ADDR_BRANCH:
		v &= ADDR_MASK;
		if (ns && (el == 1 || el == 2))
			v |= 0xffull << 56;
		return v;
	case SPE_ADDR_DATA_VA:
		v &= ADDR_MASK;
		if (((v >> 48) & 0xf0) == 0xf0)
			v |= 0xffull << 56;
		return v;
	case SPE_ADDR_DATA_PA:
		return v & ADDR_MASK;
	default:
		return v;   /* perf complains and keeps nothing of it */
	}
}

static void add_events(struct spe_record *r, uint64_t v)
{
	static const struct { unsigned int bit; uint32_t type; } map[] = {
		{ SPE_EV_L1D_REFILL, SPE_T_L1D_MISS }, { SPE_EV_L1D_ACCESS, SPE_T_L1D_ACCESS },
		{ SPE_EV_TLB_WALK, SPE_T_TLB_MISS }, { SPE_EV_TLB_ACCESS, SPE_T_TLB_ACCESS },
		{ SPE_EV_LLC_MISS, SPE_T_LLC_MISS }, { SPE_EV_LLC_ACCESS, SPE_T_LLC_ACCESS },
		{ SPE_EV_REMOTE_ACCESS, SPE_T_REMOTE_ACCESS }, { SPE_EV_MISPRED, SPE_T_BRANCH_MISS },
		{ SPE_EV_PARTIAL_PRED, SPE_T_SVE_PARTIAL_PRED },
		{ SPE_EV_EMPTY_PRED, SPE_T_SVE_EMPTY_PRED },
	};
	size_t i;

	r->events |= v;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (v & (1ull << map[i].bit))
			r->type |= map[i].type;
}

static void add_address(struct spe_record *r, unsigned int idx, uint64_t v)
{
	uint64_t a = calc_addr(idx, v);

	if (idx == SPE_ADDR_PC)
		r->from_ip = a;
	else if (idx == SPE_ADDR_BRANCH)
		r->to_ip = a;
	else if (idx == SPE_ADDR_DATA_VA)
		r->virt_addr = a;
	else if (idx == SPE_ADDR_DATA_PA)
		r->phys_addr = a;
}

/* arm_spe_read_record() of perf 6.1.192: the classes and their second-level bits. */
static int add_op(struct spe_record *r, unsigned int cls, uint64_t v)
{
	switch (cls) {
	case SPE_OP_CLASS_LDST:
		r->op |= SPE_OP_LDST | (v & 1 ? SPE_OP_ST : SPE_OP_LD);
		if ((v & 0x0a) == 0x08)
			r->op |= SPE_OP_SVE_LDST;
		return 0;
	case SPE_OP_CLASS_OTHER:
		r->op |= SPE_OP_OTHER;
		if ((v & 0x89) == 0x08)
			r->op |= SPE_OP_SVE_OTHER;
		return 0;
	case SPE_OP_CLASS_BRANCH:
		r->op |= SPE_OP_BRANCH;
		return 0;
	default:
		return -1;
	}
}

int spe_rec_add(struct spe_record *r, const struct spe_pkt *p)
{
	switch (p->type) {
	case SPE_PKT_TIMESTAMP:
		r->timestamp = p->payload;
		return 1;
	case SPE_PKT_END:
		return 1;
	case SPE_PKT_ADDRESS:
		add_address(r, p->index, p->payload);
		break;
	case SPE_PKT_COUNTER:
		/* perf 6.1 keeps the total latency only (the sample's weight) */
		if (p->index == SPE_CNT_TOTAL)
			r->lat_total = p->payload;
		else if (p->index == SPE_CNT_ISSUE)
			r->lat_issue = p->payload;
		else if (p->index == SPE_CNT_XLAT)
			r->lat_xlat = p->payload;
		break;
	case SPE_PKT_CONTEXT:
		r->context_id = p->payload;
		break;
	case SPE_PKT_OP_TYPE:
		return add_op(r, p->index, p->payload);
	case SPE_PKT_EVENTS:
		add_events(r, p->payload);
		break;
	case SPE_PKT_DATA_SOURCE:
		r->source = p->payload;
		break;
	default:
		break;
	}
	return 0;
}

/* ---- data source ------------------------------------------------------------------------- */

uint64_t spe_midr_from_cpuid(const char *cpuid)
{
	return cpuid ? (uint64_t)strtol(cpuid, NULL, 16) : 0;
}

/* MIDR_ALL_VERSIONS(): implementer, architecture and part number match, any variant/revision. */
int spe_midr_is_neoverse(uint64_t midr)
{
	static const uint32_t part[] = { 0xd0c /* N1 */, 0xd49 /* N2 */, 0xd40 /* V1 */ };
	size_t i;

	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		if ((midr & 0xff0ffff0u) == (0x41u << 24 | 0xfu << 16 | part[i] << 4))
			return 1;
	return 0;
}

struct ds {
	uint64_t op, lvl, snoop, tlb, lvl_num, remote, snoopx;
};

static uint64_t ds_word(const struct ds *d)
{
	return d->op << DSRC_OP_SHIFT | d->lvl << DSRC_LVL_SHIFT | d->snoop << DSRC_SNOOP_SHIFT |
	       d->tlb << DSRC_TLB_SHIFT | d->lvl_num << DSRC_LVLNUM_SHIFT |
	       d->remote << DSRC_REMOTE_SHIFT | d->snoopx << DSRC_SNOOPX_SHIFT;
}

/* arm_spe__synth_data_source_common(): no level for stores (a record with a store bit, even
 * beside a load's); three cache levels assumed. */
static void ds_neoverse(const struct spe_record *r, struct ds *d)
{
	if (r->op & SPE_OP_ST) {
		d->lvl = DSRC_LVL_NA;
		d->lvl_num = DSRC_LVLNUM_NA;
		d->snoop = DSRC_SNOOP_NA;
		return;
	}
	switch (r->source) {
	case SPE_NV_L1D:
		*d = (struct ds){ d->op, DSRC_LVL_L1 | DSRC_LVL_HIT, DSRC_SNOOP_NONE, 0, DSRC_LVLNUM_L1 };
		break;
	case SPE_NV_L2:
		*d = (struct ds){ d->op, DSRC_LVL_L2 | DSRC_LVL_HIT, DSRC_SNOOP_NONE, 0, DSRC_LVLNUM_L2 };
		break;
	case SPE_NV_PEER_CORE:
		*d = (struct ds){ d->op, DSRC_LVL_L2 | DSRC_LVL_HIT, 0, 0, DSRC_LVLNUM_L2, 0,
				  DSRC_SNOOPX_PEER };
		break;
	case SPE_NV_LOCAL_CLUSTER:   /* L1 or L2 of another core: a cache-to-cache transfer */
	case SPE_NV_PEER_CLUSTER:
		*d = (struct ds){ d->op, DSRC_LVL_L3 | DSRC_LVL_HIT, 0, 0, DSRC_LVLNUM_L3, 0,
				  DSRC_SNOOPX_PEER };
		break;
	case SPE_NV_SYS_CACHE:       /* the system cache is taken as L3 */
		*d = (struct ds){ d->op, DSRC_LVL_L3 | DSRC_LVL_HIT, DSRC_SNOOP_HIT, 0, DSRC_LVLNUM_L3 };
		break;
	case SPE_NV_REMOTE:          /* another socket, level unknown */
		/* perf 6.1.0 said LVL_REM_CCE1 and LVLNUM_ANY_CACHE; the 6.1 stable series (6.1.192
		 * here) says NA for both */
		*d = (struct ds){ d->op, DSRC_LVL_NA, 0, 0, DSRC_LVLNUM_NA, DSRC_REMOTE,
				  DSRC_SNOOPX_PEER };
		break;
	case SPE_NV_DRAM:
		*d = (struct ds){ d->op, DSRC_LVL_LOC_RAM | DSRC_LVL_HIT, DSRC_SNOOP_NONE, 0,
				  DSRC_LVLNUM_RAM };
		break;
	default:
		break;
	}
}

/* arm_spe__synth_data_source_generic(): the level from the LLC or L1D events, remote from the
 * remote-access event; no snoop information. */
static void ds_generic(const struct spe_record *r, struct ds *d)
{
	if (r->type & (SPE_T_LLC_ACCESS | SPE_T_LLC_MISS))
		d->lvl = DSRC_LVL_L3 | (r->type & SPE_T_LLC_MISS ? DSRC_LVL_MISS : DSRC_LVL_HIT);
	else if (r->type & (SPE_T_L1D_ACCESS | SPE_T_L1D_MISS))
		d->lvl = DSRC_LVL_L1 | (r->type & SPE_T_L1D_MISS ? DSRC_LVL_MISS : DSRC_LVL_HIT);
	if (r->type & SPE_T_REMOTE_ACCESS)
		d->remote = DSRC_REMOTE;
}

uint64_t spe_data_src(const struct spe_record *r, uint64_t midr)
{
	struct ds d = { 0 };

	if (r->op & SPE_OP_LD)
		d.op = DSRC_OP_LOAD;
	else if (r->op & SPE_OP_ST)
		d.op = DSRC_OP_STORE;
	else
		return 0;
	if (spe_midr_is_neoverse(midr))
		ds_neoverse(r, &d);
	else
		ds_generic(r, &d);
	if (r->type & (SPE_T_TLB_ACCESS | SPE_T_TLB_MISS))
		d.tlb = 0x20 /* WK */ | (r->type & SPE_T_TLB_MISS ? 0x04 /* MISS */ : 0x02 /* HIT */);
	return ds_word(&d);
}

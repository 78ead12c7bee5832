/* dsrc: decode one sample's perf_mem_data_src word into perf c2c's counter block.
 *
 * This is perf 6.1's c2c_decode_stats() semantics (docs: c2c-semantics.md §2): every sample is
 * decoded into a fresh block which is then added to the global, line, offset and node blocks.
 * Pure functions: no I/O, no allocation, no global state. Counters are u32 like perf's and wrap
 * the same way; the stdio printer prints them as perf does (%d). */
#ifndef C2C_REPORT_DSRC_H
#define C2C_REPORT_DSRC_H

#include <stdint.h>

/* Field shifts of union perf_mem_data_src (include/uapi/linux/perf_event.h). */
enum {
	DSRC_OP_SHIFT = 0, DSRC_LVL_SHIFT = 5, DSRC_SNOOP_SHIFT = 19, DSRC_LOCK_SHIFT = 24,
	DSRC_TLB_SHIFT = 26, DSRC_LVLNUM_SHIFT = 33, DSRC_REMOTE_SHIFT = 37,
	DSRC_SNOOPX_SHIFT = 38, DSRC_BLK_SHIFT = 40, DSRC_HOPS_SHIFT = 43,
};

/* Values inside the fields (not shifted). */
enum {
	DSRC_OP_NA = 0x01, DSRC_OP_LOAD = 0x02, DSRC_OP_STORE = 0x04, DSRC_OP_PFETCH = 0x08,
	DSRC_OP_EXEC = 0x10,
};
enum {
	DSRC_LVL_NA = 0x0001, DSRC_LVL_HIT = 0x0002, DSRC_LVL_MISS = 0x0004, DSRC_LVL_L1 = 0x0008,
	DSRC_LVL_LFB = 0x0010, DSRC_LVL_L2 = 0x0020, DSRC_LVL_L3 = 0x0040,
	DSRC_LVL_LOC_RAM = 0x0080, DSRC_LVL_REM_RAM1 = 0x0100, DSRC_LVL_REM_RAM2 = 0x0200,
	DSRC_LVL_REM_CCE1 = 0x0400, DSRC_LVL_REM_CCE2 = 0x0800, DSRC_LVL_IO = 0x1000,
	DSRC_LVL_UNC = 0x2000,
};
enum {
	DSRC_SNOOP_NA = 0x01, DSRC_SNOOP_NONE = 0x02, DSRC_SNOOP_HIT = 0x04,
	DSRC_SNOOP_MISS = 0x08, DSRC_SNOOP_HITM = 0x10,
};
enum { DSRC_SNOOPX_FWD = 0x01, DSRC_SNOOPX_PEER = 0x02 };
enum { DSRC_LOCK_NA = 0x01, DSRC_LOCK_LOCKED = 0x02 };
enum { DSRC_BLK_NA = 0x01, DSRC_BLK_DATA = 0x02, DSRC_BLK_ADDR = 0x04 };
enum { DSRC_REMOTE = 0x01 };
enum {
	DSRC_LVLNUM_L1 = 0x1, DSRC_LVLNUM_L2 = 0x2, DSRC_LVLNUM_L3 = 0x3, DSRC_LVLNUM_L4 = 0x4,
	DSRC_LVLNUM_CXL = 0x9, DSRC_LVLNUM_IO = 0xa, DSRC_LVLNUM_ANY_CACHE = 0xb,
	DSRC_LVLNUM_LFB = 0xc, DSRC_LVLNUM_RAM = 0xd, DSRC_LVLNUM_PMEM = 0xe, DSRC_LVLNUM_NA = 0xf,
};

/* perf's PERF_MEM_DATA_SRC_NONE / kernel PERF_MEM_NA (6.1): decodes as "unable to parse". */
#define DSRC_NONE 0x05080021ULL

/* perf's struct c2c_stats, field for field (all u32). */
struct dsrc_stats {
	uint32_t nr_entries, locks, store, st_uncache, st_noadrs, st_l1hit, st_l1miss, st_na;
	uint32_t load, ld_excl, ld_shared, ld_uncache, ld_io, ld_miss, ld_noadrs, ld_fbhit;
	uint32_t ld_l1hit, ld_l2hit, ld_llchit, lcl_hitm, rmt_hitm, tot_hitm, lcl_peer, rmt_peer;
	uint32_t tot_peer, rmt_hit, lcl_dram, rmt_dram, blk_data, blk_addr, nomap, noparse;
};

/* What the decoder needs besides data_src: the sample's data address (0 when absent) and whether
 * the data and code addresses were found in a map (see report/resolve/maps.h). */
struct dsrc_input {
	uint64_t data_src;
	uint64_t daddr;
	int has_data_map;
	int has_code_map;
};

/* Decode one sample into *st (zeroed first). */
void dsrc_decode(struct dsrc_stats *st, const struct dsrc_input *in);
/* *dst += *src, field by field. */
void dsrc_add(struct dsrc_stats *dst, const struct dsrc_stats *src);

/* Derived figures (builtin-c2c.c): lcl_dram + rmt_dram + rmt_hitm + rmt_hit. */
uint32_t dsrc_llc_misses(const struct dsrc_stats *st);
/* ld_fbhit + ld_l1hit + ld_l2hit + ld_llchit + lcl_hitm */
uint32_t dsrc_cache_hits(const struct dsrc_stats *st);
/* st_l1hit + st_l1miss + st_na */
uint32_t dsrc_stores(const struct dsrc_stats *st);
/* the "Total records" column: llc misses + cache hits + stores */
uint32_t dsrc_total_records(const struct dsrc_stats *st);
/* the "Total Loads" column: llc misses + cache hits */
uint32_t dsrc_total_loads(const struct dsrc_stats *st);

/* Field extraction helpers. */
static inline unsigned dsrc_field(uint64_t ds, unsigned shift, unsigned width)
{
	return (unsigned)((ds >> shift) & ((1ULL << width) - 1));
}

#endif

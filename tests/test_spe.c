/* Tests of the Arm SPE decoder's pure layers (report/read/spe-pkt.c, spe-rec.c): every packet type
 * in every header form (short, extended two-byte, payload sizes 1 to 8), buffers cut inside a
 * packet, bad headers, alignment and PAD runs; the descriptions perf 6.1's `perf report -D` prints
 * for the same bytes (copied from its output on c2c-gen's SPE files); records, the MIDR match and
 * the data source of both tables; TIME_CONV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report/aggregate/dsrc.h"
#include "report/read/spe.h"

struct pkt_row {
	const char *hex;          /* the bytes */
	int len;                  /* what spe_pkt_get() returns (at address 0) */
	enum spe_pkt_type type;
	uint8_t index, ext;
	uint64_t payload;
	const char *desc;         /* perf report -D, NULL: not checked */
};

static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	unsigned int v;

	while (*s && n < cap) {
		while (*s == ' ')
			s++;
		if (!*s || sscanf(s, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

static const struct pkt_row pkt_rows[] = {
	/* PAD, END, TIMESTAMP */
	{ "00", 1, SPE_PKT_PAD, 0, 0, 0, "PAD" },
	{ "00 00 00", 3, SPE_PKT_PAD, 0, 0, 0, "PAD" },
	{ "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", 16, SPE_PKT_PAD, 0, 0, 0, "PAD" },
	{ "01", 1, SPE_PKT_END, 0, 0, 0, "END" },
	{ "01 00", 1, SPE_PKT_END, 0, 0, 0, "END" },
	{ "71 dd 00 00 00 00 00 00 00", 9, SPE_PKT_TIMESTAMP, 0, 0, 221, "TS 221" },
	/* EVENTS: 1, 2, 4 and 8 bytes (the size kept as the index) */
	{ "42 02", 2, SPE_PKT_EVENTS, 1, 0, 0x2, "EV RETIRED" },
	{ "42 0e", 2, SPE_PKT_EVENTS, 1, 0, 0xe, "EV RETIRED L1D-ACCESS L1D-REFILL" },
	{ "52 1a 05", 3, SPE_PKT_EVENTS, 2, 0, 0x51a,
	  "EV RETIRED L1D-REFILL TLB-ACCESS LLC-ACCESS REMOTE-ACCESS" },
	{ "52 02 06", 3, SPE_PKT_EVENTS, 2, 0, 0x602, "EV RETIRED LLC-REFILL REMOTE-ACCESS" },
	{ "62 06 08 02 00", 5, SPE_PKT_EVENTS, 4, 0, 0x20806,
	  "EV RETIRED L1D-ACCESS ALIGNMENT SVE-PARTIAL-PRED" },
	{ "72 02 00 00 00 00 00 00 00", 9, SPE_PKT_EVENTS, 8, 0, 0x2, NULL },
	/* DATA SOURCE: 1, 2 and 4 bytes */
	{ "43 00", 2, SPE_PKT_DATA_SOURCE, 0, 0, 0, "DATA-SOURCE 0" },
	{ "43 0c", 2, SPE_PKT_DATA_SOURCE, 0, 0, 12, "DATA-SOURCE 12" },
	{ "53 0d 00", 3, SPE_PKT_DATA_SOURCE, 0, 0, 13, "DATA-SOURCE 13" },
	{ "63 0e 00 00 00", 5, SPE_PKT_DATA_SOURCE, 0, 0, 14, NULL },
	/* CONTEXT at EL1 and EL2 */
	{ "64 09 20 00 00", 5, SPE_PKT_CONTEXT, 0, 0, 0x2009, "CONTEXT 0x2009 el1" },
	{ "65 08 20 00 00", 5, SPE_PKT_CONTEXT, 1, 0, 0x2008, "CONTEXT 0x2008 el2" },
	/* OP TYPE: other, load/store, branch */
	{ "48 02", 2, SPE_PKT_OP_TYPE, 0, 0, 0x2, "OTHER INSN-OTHER" },
	{ "48 03", 2, SPE_PKT_OP_TYPE, 0, 0, 0x3, "OTHER COND-SELECT" },
	{ "49 46", 2, SPE_PKT_OP_TYPE, 1, 0, 0x46, "LD" },
	{ "49 a5", 2, SPE_PKT_OP_TYPE, 1, 0, 0xa5, "ST" },
	{ "49 98", 2, SPE_PKT_OP_TYPE, 1, 0, 0x98, "LD EVLEN 64 SG" },
	{ "49 18", 2, SPE_PKT_OP_TYPE, 1, 0, 0x18, "LD EVLEN 64" },
	{ "4a 01", 2, SPE_PKT_OP_TYPE, 2, 0, 0x1, "B COND" },
	{ "4a 02", 2, SPE_PKT_OP_TYPE, 2, 0, 0x2, "B IND" },
	{ "4a 03", 2, SPE_PKT_OP_TYPE, 2, 0, 0x3, "B COND IND" },
	{ "4b 01", 2, SPE_PKT_OP_TYPE, 3, 0, 0x1, "OP-TYPE 0x1 (3)" },
	/* ADDRESS: short header, PC, branch target, VA, PA */
	{ "b0 00 17 40 00 00 00 00 80", 9, SPE_PKT_ADDRESS, 0, 0, 0x8000000000401700ull,
	  "PC 0x401700 el0 ns=1" },
	{ "b0 14 01 00 81 ff ff ff a0", 9, SPE_PKT_ADDRESS, 0, 0, 0xa0ffffff81000114ull,
	  "PC 0xffffff81000114 el1 ns=1" },
	{ "b1 94 17 40 00 00 00 00 80", 9, SPE_PKT_ADDRESS, 1, 0, 0x8000000000401794ull,
	  "TGT 0x401794 el0 ns=1" },
	{ "b2 00 60 00 02 00 00 00 0d", 9, SPE_PKT_ADDRESS, 2, 0, 0x0d00000002006000ull,
	  "VA 0xd00000002006000" },
	{ "b3 00 60 00 03 00 00 00 45", 9, SPE_PKT_ADDRESS, 3, 0, 0x4500000003006000ull,
	  "PA 0x3006000 ns=0 ch=1 pat=5" },
	/* ADDRESS: extended header (index = (h0 & 3) << 3 | (h1 & 7)) */
	{ "20 b2 68 06 00 82 ff ff ff 00", 10, SPE_PKT_ADDRESS, 2, 1, 0x00ffffff82000668ull,
	  "VA 0xffffff82000668" },
	{ "20 b3 d0 60 00 03 00 00 00 cd", 10, SPE_PKT_ADDRESS, 3, 1, 0xcd000000030060d0ull,
	  "PA 0x30060d0 ns=1 ch=1 pat=d" },
	{ "20 b4 0d f5 f9 e7 98 48 bf 00", 10, SPE_PKT_ADDRESS, 4, 1, 0x00bf4898e7f9f50dull,
	  "ADDR 0xbf4898e7f9f50d (4)" },
	{ "21 b1 00 00 00 00 00 00 00 00", 10, SPE_PKT_ADDRESS, 9, 1, 0, NULL },
	{ "23 b7 00 00 00 00 00 00 00 00", 10, SPE_PKT_ADDRESS, 31, 1, 0, NULL },
	/* COUNTER: short and extended */
	{ "98 0e 00", 3, SPE_PKT_COUNTER, 0, 0, 14, "LAT 14 TOT" },
	{ "99 07 00", 3, SPE_PKT_COUNTER, 1, 0, 7, "LAT 7 ISSUE" },
	{ "9a 03 00", 3, SPE_PKT_COUNTER, 2, 0, 3, "LAT 3 XLAT" },
	{ "9c 65 eb", 3, SPE_PKT_COUNTER, 4, 0, 0xeb65, "LAT 60261 " },   /* perf's trailing space */
	{ "20 98 0a 00", 4, SPE_PKT_COUNTER, 0, 1, 10, "LAT 10 TOT" },
	{ "20 98 ca 07", 4, SPE_PKT_COUNTER, 0, 1, 1994, "LAT 1994 TOT" },
	{ "22 99 05 00", 4, SPE_PKT_COUNTER, 17, 1, 5, NULL },
	/* alignment (extended header, second byte 0): to 2, 4, 8, 16 bytes from address 0 */
	{ "20 00", 2, SPE_PKT_PAD, 0, 0, 0, "PAD" },
	{ "21 00 00", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "21 00 00 00", 4, SPE_PKT_PAD, 0, 0, 0, "PAD" },
	{ "22 00 00 00 00 00 00 00", 8, SPE_PKT_PAD, 0, 0, 0, "PAD" },
	{ "23 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", 16, SPE_PKT_PAD, 0, 0, 0, "PAD" },
	/* cut short */
	{ "71 dd 00 00", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "b0 00 17", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "20 b2 68 06 00 82 ff ff ff", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "20 98 0a", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "62 06 08", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "64 09", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "49", SPE_PKT_NEED_MORE, SPE_PKT_BAD, 0, 0, 0, NULL },
	/* no such header: perf's "Bad packet!" */
	{ "02", SPE_PKT_INVALID, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "0f", SPE_PKT_INVALID, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "80 00", SPE_PKT_INVALID, SPE_PKT_BAD, 0, 0, 0, NULL },
	{ "20", SPE_PKT_INVALID, SPE_PKT_BAD, 0, 0, 0, NULL },     /* extended header alone */
	{ "20 42 00", SPE_PKT_INVALID, SPE_PKT_BAD, 0, 0, 0, NULL },  /* extended events */
	{ "24 b0 00", SPE_PKT_INVALID, SPE_PKT_BAD, 0, 0, 0, NULL },  /* not an extended header */
};

static void test_packets(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pkt_rows) / sizeof(pkt_rows[0]); i++) {
		const struct pkt_row *w = &pkt_rows[i];
		uint8_t buf[32];
		size_t n = unhex(w->hex, buf, sizeof(buf));
		struct spe_pkt p;
		char desc[128];
		int rc = spe_pkt_get(buf, n, 0, &p);

		if (rc != w->len)
			fail_msg("'%s': %d, want %d", w->hex, rc, w->len);
		if (rc <= 0)
			continue;
		if (p.type != w->type || p.index != w->index || p.ext != w->ext ||
		    p.payload != w->payload)
			fail_msg("'%s': type %d index %u ext %u payload %#llx", w->hex, p.type, p.index,
				 p.ext, (unsigned long long)p.payload);
		if (w->desc) {
			assert_int_equal(spe_pkt_desc(&p, desc, sizeof(desc)), 0);
			if (strcmp(desc, w->desc))
				fail_msg("'%s': \"%s\", perf says \"%s\"", w->hex, desc, w->desc);
		}
	}
}

/* An alignment packet pads to the boundary of the address it is read at; PAD bytes after it are
 * taken up to 16 in all. */
static void test_alignment(void **state)
{
	uint8_t b[40] = { 0x23, 0x00 };
	struct spe_pkt p;

	(void)state;
	assert_int_equal(spe_pkt_get(b, sizeof(b), 0x1000, &p), 16);
	assert_int_equal(spe_pkt_get(b, sizeof(b), 0x1003, &p), 16);   /* 13, then 3 PAD bytes */
	b[14] = 0x01;
	assert_int_equal(spe_pkt_get(b, sizeof(b), 0x1003, &p), 14);   /* 13, then one PAD byte */
	assert_int_equal(spe_pkt_get(b, sizeof(b), 0x100e, &p), 14);   /* 2, then 12 PAD */
	assert_int_equal(spe_pkt_get(b, 15, 0x1000, &p), SPE_PKT_NEED_MORE);   /* needs 16 bytes */
	b[0] = 0x20;
	assert_int_equal(spe_pkt_get(b, sizeof(b), 0x1001, &p), 14);   /* 1, then 13 PAD */
	assert_int_equal(p.type, SPE_PKT_PAD);
}

/* The description fits any buffer: cut, terminated, -1 only when nothing fits. */
static void test_desc_bounds(void **state)
{
	const uint8_t ev[] = { 0x62, 0x0e, 0x09, 0x02, 0x00 };
	struct spe_pkt p;
	char buf[12];

	(void)state;
	assert_int_equal(spe_pkt_get(ev, sizeof(ev), 0, &p), 5);
	memset(buf, 'x', sizeof(buf));
	spe_pkt_desc(&p, buf, sizeof(buf));
	assert_non_null(memchr(buf, 0, sizeof(buf)));
}

static int feed(struct spe_record *r, const char *hex)
{
	uint8_t buf[256];
	size_t n = unhex(hex, buf, sizeof(buf)), off = 0;
	struct spe_pkt p;
	int rc = 0;

	spe_rec_start(r);
	while (off < n) {
		int len = spe_pkt_get(buf + off, n - off, off, &p);

		assert_true(len > 0);
		off += (size_t)len;
		rc = spe_rec_add(r, &p);
		if (rc)
			break;
	}
	return rc;
}

#define N1  0x410fd0c0ull
#define N2  0x410fd490ull
#define V1  0x410fd400ull
#define V2  0x410fd4f0ull   /* not in perf 6.1's list */

static void test_midr(void **state)
{
	(void)state;
	assert_true(spe_midr_is_neoverse(N1));
	assert_true(spe_midr_is_neoverse(N2));
	assert_true(spe_midr_is_neoverse(V1));
	assert_true(spe_midr_is_neoverse(0x413fd0c1));   /* N1 r3p1: every variant and revision */
	assert_false(spe_midr_is_neoverse(V2));
	assert_false(spe_midr_is_neoverse(0x410fd0b0));  /* Cortex-A76 */
	assert_false(spe_midr_is_neoverse(0x510fd0c0));  /* another implementer */
	assert_false(spe_midr_is_neoverse(0));
	assert_int_equal(spe_midr_from_cpuid("0x00000000410fd0c0"), N1);
	assert_int_equal(spe_midr_from_cpuid(NULL), 0);
}

/* A load record of a user PC, a tagged VA, a PA, latencies, events and a data source, ended by
 * its timestamp; addresses as perf keeps them. */
static void test_record(void **state)
{
	struct spe_record r;

	(void)state;
	assert_int_equal(feed(&r, "65 08 20 00 00  b0 00 17 40 00 00 00 00 80  49 98  "
			 "52 0e 01  b2 00 60 00 02 00 00 00 0d  b3 00 60 00 03 00 00 00 45  "
			 "20 98 0a 00  99 07 00  9a 03 00  43 0a  71 dd 00 00 00 00 00 00 00"), 1);
	assert_int_equal(r.context_id, 0x2008);
	assert_int_equal(r.from_ip, 0x401700);
	assert_int_equal(r.virt_addr, 0x2006000);        /* the tag byte cleared */
	assert_int_equal(r.phys_addr, 0x3006000);
	assert_int_equal(r.lat_total, 10);
	assert_int_equal(r.lat_issue, 7);
	assert_int_equal(r.lat_xlat, 3);
	assert_int_equal(r.source, 0xa);
	assert_int_equal(r.timestamp, 221);
	assert_true(r.op & SPE_OP_LD);
	assert_false(r.op & SPE_OP_ST);
	assert_int_equal(r.type, SPE_T_L1D_ACCESS | SPE_T_L1D_MISS | SPE_T_LLC_ACCESS);
	/* a kernel PC (EL1, non-secure) and a kernel-half VA get the top byte set */
	assert_int_equal(feed(&r, "b0 14 01 00 81 ff ff ff a0  49 a5  "
			 "20 b2 68 06 00 82 ff ff ff 00  01"), 1);
	assert_int_equal(r.from_ip, 0xffffff81000114ull | 0xffull << 56);
	assert_int_equal(r.virt_addr, 0xffffffff82000668ull);
	assert_true(r.op & SPE_OP_ST);
	assert_int_equal(r.timestamp, 0);                /* ended by END */
	assert_int_equal(r.context_id, UINT64_MAX);
	/* OP TYPE of class 3: perf's packet error */
	assert_int_equal(feed(&r, "b0 00 17 40 00 00 00 00 80  4b 00"), -1);
}

static uint64_t ds_of(const char *hex, uint64_t midr)
{
	struct spe_record r;

	feed(&r, hex);
	return spe_data_src(&r, midr);
}

#define LOADW(lvl, snoop, lnum) ((uint64_t)DSRC_OP_LOAD << DSRC_OP_SHIFT | \
	(uint64_t)(lvl) << DSRC_LVL_SHIFT | (uint64_t)(snoop) << DSRC_SNOOP_SHIFT | \
	(uint64_t)(lnum) << DSRC_LVLNUM_SHIFT)

/* The Neoverse table on N1/N2/V1, the generic one (events) elsewhere; stores have no level on
 * Neoverse; what is no load or store has no data source (no sample). */
static void test_data_source(void **state)
{
	const char *peer = "49 00  42 0e  43 09  01", *l1 = "49 00  42 06  43 00  01";
	uint64_t w;

	(void)state;
	assert_int_equal(ds_of(l1, N1), LOADW(DSRC_LVL_L1 | DSRC_LVL_HIT, DSRC_SNOOP_NONE,
					       DSRC_LVLNUM_L1));
	w = ds_of(peer, N2);   /* peer core: L2 hit, snoop peer */
	assert_int_equal(w, LOADW(DSRC_LVL_L2 | DSRC_LVL_HIT, 0, DSRC_LVLNUM_L2) |
			 (uint64_t)DSRC_SNOOPX_PEER << DSRC_SNOOPX_SHIFT);
	w = ds_of("49 00  43 0c  01", V1);   /* peer cluster: L3 hit, snoop peer */
	assert_int_equal(w, LOADW(DSRC_LVL_L3 | DSRC_LVL_HIT, 0, DSRC_LVLNUM_L3) |
			 (uint64_t)DSRC_SNOOPX_PEER << DSRC_SNOOPX_SHIFT);
	w = ds_of("49 00  43 0d  01", N1);   /* remote */
	assert_int_equal(w, LOADW(DSRC_LVL_NA, 0, DSRC_LVLNUM_NA) |
			 (uint64_t)DSRC_REMOTE << DSRC_REMOTE_SHIFT |
			 (uint64_t)DSRC_SNOOPX_PEER << DSRC_SNOOPX_SHIFT);
	w = ds_of("49 01  43 0c  01", N1);   /* a store: no level */
	assert_int_equal(w, (uint64_t)DSRC_OP_STORE << DSRC_OP_SHIFT |
			 (uint64_t)DSRC_LVL_NA << DSRC_LVL_SHIFT |
			 (uint64_t)DSRC_SNOOP_NA << DSRC_SNOOP_SHIFT |
			 (uint64_t)DSRC_LVLNUM_NA << DSRC_LVLNUM_SHIFT);
	/* generic: the same peer record is an L1 miss by its events; LLC and remote events */
	assert_int_equal(ds_of(peer, V2), LOADW(DSRC_LVL_L1 | DSRC_LVL_MISS, 0, 0));
	assert_int_equal(ds_of("49 00  52 0e 03  43 09  01", V2),
			 LOADW(DSRC_LVL_L3 | DSRC_LVL_MISS, 0, 0));
	assert_int_equal(ds_of("49 00  52 00 04  01", V2),
			 LOADW(0, 0, 0) | (uint64_t)DSRC_REMOTE << DSRC_REMOTE_SHIFT);
	/* TLB events on either table */
	assert_int_equal(ds_of("49 00  42 36  43 00  01", N1) >> DSRC_TLB_SHIFT & 0x7f, 0x24);
	assert_int_equal(ds_of("49 00  42 16  43 00  01", V2) >> DSRC_TLB_SHIFT & 0x7f, 0x22);
	/* a branch or other operation: no sample */
	assert_int_equal(ds_of("4a 01  42 02  01", N1), 0);
	assert_int_equal(ds_of("48 02  43 00  01", N1), 0);
}

/* TIME_CONV both ways, with the short-counter correction. */
static void test_time_conv(void **state)
{
	struct spe_tc tc = { .time_shift = 24, .time_mult = 40u << 24 /* 40 ns a tick */,
			     .time_zero = 1000 };
	uint64_t ns;

	(void)state;
	ns = spe_tsc_to_perf(1000000, &tc);
	assert_int_equal(ns, 1000 + 40000000);
	assert_int_equal(spe_perf_to_tsc(ns, &tc), 1000000);
	tc.cap_user_time_short = 1;
	tc.time_cycles = 0x100000000ull;
	tc.time_mask = 0xffffffffull;
	assert_int_equal(spe_tsc_to_perf(5, &tc), spe_tsc_to_perf(0x100000005ull,
				&(struct spe_tc){ .time_shift = 24, .time_mult = tc.time_mult,
						  .time_zero = 1000 }));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packets),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_desc_bounds),
		cmocka_unit_test(test_midr),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_data_source),
		cmocka_unit_test(test_time_conv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

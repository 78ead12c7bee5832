/* Arm SPE packets (see spe.h): the header forms of the Arm ARM (D10.1) as perf 6.1's
 * arm-spe-pkt-decoder.c recognizes them, in its order of tests:
 *
 *   0x00 PAD, 0x01 END, 0x71 TIMESTAMP (8 bytes)
 *   h & 0xcf == 0x42 EVENTS, == 0x43 DATA SOURCE   (payload size 1 << ((h >> 4) & 3))
 *   h & 0xfc == 0x64 CONTEXT (4 bytes, index h & 3), == 0x48 OP TYPE (1 byte, class h & 3)
 *   h & 0xfc == 0x20 extended header: the second byte h1 says the rest
 *       h1 == 0x00 alignment padding to 1 << ((h & 0xf) + 1) bytes
 *   (h or h1) & 0xf8 == 0xb0 ADDRESS (8 bytes), == 0x98 COUNTER (2 bytes);
 *       index h & 7, or ((h0 & 3) << 3) | (h1 & 7) with an extended header
 *
 * The payload size always comes from bits 5:4 of the byte that names the packet (h, or h1 of an
 * extended header). Payloads are little-endian. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/read/spe.h"

static unsigned int payload_len(uint8_t hdr)
{
	return 1u << ((hdr >> 4) & 3);
}

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* The payload after @ext extra header bytes, sized by the naming byte buf[ext]. */
static int get_payload(const uint8_t *buf, size_t len, unsigned int ext, struct spe_pkt *p)
{
	unsigned int n = payload_len(buf[ext]);

	if (len < 1 + ext + n)
		return SPE_PKT_NEED_MORE;
	p->payload = le(buf + 1 + ext, n);
	return (int)(1 + ext + n);
}

static int get_alignment(const uint8_t *buf, size_t len, uint64_t addr, struct spe_pkt *p)
{
	unsigned int alignment = 1u << ((buf[0] & 0xf) + 1);

	if (len < alignment)
		return SPE_PKT_NEED_MORE;
	p->type = SPE_PKT_PAD;
	return (int)(alignment - (addr & (alignment - 1)));
}

static int get_indexed(const uint8_t *buf, size_t len, unsigned int ext, enum spe_pkt_type t,
		       struct spe_pkt *p)
{
	p->type = t;
	p->ext = (uint8_t)ext;
	p->index = ext ? (uint8_t)((buf[0] & 3) << 3 | (buf[1] & 7)) : (uint8_t)(buf[0] & 7);
	return get_payload(buf, len, ext, p);
}

static int get_one(const uint8_t *buf, size_t len, uint64_t addr, struct spe_pkt *p)
{
	uint8_t h;
	unsigned int ext = 0;

	memset(p, 0, sizeof(*p));
	if (!len)
		return SPE_PKT_NEED_MORE;
	h = buf[0];
	if (h == 0x00) {
		p->type = SPE_PKT_PAD;
		return 1;
	}
	if (h == 0x01) {
		p->type = SPE_PKT_END;
		return 1;
	}
	if (h == 0x71) {
		p->type = SPE_PKT_TIMESTAMP;
		return get_payload(buf, len, 0, p);
	}
	if ((h & 0xcf) == 0x42 || (h & 0xcf) == 0x43) {
		p->type = (h & 0xcf) == 0x42 ? SPE_PKT_EVENTS : SPE_PKT_DATA_SOURCE;
		if (p->type == SPE_PKT_EVENTS)   /* perf keeps the payload size as the index */
			p->index = (uint8_t)payload_len(h);
		return get_payload(buf, len, 0, p);
	}
	if ((h & 0xfc) == 0x64 || (h & 0xfc) == 0x48) {
		p->type = (h & 0xfc) == 0x64 ? SPE_PKT_CONTEXT : SPE_PKT_OP_TYPE;
		p->index = h & 3;
		return get_payload(buf, len, 0, p);
	}
	if ((h & 0xfc) == 0x20) {
		if (len == 1)
			return SPE_PKT_INVALID;
		ext = 1;
		h = buf[1];
		if (h == 0x00)
			return get_alignment(buf, len, addr, p);
	}
	if ((h & 0xf8) == 0xb0)
		return get_indexed(buf, len, ext, SPE_PKT_ADDRESS, p);
	if ((h & 0xf8) == 0x98)
		return get_indexed(buf, len, ext, SPE_PKT_COUNTER, p);
	return SPE_PKT_INVALID;
}

int spe_pkt_get(const uint8_t *buf, size_t len, uint64_t addr, struct spe_pkt *p)
{
	int n = get_one(buf, len, addr, p);

	if (n > 0 && p->type == SPE_PKT_PAD)
		while (n < 16 && len > (size_t)n && !buf[n])
			n++;
	return n;
}

/* ---- perf report -D descriptions --------------------------------------------------------- */

struct out {
	char *p;
	size_t left;
	int err;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->err || !o->left)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->p, o->left, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->left) {
		o->err = -1;
		return;
	}
	o->p += n;
	o->left -= (size_t)n;
}

static const char *const pkt_name[] = {
	[SPE_PKT_BAD] = "BAD", [SPE_PKT_PAD] = "PAD", [SPE_PKT_END] = "END",
	[SPE_PKT_TIMESTAMP] = "TS", [SPE_PKT_ADDRESS] = "ADDR", [SPE_PKT_COUNTER] = "LAT",
	[SPE_PKT_CONTEXT] = "CONTEXT", [SPE_PKT_OP_TYPE] = "OP-TYPE", [SPE_PKT_EVENTS] = "EV",
	[SPE_PKT_DATA_SOURCE] = "DATA-SOURCE",
};

static void desc_events(struct out *o, uint64_t v, unsigned int size)
{
	static const struct { unsigned int bit, min_size; const char *name; } ev[] = {
		{ SPE_EV_EXCEPTION, 1, "EXCEPTION-GEN" }, { SPE_EV_RETIRED, 1, "RETIRED" },
		{ SPE_EV_L1D_ACCESS, 1, "L1D-ACCESS" }, { SPE_EV_L1D_REFILL, 1, "L1D-REFILL" },
		{ SPE_EV_TLB_ACCESS, 1, "TLB-ACCESS" }, { SPE_EV_TLB_WALK, 1, "TLB-REFILL" },
		{ SPE_EV_NOT_TAKEN, 1, "NOT-TAKEN" }, { SPE_EV_MISPRED, 1, "MISPRED" },
		{ SPE_EV_LLC_ACCESS, 2, "LLC-ACCESS" }, { SPE_EV_LLC_MISS, 2, "LLC-REFILL" },
		{ SPE_EV_REMOTE_ACCESS, 2, "REMOTE-ACCESS" }, { SPE_EV_ALIGNMENT, 2, "ALIGNMENT" },
		{ SPE_EV_PARTIAL_PRED, 4, "SVE-PARTIAL-PRED" },
		{ SPE_EV_EMPTY_PRED, 4, "SVE-EMPTY-PRED" },
	};
	size_t i;

	put(o, "EV");
	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (size >= ev[i].min_size && (v & (1ull << ev[i].bit)))
			put(o, " %s", ev[i].name);
}

static void desc_op(struct out *o, unsigned int cls, uint64_t v)
{
	switch (cls) {
	case SPE_OP_CLASS_OTHER:
		if ((v & 0x89) == 0x8) {   /* SVE-OTHER */
			put(o, "SVE-OTHER EVLEN %d", 32 << ((v >> 4) & 7));
			if (v & 0x2)
				put(o, " FP");
			if (v & 0x4)
				put(o, " PRED");
		} else {
			put(o, "OTHER %s", v & 1 ? "COND-SELECT" : "INSN-OTHER");
		}
		break;
	case SPE_OP_CLASS_LDST:
		put(o, "%s", v & 1 ? "ST" : "LD");
		if ((v & 0xe2) == 0x02) {   /* GP-REG with atomic/exclusive/acquire-release bits */
			if (v & 0x04)
				put(o, " AT");
			if (v & 0x08)
				put(o, " EXCL");
			if (v & 0x10)
				put(o, " AR");
		}
		switch (v & 0xfe) {
		case 0x4: put(o, " SIMD-FP"); break;
		case 0x0: put(o, " GP-REG"); break;
		case 0x10: put(o, " UNSPEC-REG"); break;
		case 0x30: put(o, " NV-SYSREG"); break;
		default: break;
		}
		if ((v & 0x0a) == 0x08) {   /* SVE load/store */
			put(o, " EVLEN %d", 32 << ((v >> 4) & 7));
			if (v & 0x4)
				put(o, " PRED");
			if (v & 0x80)
				put(o, " SG");
		}
		break;
	case SPE_OP_CLASS_BRANCH:
		put(o, "B");
		if (v & 1)
			put(o, " COND");
		if ((v & 0xfe) == 0x2)
			put(o, " IND");
		break;
	default:   /* class 3: perf prints it raw */
		put(o, "OP-TYPE 0x%" PRIx64 " (%u)", v, cls);
	}
}

static void desc_addr(struct out *o, unsigned int idx, uint64_t v)
{
	uint64_t a = v & ((1ull << 56) - 1);

	switch (idx) {
	case SPE_ADDR_PC: case SPE_ADDR_BRANCH:
		put(o, "%s 0x%" PRIx64 " el%d ns=%d", idx ? "TGT" : "PC", a, (int)(v >> 61) & 3,
		    (int)(v >> 63));
		break;
	case SPE_ADDR_DATA_VA:
		put(o, "VA 0x%" PRIx64, v);
		break;
	case SPE_ADDR_DATA_PA:
		put(o, "PA 0x%" PRIx64 " ns=%d ch=%d pat=%x", a, (int)(v >> 63), (int)(v >> 62) & 1,
		    (unsigned int)(v >> 56) & 0xf);
		break;
	default:   /* perf 6.1 knows no other index (the previous branch target, 4, came later) */
		put(o, "ADDR 0x%" PRIx64 " (%u)", v, idx);
	}
}

static void desc_counter(struct out *o, unsigned int idx, uint64_t v)
{
	put(o, "LAT %d ", (int)(unsigned short)v);
	if (idx == SPE_CNT_TOTAL)
		put(o, "TOT");
	else if (idx == SPE_CNT_ISSUE)
		put(o, "ISSUE");
	else if (idx == SPE_CNT_XLAT)
		put(o, "XLAT");
}

int spe_pkt_desc(const struct spe_pkt *p, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	const char *name = p->type <= SPE_PKT_DATA_SOURCE ? pkt_name[p->type] : "?";

	switch (p->type) {
	case SPE_PKT_BAD: case SPE_PKT_PAD: case SPE_PKT_END:
		put(&o, "%s", name);
		break;
	case SPE_PKT_EVENTS: desc_events(&o, p->payload, p->index); break;
	case SPE_PKT_OP_TYPE: desc_op(&o, p->index, p->payload); break;
	case SPE_PKT_DATA_SOURCE: case SPE_PKT_TIMESTAMP:
		put(&o, "%s %lld", name, (long long)p->payload);
		break;
	case SPE_PKT_ADDRESS: desc_addr(&o, p->index, p->payload); break;
	case SPE_PKT_CONTEXT:
		put(&o, "%s 0x%lx el%d", name, (unsigned long)p->payload, p->index + 1);
		break;
	case SPE_PKT_COUNTER: desc_counter(&o, p->index, p->payload); break;
	default:
		o.err = -1;
	}
	if (!o.err)
		return 0;
	o = (struct out){ buf, len, 0 };
	put(&o, "%s 0x%llx (%d)", name, (unsigned long long)p->payload, p->index);
	return -1;
}

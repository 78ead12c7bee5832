/* numfmt: the few printf conversions the report's tables repeat for every row, written out:
 * the same bytes as snprintf's "%llu", "0x%llx", "%.2f%%" and "%6.0f" (glibc's rounding of the
 * double's exact value, ties to even), at a fraction of the cost (a 1M-sample report printed
 * 164,000 cells through snprintf, a quarter of its reading thread's instructions). Each writes a
 * NUL-terminated string at @out, which has room for 32 bytes, and returns its length. */
#ifndef C2C_REPORT_MODEL_NUMFMT_H
#define C2C_REPORT_MODEL_NUMFMT_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

_Static_assert(LDBL_MANT_DIG >= 64, "numfmt_round() needs a long double holding a double x 100");

/* "%llu" */
static inline size_t numfmt_u64(char *out, uint64_t v)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
	return n;
}

/* "0x%llx" */
static inline size_t numfmt_hex(char *out, uint64_t v)
{
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	out[0] = '0';
	out[1] = 'x';
	for (i = 0; i < n; i++)
		out[2 + i] = tmp[n - 1 - i];
	out[2 + n] = '\0';
	return n + 2;
}

/* @x (finite, 0 <= x < 2^63) times 10^@digits, rounded to an integer as printf rounds: to nearest,
 * ties to even. x * 100 of a double is exact in the x87 80-bit format (53 + 7 bits), and x alone
 * for digits 0; the fraction left after the floor is exact too. */
static inline uint64_t numfmt_round(double x, int digits)
{
	long double v = (long double)x * (digits == 2 ? 100.0L : 1.0L), fl, frac;
	uint64_t k;

	k = (uint64_t)v;              /* truncation: the floor of a non-negative value */
	fl = (long double)k;
	frac = v - fl;
	if (frac > 0.5L || (frac == 0.5L && (k & 1)))
		k++;
	return k;
}

/* "%.2f%%" of a percentage 0 <= x < 2^53 */
static inline size_t numfmt_pct2(char *out, double x)
{
	uint64_t k = numfmt_round(x, 2);
	size_t n = numfmt_u64(out, k / 100);

	out[n++] = '.';
	out[n++] = (char)('0' + k / 10 % 10);
	out[n++] = (char)('0' + k % 10);
	out[n++] = '%';
	out[n] = '\0';
	return n;
}

/* "%6.0f" of 0 <= x < 2^63 */
static inline size_t numfmt_f0w6(char *out, double x)
{
	char d[24];
	size_t n = numfmt_u64(d, numfmt_round(x, 0)), pad = n < 6 ? 6 - n : 0, i;

	for (i = 0; i < pad; i++)
		out[i] = ' ';
	for (i = 0; i <= n; i++)
		out[pad + i] = d[i];
	return pad + n;
}

#endif

/* spe-dump: the Arm SPE packets of AUX buffers in a file, walked as perf 6.1's arm_spe_dump() walks
 * them for `perf report -D` (a packet, or "Bad packet!" and one byte on), one line each:
 *   OFFSET-IN-BUFFER LENGTH DESCRIPTION
 * for tests/e2e/perfdata-spe.sh to compare with perf's lines. Usage:
 *   spe-dump FILE < "DATA-OFFSET SIZE" lines (where each AUXTRACE payload lies in FILE)
 * Alignment packets pad to the file offset, as in perf's dump of a mapped file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/read/spe.h"

int main(int argc, char **argv)
{
	unsigned long long off, size;
	FILE *f;
	int rc = 0;

	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: spe-dump FILE < 'DATA-OFFSET SIZE' lines\n");
		return 2;
	}
	while (scanf("%llu %llu", &off, &size) == 2) {
		uint8_t *buf = size && size < (1u << 30) ? malloc((size_t)size) : NULL;
		size_t pos = 0;

		if (!buf || fseek(f, (long)off, SEEK_SET) || fread(buf, 1, (size_t)size, f) != size) {
			fprintf(stderr, "spe-dump: '%s': no %llu bytes at offset %llu\n", argv[1], size,
				off);
			free(buf);
			rc = 1;
			break;
		}
		while (pos < size) {
			struct spe_pkt p;
			char desc[256];
			int n = spe_pkt_get(buf + pos, (size_t)size - pos, off + pos, &p);

			if (n > 0)   /* perf prints no description when it has none */
				printf("%zx %d %s\n", pos, n,
				       spe_pkt_desc(&p, desc, sizeof(desc)) ? "" : desc);
			else
				printf("%zx %d Bad packet!\n", pos, n = 1);
			pos += (size_t)n;
		}
		free(buf);
	}
	fclose(f);
	return rc;
}

/* Types shared by the symbolization test programs and tests/test_symbols.c, which computes the
 * expected member addresses with offsetof() on the same definitions. */
#ifndef SYMPROG_H
#define SYMPROG_H

struct _buf {
	long lock0;
	long pad[6];
	long lock1;
};

struct stat_s {
	int hits;
	int misses;
	long total;
};

struct pos {
	long a, b;
};

struct queue {
	struct pos tail;
	__int128 head;
	char tag;        /* followed by 15 bytes of padding */
};

struct nest {
	int id;
	struct {
		struct stat_s inner[2];
	} grp;
	union {
		long word;
		char bytes[8];
	};
};

#endif

/* Pointers computed before the loop that uses them, for tests/test_symtype.c: the base register
 * of the access holds no DWARF variable, but what the code put in it is followed back to one
 * (pointer arithmetic, a member's address, an index scaled by shl). Built at -O0, -O1 and -O2. */
#include <stddef.h>

#define NOINLINE __attribute__((noinline, used))

/* hardware-effects' false-sharing.cpp: memory[target] through a pointer made before the loops,
 * advanced by 8 a step in the inner loop at -O2 */
NOINLINE void thread_fn(int tid, int increment, size_t *memory, int size, long reps)
{
	int target = tid * increment;

	for (long r = 0; r < reps; r++)
		for (int i = 0; i < size; i++)
			memory[target + i]++;
}

/* Phoenix's histogram: the member pointers hoisted out of the loop ("blue" is an int *) point
 * into *thread_arg: the object is that, not an int */
typedef struct {
	unsigned char *data;
	long data_pos;
	long data_len;
	int red[256];
	int green[256];
	int blue[256];
} thread_arg_t;

NOINLINE void *calc_hist(void *arg)
{
	thread_arg_t *thread_arg = (thread_arg_t *)arg;
	int *red = thread_arg->red, *green = thread_arg->green, *blue = thread_arg->blue;

	for (long i = thread_arg->data_pos; i < thread_arg->data_pos + thread_arg->data_len; i += 3) {
		blue[thread_arg->data[i]]++;
		green[thread_arg->data[i + 1]]++;
		red[thread_arg->data[i + 2]]++;
	}
	return NULL;
}

/* An element of an array member through a global pointer: gcc folds the member's offset into
 * the scaled index ((t + 1) << 4 at -O0), so the displacement alone lands on G->sp */
struct pad {
	int i, j, k, l;
};

struct glob {
	long *sp;
	long n;
	struct pad ints[8];
};

struct glob *G;

NOINLINE void bump_ints(long t, long reps)
{
	for (long r = 0; r < reps; r++)
		G->ints[t].i++;
}

int main(int argc, char **argv)
{
	static size_t memory[16];
	static unsigned char pixels[30];
	static thread_arg_t arg;
	static struct glob g;

	(void)argv;
	G = &g;
	arg.data = pixels;
	arg.data_len = 30;
	thread_fn(argc, 1, memory, 1, 10);
	calc_hist(&arg);
	bump_ints(argc, 10);
	return (int)memory[1];
}

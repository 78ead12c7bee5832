/* OpenMP's outlined functions, for tests/test_symtype.c: gcc makes "main._omp_fn.0" of the
 * parallel region, a DW_TAG_subprogram nested in main's DIE, and describes the variables it
 * shares with main through the block main passes ("sum" at *(.omp_data_i->sum)): the threads'
 * accesses to sum[id] name main's "sum". The Common Core's pi (fig. 4.6). */
#include <omp.h>

#define NTHREADS 4

static long num_steps = 100000;
double step;

int main(void)
{
	int actual_nthreads = 0;
	double pi = 0.0, sum[NTHREADS] = { 0.0 };

	step = 1.0 / (double)num_steps;
	omp_set_num_threads(NTHREADS);
#pragma omp parallel
	{
		int id = omp_get_thread_num();
		int numthreads = omp_get_num_threads();

		if (id == 0)
			actual_nthreads = numthreads;
		for (int i = id; i < num_steps; i += numthreads) {
			double x = (i + 0.5) * step;
			sum[id] += 4.0 / (1.0 + x * x);
		}
	}
	for (int i = 0; i < actual_nthreads; i++)
		pi += sum[i];
	return pi * step > 3.0 ? 0 : 1;
}

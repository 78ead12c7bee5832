! OpenMP in Fortran, for tests/test_symtype.c: gfortran's outlined "MAIN__._omp_fn.0" reaches the
! shared sum(0:3) at *(*(frame - 56) + 8) at -O0, which DWARF says; grid(4,8) is column major
! with bounds from 1: grid(2,3) is 72 bytes in, "grid[1][2]" in 0-based source order.
        PROGRAM MAIN
        USE OMP_LIB
        IMPLICIT NONE
        INTEGER :: i, id, numthreads
        REAL*8 :: x, pi, sum(0:3)
        REAL*8, SAVE :: grid(4,8)

        CALL OMP_SET_NUM_THREADS(4)
!$OMP PARALLEL PRIVATE(id,x,numthreads,i)
        id = omp_get_thread_num()
        numthreads = OMP_GET_NUM_THREADS()
        sum(id) = 0.0
        DO i = id, 99999, numthreads
           x = (i + 0.5) / 100000.0
           sum(id) = sum(id) + 4.0 / (1.0 + x * x)
        ENDDO
!$OMP END PARALLEL
        grid(2,3) = sum(0)
        pi = 0.0
        DO i = 0, 3
           pi = pi + sum(i)
        ENDDO
        PRINT *, pi / 100000.0 + grid(2,3)
        END PROGRAM MAIN

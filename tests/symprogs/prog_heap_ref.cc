// C++ references for tests/test_symtype.c: an object reached through a reference is named
// "s.b[2]", not "s->b[2]"; a pointer member loaded through it types the next access.
struct S {
	long a;
	int b[4];
	S *next;
};

extern "C" __attribute__((noinline, used)) long byref(S &s)
{
	return s.b[2] + s.next->a;
}

extern "C" __attribute__((noinline, used)) long byptr(const S *p)
{
	return p->a;
}

int main()
{
	S s{};

	s.next = &s;
	return (int)(byref(s) + byptr(&s));
}

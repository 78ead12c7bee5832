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

// Base classes are not named in member paths ("d[1].v", as C++ writes it); an empty base
// shares its offset with the first member ("s.h.p", not the empty base's padding).
struct Empty {
};

struct Hider : Empty {
	long *p;
};

struct Str {
	Hider h;
	long len;
};

extern "C" __attribute__((noinline, used)) long ebo(Str &s)
{
	return *s.h.p + s.len;
}

struct Base {
	long v;
};

struct Der : Base {
	long w;
};

extern "C" __attribute__((noinline, used)) long based(Der *d)
{
	return d[1].v + d->w;
}

int main()
{
	S s{};
	long x = 1;
	Str str{ { {}, &x }, 2 };
	Der d[2]{};

	s.next = &s;
	return (int)(byref(s) + byptr(&s) + ebo(str) + based(d));
}

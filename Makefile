# c2c-lite: one GNU Makefile, no configure step, out-of-tree build in $(BUILD).
#
#   make            build $(BUILD)/c2c-lite
#   make test       every cmocka suite (tests/test_*.c) and every end-to-end script (tests/e2e/*.sh)
#   make check      the same tests built with ASan+UBSan in build-san/
#   make bench      the benchmarks under bench/ (they print figures; nothing is asserted)
#   make fuzz       build the libFuzzer targets under fuzz/ with clang (FUZZ_SECONDS=N to run them)
#   make install    PREFIX=/usr/local DESTDIR=: the binary, the manual pages (docs/man), bash
#                   and zsh completion (scripts/completion), the trace headers, the examples
#                   (libexec/c2c-lite/examples: 'c2c-lite selftest --hw' records them), the
#                   region library (libc2c-region.a/.so, include/c2c/region.h, c2c-region.pc)
#
# Sources are found by pattern: a new lib/, report/, record/ or tui/ file, a new tests/test_*.c
# suite or a new tests/e2e/*.sh script needs no edit here.

BUILD   ?= build
PREFIX  ?= /usr/local
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
CC      ?= cc
PKGS    := libelf libdw ncursesw cmocka libzstd zlib capstone
Q       := $(if $(V),,@)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifeq ($(strip $(PKG_LIBS)),)
$(error pkg-config cannot find one of: $(PKGS); run: apt-get install pkg-config libelf-dev libdw-dev libncurses-dev libcmocka-dev libzstd-dev zlib1g-dev libcapstone-dev)
endif

# capstone is dlopen()ed when first used (lib/capstone.c), by the soname of the library built
# against: not linked, so that runs that never disassemble do not pay for loading it.
READELF ?= readelf
CAPSTONE_SONAME := $(shell $(READELF) -d $$(pkg-config --variable=libdir capstone)/libcapstone.so 2>/dev/null | sed -n 's/.*soname: \[\(.*\)\]/\1/p')
ifeq ($(strip $(CAPSTONE_SONAME)),)
$(error cannot read the soname of libcapstone.so with $(READELF); run: apt-get install binutils libcapstone-dev)
endif
PKG_LIBS := $(filter-out -lcapstone,$(PKG_LIBS)) -ldl

WARN    := -Wall -Wextra -Werror -Wstrict-prototypes -Wvla -Wwrite-strings -Wformat-security \
           -Wold-style-definition -Wpointer-arith -Wno-missing-field-initializers
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude -I. $(PKG_CFLAGS) -MMD -MP
LDLIBS  := $(PKG_LIBS) -lpthread -lm
# C++ names as perf 6.1 shows them: libiberty's cplus_demangle (libiberty-dev ships only a static
# archive and no pkg-config file). Without it the report keeps mangled names.
ifneq ($(wildcard /usr/include/libiberty/demangle.h),)
ALL_CFLAGS += -DC2C_HAVE_LIBIBERTY
LDLIBS  := $(PKG_LIBS) -liberty -lpthread -lm
endif

CORE_SRC  := $(wildcard lib/*.c report/*.c report/*/*.c record/*.c)
TUI_SRC   := $(wildcard tui/*.c)
TEST_SRC  := $(wildcard tests/test_*.c)
TOOL_SRC  := $(wildcard tests/tools/*.c)
BENCH_SRC := $(wildcard bench/*.c)
EX_SRC    := $(wildcard examples/*.c)

CORE_OBJ  := $(CORE_SRC:%.c=$(BUILD)/%.o)
TUI_OBJ   := $(TUI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  := $(TEST_SRC:%.c=$(BUILD)/%)
TOOL_BIN  := $(TOOL_SRC:%.c=$(BUILD)/%)
BENCH_BIN := $(BENCH_SRC:%.c=$(BUILD)/%)
EX_BIN    := $(EX_SRC:%.c=$(BUILD)/%)
LIBCORE   := $(BUILD)/libc2c.a
LIBTUI    := $(if $(TUI_OBJ),$(BUILD)/libc2c-tui.a)
BIN       := $(BUILD)/c2c-lite

# The region library (include/c2c/region.h), position-independent, as its own static and shared
# library: region.c and the TopDown formulas it prints with; nothing else.
REGION_SRC  := lib/region.c lib/topdown.c
REGION_PIC  := $(REGION_SRC:%.c=$(BUILD)/pic/%.o)
REGION_A    := $(BUILD)/libc2c-region.a
REGION_SO   := $(BUILD)/libc2c-region.so.0
VERSION     := $(shell sed -n 's/^\#define C2C_VERSION "\(.*\)"/\1/p' c2c-lite.c)

.PHONY: all test check bench fuzz install clean demo capstone-soname
all: $(BIN) $(TOOL_BIN) $(EX_BIN) $(REGION_A) $(REGION_SO)

$(BUILD)/lib/capstone.o: ALL_CFLAGS += -DC2C_CAPSTONE_SONAME='"$(CAPSTONE_SONAME)"'
$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBCORE): $(CORE_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<

$(REGION_A): $(REGION_PIC)
	$(Q)rm -f $@ && ar rcs $@ $^

$(REGION_SO): $(REGION_PIC)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libc2c-region.so.0 -o $@ $^ -lpthread

$(BUILD)/libc2c-tui.a: $(TUI_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(BUILD)/c2c-lite.o $(LIBTUI) $(LIBCORE)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Tests, tools, benchmarks and examples link the archives: only the members they use are pulled in.
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIBTUI) $(LIBCORE)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDFLAGS) $(LDLIBS)
# test_sperec stands in for the kernel's SPE driver: its fake event fds are memfds whose mmap and
# ioctl calls it answers.
$(BUILD)/tests/test_sperec: TEST_LDFLAGS += -Wl,--wrap=ioctl -Wl,--wrap=mmap
# c2c-gen's perf.data writer is a file of its own (tests/tools/gen/).
$(BUILD)/tests/tools/c2c-gen: $(BUILD)/tests/tools/c2c-gen.o $(BUILD)/tests/tools/gen/perf-writer.o \
		$(BUILD)/tests/tools/gen/spe-enc.o $(LIBCORE)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIBCORE)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# Examples are workloads: built with -O1 -g and frame pointers so their reports name their code.
$(BUILD)/examples/region: examples/region.c examples/pin.h examples/work.h include/c2c/region.h \
		$(REGION_A)
	@mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror $(EXTRA_CFLAGS) -Iinclude -o $@ $< $(REGION_A) -lpthread
$(BUILD)/examples/%: examples/%.c examples/pin.h examples/work.h
	@mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror $(EXTRA_CFLAGS) -o $@ $< -lpthread

test: all $(TEST_BIN)
	$(Q)BUILD=$(BUILD) bash tests/run.sh

check:
	$(Q)$(MAKE) --no-print-directory BUILD=build-san \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined" test

bench: all $(BENCH_BIN)
	$(Q)BUILD=$(BUILD) bash bench/run.sh

demo: all
	$(Q)BUILD=$(BUILD) bash examples/demo.sh

FUZZ_SECONDS ?= 0
# the soname lib/capstone.c is built with (fuzz/run.sh builds it too)
capstone-soname:
	@echo $(CAPSTONE_SONAME)
fuzz:
	$(Q)BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) bash fuzz/run.sh

install: $(BIN) $(EX_BIN) $(REGION_A) $(REGION_SO)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/c2c $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(PREFIX)/libexec/c2c-lite/examples $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/c2c-lite
	install -m 755 $(EX_BIN) $(DESTDIR)$(PREFIX)/libexec/c2c-lite/examples/
	install -m 644 include/c2c/trace.h include/c2c/soft.h include/c2c/region.h $(DESTDIR)$(PREFIX)/include/c2c/
	install -m 644 $(wildcard docs/man/man1/*.1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(wildcard docs/man/man5/*.5) $(DESTDIR)$(MANDIR)/man5/
	install -m 644 scripts/completion/c2c-lite.bash $(DESTDIR)$(BASHCOMPDIR)/c2c-lite
	install -m 644 scripts/completion/_c2c-lite $(DESTDIR)$(ZSHCOMPDIR)/_c2c-lite
	install -m 644 $(REGION_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(REGION_SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libc2c-region.so.0 $(DESTDIR)$(PREFIX)/lib/libc2c-region.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/c2c-region.pc.in \
		>$(DESTDIR)$(PREFIX)/lib/pkgconfig/c2c-region.pc

clean:
	rm -rf $(BUILD) build-san

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

#!/usr/bin/env bash
# Every kind of perf.data the real perf writes on this machine (issue "Read every perf.data that
# real perf writes", item 3). For each recording:
#  - perfdata-dump -P prints every sample exactly as `perf script -G --ns -F` prints it: comm,
#    pid/tid, cpu, time, event, the data address (for page faults with the symbol and map perf
#    script finds there), the ip with symbol+offset and map, phys_addr; the fields the file has
#    (perf script names those it lacks). In system-wide recordings other users' processes are
#    compared without symbols (their binaries may change under us), the workload's with them;
#  - perfdata-dump -M names each data address as perf report --mem-mode does (symbol_daddr,
#    dso_daddr: the map in the sample's own cpumode, as the report looks it up), per event and
#    address with the sample counts (not for system-wide recordings);
#  - c2c-lite report reads it without skipping a record, and where perf c2c report prints
#    statistics for it, c2c-lite prints the same.
# Recordings perf cannot make here (no memory PMU, no branch stacks, ...) are listed with perf's
# error. KEEP=1 keeps the files.
set -u
BUILD=${BUILD:-build}
C2C=$(realpath "${C2C:-$BUILD/c2c-lite}")
DUMP=$(realpath "$BUILD/tests/tools/perfdata-dump")
command -v perf >/dev/null || { echo "skip: perf is not installed"; exit 77; }
[ -x "$DUMP" ] || { echo "skip: $DUMP not built"; exit 77; }
tmp=$(mktemp -d)
probe=
bg=
cleanup() {
	[ -n "$bg" ] && kill "$bg" 2>/dev/null
	[ -n "$probe" ] && perf probe -q -d "$probe" 2>/dev/null
	[ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
cc=${CC:-cc}

# perf never reads $PERF_BUILDID_DIR (it sets it for its children): its build-id cache is where
# the config's buildid.dir says, ~/.debug by default. A config of our own keeps this test out of
# the user's cache and the user's cache out of this test; c2c-lite reads the same directory.
printf '[buildid]\n\tdir = %s\n' "$tmp/buildid" >"$tmp/perfconfig"
export PERF_CONFIG=$tmp/perfconfig PERF_BUILDID_DIR=$tmp/buildid

cat >"$tmp/mt.c" <<'EOF'
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* Three threads fault pages in; the main thread forks twice (one child execs /bin/true).
 * With argv[1] = N it goes on for N seconds. */
static int secs;
long counter;                     /* .bss */
int table[4096] = { 1 };          /* .data */
__attribute__((noinline)) void touch(char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 4096)
		p[i] = 1;
}
static void *worker(void *a)
{
	time_t end = time(NULL) + secs;

	(void)a;
	do {
		size_t n = 256 << 10;
		char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		touch(p, n);
		munmap(p, n);
		__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		usleep(secs ? 5000 : 100);
	} while (time(NULL) < end);
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t[3];

	secs = argc > 1 ? atoi(argv[1]) : 0;
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int k = 0; k < 2 + 4 * secs; k++) {
		pid_t c = fork();
		if (c == 0) {
			touch((char *)table, sizeof(table));
			if (k % 2)
				execl("/bin/true", "true", (char *)0);
			_exit(0);
		}
		waitpid(c, NULL, 0);
		usleep(secs ? 200000 : 1000);
	}
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
EOF
$cc -O1 -g -fno-omit-frame-pointer -pthread -o "$tmp/mt" "$tmp/mt.c" || fail "cc"
work=("$tmp/mt" 0)
if ! perf record -q -e page-faults -c 1 -d -o "$tmp/probe.data" -- "${work[@]}" 2>"$tmp/err"; then
	echo "skip: perf record fails here: $(grep -v '^$' "$tmp/err" | head -1)"
	exit 77
fi

stats() { awk '/Trace Event Information/ { p = 1 } /Shared Data Cache Line Table/ { p = 0 } p'; }
squeeze() { tr -s ' ' | sed 's/^ //; s/ $//'; }
# Run "perf CMD... -i FILE" on @in: a pipe-mode file is read from standard input, as perf wants.
perf_in() {  # IN CMD...
	local in=$1
	shift
	if [ -n "$pipe" ]; then perf "$@" -i - <"$in"; else perf "$@" -i "$in"; fi
}
nr=0 skipped=()

# compare NAME [sys]: the checks above on $tmp/NAME.data; sys: a system-wide recording.
compare() {
	local name=$1 sys=${2:-} f="$tmp/$1.data" bad i n
	local fields=comm,pid,tid,cpu,time,event,addr,ip,sym,symoff,dso,phys_addr
	for i in 1 2 3 4 5 6; do
		perf_in "$f" script -G --ns -F "$fields" >"$tmp/perf.txt" 2>"$tmp/err"
		bad=$(sed -n "s/.*Cannot print '\([a-z_]*\)' field.*/\1/p" "$tmp/err" | head -1)
		[ -z "$bad" ] && break
		fields=$(echo "$fields" | tr , '\n' | grep -vx "$bad" | paste -sd,)
	done
	[ -s "$tmp/perf.txt" ] || [ "$name" = nosamples ] || [ -n "${maybe_empty:-}" ] ||
		fail "$name: perf script shows no samples: $(head -1 "$tmp/err")"
	if [ -n "$pipe" ]; then "$DUMP" -P "$fields" - <"$f"; else "$DUMP" -P "$fields" "$f"; fi \
		>"$tmp/ours.txt" 2>"$tmp/dump.err" || fail "$name: perfdata-dump: $(head -1 "$tmp/dump.err")"
	squeeze <"$tmp/perf.txt" >"$tmp/perf.sq"
	squeeze <"$tmp/ours.txt" >"$tmp/ours.sq"
	if [ -n "$sys" ]; then
		# the workload's samples whole; everybody's without what follows the ip
		awk '$1 == "mt" || $1 == "true"' "$tmp/perf.sq" >"$tmp/perf.w"
		awk '$1 == "mt" || $1 == "true"' "$tmp/ours.sq" >"$tmp/ours.w"
		[ -s "$tmp/perf.w" ] || fail "$name: no sample of the workload"
		diff "$tmp/perf.w" "$tmp/ours.w" >"$tmp/diff" ||
			{ head -6 "$tmp/diff"; fail "$name: workload samples differ from perf script"; }
		# (every symbol and map: a page fault's data address has them too, mid-line)
		sed -i 's/ (\[\?[^ ]*)//g; s/ [^ ]*+0x[0-9a-f]*//g; s/ \[unknown\]//g' "$tmp/perf.sq"
		sed -i 's/ (\[\?[^ ]*)//g; s/ [^ ]*+0x[0-9a-f]*//g; s/ \[unknown\]//g' "$tmp/ours.sq"
	fi
	n=$(wc -l <"$tmp/ours.sq")
	diff "$tmp/perf.sq" "$tmp/ours.sq" >"$tmp/diff" ||
		{ head -6 "$tmp/diff"; fail "$name: samples differ from perf script ($fields)"; }
	local mem=
	if [ -z "$sys" ] && [ "$n" -gt 0 ] && [[ ,$fields, == *,addr,* ]]; then
		# "event samples [level] data-symbol data-object" per hist entry (event, address);
		# perf report once printed nothing for a pipe-mode file under load: asked up to 3 times
		for i in 1 2 3; do
			perf_in "$f" report --mem-mode --no-group -g none -F sample,symbol_daddr,dso_daddr \
				--stdio 2>"$tmp/mem.err" |
				awk '/^# Samples: / { split($0, q, "\047"); e = q[2]; next }
				     /^#/ || /^$/ { next } { print e, $0 }' |
				squeeze | sort >"$tmp/perf.mem"
			[ -s "$tmp/perf.mem" ] && break
			echo "note: $name: perf report --mem-mode printed nothing (try $i):" \
				"$(head -1 "$tmp/mem.err")"
		done
		if [ -n "$pipe" ]; then "$DUMP" -M - <"$f"; else "$DUMP" -M "$f"; fi |
			awk -F'\t' '{ k = $1 FS $2 FS $4; if (!(k in n)) s[k] = $3 " " $4; n[k]++ }
				    END { for (k in n) { split(k, a, FS); print a[1], n[k], s[k] } }' |
			sort >"$tmp/ours.mem"
		diff "$tmp/perf.mem" "$tmp/ours.mem" >"$tmp/diff" ||
			{ head -6 "$tmp/diff"; fail "$name: data symbols differ from perf report --mem-mode"; }
		mem="; data symbols as --mem-mode"
	fi
	# the report reads every record and agrees with perf c2c report's statistics
	if [ -n "$pipe" ]; then "$C2C" report --stdio -i - <"$f"; else "$C2C" report --stdio -i "$f"; fi \
		>"$tmp/rep" 2>"$tmp/rep.err" || fail "$name: c2c-lite report: $(head -1 "$tmp/rep.err")"
	grep -q "malformed or unattributable" "$tmp/rep.err" && fail "$name: $(cat "$tmp/rep.err")"
	stats <"$tmp/rep" >"$tmp/ours.st"
	perf_in "$f" c2c report --stdio 2>/dev/null | stats >"$tmp/perf.st"
	local st="no c2c statistics from perf"
	if [ -s "$tmp/perf.st" ]; then
		diff "$tmp/perf.st" "$tmp/ours.st" >"$tmp/diff" ||
			{ head -6 "$tmp/diff"; fail "$name: report statistics differ from perf c2c report"; }
		st="c2c statistics equal"
	fi
	nr=$((nr + 1))
	printf 'ok: %-12s %6d samples  %s%s; %s\n' "$name" "$n" "$fields" "$mem" "$st"
}

# rec NAME [must] [full] PERF-RECORD-OPTIONS... [-- COMMAND]: record $tmp/NAME.data (of the
# workload unless a command follows --) and compare it. Without "must" a recording perf refuses
# here is listed, not failed. Without "full" it is recorded with --no-bpf-event: perf's BPF
# side-band thread costs each recording 0.7 s of waiting.
rec() {
	local name=$1 must= fast=--no-bpf-event
	shift
	[ "$1" = must ] && { must=1; shift; }
	[ "$1" = full ] && { fast=; shift; }
	local args=($fast "$@")
	case " $* " in *" -- "*) ;; *) args+=(-- "${work[@]}") ;; esac
	pipe=
	perf record -o "$tmp/$name.data" "${args[@]}" >"$tmp/err" 2>&1
	local rc=$?
	if [ $rc -ne 0 ]; then
		local why="exit $rc: "
		why+=$(grep -v '^$\|^ *Usage\|^\[ perf record' "$tmp/err" | head -2 | tr '\n' ' ')
		[ -n "$must" ] && fail "perf record $*: $why"
		skipped+=("perf record $*: $why")
		return
	fi
	compare "$name" "${sys:-}"
}
# a pipe-mode recording (perf record -o -), read from standard input
recpipe() {
	local name=$1
	shift
	perf record -q -o - "$@" -- "${work[@]}" >"$tmp/$name.data" 2>"$tmp/err" ||
		fail "perf record -o - $*: $(head -1 "$tmp/err")"
	pipe=1
	compare "$name"
	pipe=
	# perf c2c report refuses pipe input ("Failed setup nodes"): the report of the stream must
	# equal c2c-lite's own of the same data as a file (perf inject)
	perf inject -i - -o "$tmp/$name.file" <"$tmp/$name.data" 2>/dev/null ||
		fail "perf inject of $name"
	"$C2C" report --stdio -i "$tmp/$name.file" 2>/dev/null | stats >"$tmp/file.st"
	diff -q "$tmp/ours.st" "$tmp/file.st" >/dev/null ||
		fail "$name: report statistics of the stream differ from the file's"
	echo "ok: $name        report of the stream as of the same data in a file"
}

sys=
rec base must full -e page-faults -c 1 -d
rec fields must -e page-faults -c 1 -d -W --phys-data --data-page-size --code-page-size --sample-cpu
rec z must -z -e page-faults -c 1 -d
rec sampleid must --sample-identifier -e page-faults -c 1 -d
rec freq must -F 2000 -e page-faults -d
rec notime must --no-timestamp -e page-faults -c 1 -d
rec T must -T -e page-faults -c 1 -d
rec noinherit must -i -e page-faults -c 1 -d
rec perthread must --per-thread -e page-faults -c 1 -d
rec fpchain must -g -e page-faults -c 1 -d
rec dwarf must --call-graph dwarf,4096 -e page-faults -c 1 -d
rec stat must -s -e page-faults -c 1 -d
rec group must --group -e page-faults -e minor-faults -c 1 -d
rec readgroup must -e '{page-faults,minor-faults}:S' -c 1 -d
rec sideband must --switch-events --namespaces --all-cgroups -e page-faults -c 1 -d
rec buildidmmap must --buildid-mmap -e page-faults -c 1 -d
rec clockid must -k CLOCK_MONOTONIC_RAW -e page-faults -c 1 -d
rec cpuclock must -e cpu-clock -c 20000 -d -W
rec tracepoint must -e sched:sched_switch -e sched:sched_process_fork -e page-faults -c 1 -d
rec aio must --aio -e page-faults -c 1 -d
rec nobuildid must -B -N --tail-synthesize -e page-faults -c 1 -d
rec overwrite must --overwrite --timestamp-boundary -e page-faults -c 1 -d
rec regs must --user-regs=ax,bx -I --transaction -e page-faults -c 1 -d
rec modes must --all-user -e page-faults -e minor-faults:k -c 1 -d
rec maxsize must --max-size=64K -e page-faults -c 1 -d
rec nosamples must -n -e page-faults -c 1 -d
rec threads must --threads -e page-faults -e minor-faults -c 1 -d
rec threadsz must --threads -z -e page-faults -c 1 -d
rec offcpu --off-cpu -e page-faults -c 1 -d
rec synthno --synth=no -e page-faults -c 1 -d
rec period must -P -e page-faults -c 1 -d
rec uid -u root -e page-faults -d -- sleep 0.1
sys=1
rec sys must full -a -d -e page-faults -e minor-faults -- "$tmp/mt" 1
rec sysrounds must -a -m 64 --mmap-flush=16 --affinity=cpu -e page-faults -c 1 -d
rec sysraw must -a -R -e sched:sched_switch
rec syscgroup must -a -e page-faults -G / -c 1 -d
sys=
recpipe pipe -e page-faults -c 1 -d
recpipe pipez -z -e page-faults -e minor-faults -c 1 -d --sample-identifier

# --switch-output: a new file every 16 KiB of records
perf record -q --no-bpf-event -o "$tmp/so.data" --switch-output=16K -e page-faults -c 1 -d \
	-- "${work[@]}" >/dev/null 2>"$tmp/err" ||
	fail "perf record --switch-output: $(head -1 "$tmp/err")"
i=0
maybe_empty=1   # a file may hold side-band only
for f in "$tmp"/so.data.*; do
	i=$((i + 1))
	mv "$f" "$tmp/switch$i.data"
	compare "switch$i"
done
maybe_empty=
[ $i -ge 2 ] || fail "perf record --switch-output=16K wrote $i files"
[ "$(perf script -i "$tmp/switch1.data" 2>/dev/null | wc -l)" -gt 0 ] || fail "switch1: no samples"

# a pipe-mode file read from a FIFO, by the dump and by the report
mkfifo "$tmp/fifo"
cat "$tmp/pipe.data" >"$tmp/fifo" &
"$DUMP" -P comm,pid,tid,time,event,addr,ip,sym,symoff,dso "$tmp/fifo" | squeeze >"$tmp/fifo.sq"
perf script -G --ns -F comm,pid,tid,time,event,addr,ip,sym,symoff,dso -i - <"$tmp/pipe.data" |
	squeeze >"$tmp/perf.sq"
diff -q "$tmp/perf.sq" "$tmp/fifo.sq" >/dev/null || fail "pipe-mode data from a FIFO differs"
echo "ok: pipe        from a FIFO as from standard input"

# -p of a process started earlier (threads that fork and exec), -t of one of its threads
"$tmp/mt" 60 &  # outlives the recordings below whatever the load; killed after them
bg=$!
sleep 0.3
tid=$(ls "/proc/$bg/task" | sort -n | sed -n 2p)
rec tid must -e page-faults -c 1 -d -t "$tid" -- sleep 0.2
rec pid must full -e page-faults -e minor-faults -d -p "$bg" -- sleep 0.4
kill "$bg" 2>/dev/null
wait "$bg" 2>/dev/null
bg=

# a uprobe on the workload's touch()
if perf probe -q -x "$tmp/mt" touch 2>"$tmp/err"; then
	probe=probe_mt:touch
	rec uprobe must -e "$probe" -e page-faults -c 1 -d
	perf probe -q -d "$probe"
	probe=
else
	skipped+=("perf probe -x mt touch: $(head -1 "$tmp/err")")
fi

# perf's other recorders (system-wide ones compared as such), the memory-event ones included,
# and what needs a hardware PMU
for what in "sched record" "trace record" "kmem record" "c2c record" "mem record"; do
	if perf $what -o "$tmp/m.data" -- "${work[@]}" >/dev/null 2>"$tmp/err"; then
		pipe=
		mv "$tmp/m.data" "$tmp/${what% *}.data"
		case $what in sched*|kmem*) compare "${what% *}" sys ;; *) compare "${what% *}" ;; esac
	else
		skipped+=("perf $what: $(grep -v '^$' "$tmp/err" | head -1)")
	fi
done
rec branch -b -e page-faults -c 1 -d
rec lbr --call-graph lbr -e cpu-clock
rec kcore --kcore -e page-faults -c 1 -d

for s in "${skipped[@]+"${skipped[@]}"}"; do echo "not recordable here: $s"; done
[ "$nr" -ge 40 ] || fail "only $nr recordings compared"
echo "$nr recordings compared with perf"
exit 0

# Helpers sourced by e2e scripts that have tests/tools/c2c-gen map real binaries (`-s spec
# --spec FILE`): a subdirectory, so tests/run.sh does not run it.
[ "${BASH_SOURCE[0]}" = "$0" ] && exit 0

# hex(s): the value of "0x1f" or "1f" (mawk has no strtonum)
HEX='function hex(s,  i, v) { sub(/^0x/, "", s); v = 0
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v }'

# spec_maps FILE BASE BUILDID|- : MMAP2 lines of FILE loaded at BASE, as the kernel maps it
spec_maps() {
	local bin=$1 base=$2 bid=$3 dev ino maj min
	dev=$(stat -L -c '%D' "$bin") ino=$(stat -L -c '%i' "$bin")
	maj=$(( (0x$dev >> 8) & 0xfff )) min=$(( (0x$dev & 0xff) | ((0x$dev >> 12) & 0xfff00) ))
	# PT_LOAD: Offset VirtAddr PhysAddr FileSiz MemSiz Flg(s) Align. The kernel maps the pages
	# holding [vaddr, vaddr + filesz) from the page of offset; the rest of memsz is anonymous.
	# (mawk prints numbers up to 32 bits in hex: the base is added by bash)
	readelf -lW "$bin" | awk "$HEX"'
		$1 == "LOAD" {
			off = hex($2); va = hex($3); fs = hex($5)
			prot = 0; flg = ""
			for (i = 7; i < NF; i++) flg = flg $i
			if (flg ~ /R/) prot += 1; if (flg ~ /W/) prot += 2; if (flg ~ /E/) prot += 4
			s = va - va % 4096; e = va + fs; if (e % 4096) e += 4096 - e % 4096
			printf "%d %d %d %d\n", s, e - s, off - off % 4096, prot
		}' | while read -r s len pgoff prot; do
		printf 'map %x %x %x %x %x %x %x %s %s\n' $((base + s)) "$len" "$pgoff" "$prot" \
			"$maj" "$min" "$ino" "$bid" "$bin"
	done
}

# bid_of FILE: its GNU build-id in hex
bid_of() { readelf -nW "$1" | awk '/Build ID:/ { print $NF; exit }'; }

#!/bin/sh
# guest/build.sh -- build the guest libc and programs (irix-emu).
#
#   guest/build.sh           build everything into guest/bin/{irix,linux}/
#   guest/build.sh --check   rebuild into a temporary directory and compare
#                            byte for byte with the committed binaries;
#                            exit 1 naming every file that differs.
#   guest/build.sh --program FILE.c [OUTPUT]
#                            build one program of your own (C or assembly)
#                            for IRIX with the guest libc, with -g, into
#                            OUTPUT (default: FILE without its suffix).
#
# Toolchain: Debian's gcc-mips-linux-gnu / binutils-mips-linux-gnu
# (override the prefix with CROSS=...). Each personality (irix, linux) gets
# its own libc build (-DGUEST_IRIX / -DGUEST_LINUX: system call numbers,
# stat and break semantics); the programs are the same sources.
# Every build also disassembles its output and fails on any instruction an
# R4000 running an o32 process cannot execute.
set -eu

GUEST=$(cd "$(dirname "$0")" && pwd)
CROSS=${CROSS:-mips-linux-gnu-}
CC=${CROSS}gcc
AR=${CROSS}ar
OBJDUMP=${CROSS}objdump

# Programs for both personalities (run under qemu-mips and irix-emu alike).
COMMON="hello args_env fileio workload fault_segv fault_divzero fault_overflow fpu_print exit_status exact_loops"
# Programs that only make sense on IRIX (profiling, processes, signals).
IRIX_ONLY="prof_profil prof_sprofil prof_fast prof_errors prof_pcsample
proc_fork_profil proc_exec proc_pcsample_fork proc_pipeline
proc_sigsegv_handler proc_kill_child proc_deadlock
prof_times prof_scale proc_exec_profil_off proc_times_child proc_sproc sys_calls proc_stop_cont
fault_divzero_break elfmap_errors
limit_break_slot limit_fork limit_mmap_loop limit_stack_copyout limit_exec limit_big_bss
limit_brk_loop limit_fifo limit_sprofil_loop limit_sockets proc_locks mem_shared
io_calls sig_timers sig_calls
cg_recursion cg_fnptr cg_longjmp cg_signal cg_tailcall cg_exit_deep cg_killed cg_fork cg_sproc
gdb_target fs_files fs_escape id_calls proc_limits proc_wait_stopped proc_exec_script mem_hints
proc_names sig_stack usema_poll times_calls mem_direct
ipc_msg ipc_sem ipc_shm ipc_shm_split ipc_shm_sproc net_unix net_inet net_host net_rights net_oob"
# Programs for the debugger tests: with DWARF and no optimisation, so GDB
# sees every line and local.
DEBUG_PROGS="gdb_target"

LIBC_COMMON="crt0.S syscall.S errno.c string.c stdlib.c malloc.c stdio.c fmt_float.c libgcc.c stat.c setjmp.S"
LIBC_IRIX="signal.c sigtramp.S wait.c profiling.c"

# Freestanding o32 for an R4000: MIPS III ISA, 32-bit GPRs and FR=0 FPU
# registers, no PIC, no small data; -fno-builtin and
# -fno-tree-loop-distribute-patterns keep gcc from calling (or becoming)
# memcpy/memset/printf variants behind our back; -fno-reorder-functions and
# -fno-toplevel-reorder keep functions in source order (the profiling
# programs name functions by address ranges);
# the prefix map and -fno-ident keep paths and version strings out, for
# byte-reproducible output.
CFLAGS="-O2 -march=mips3 -mabi=32 -mfp32 -mno-odd-spreg -mhard-float
-mno-abicalls -fno-pic -G0 -ffreestanding -fno-builtin
-fno-tree-loop-distribute-patterns -fno-math-errno -fno-stack-protector
-fno-asynchronous-unwind-tables -fno-unwind-tables -fno-ident
-fno-reorder-functions -fno-toplevel-reorder -nostdinc -I$GUEST/include
-ffile-prefix-map=$GUEST/= -Wall -Wextra -Wno-unused-parameter -Werror"
LDFLAGS="-nostdlib -static -no-pie -Wl,-Ttext-segment=0x400000
-Wl,--build-id=none"

# Mnemonics an R4000 lacks (MIPS IV/V, MIPS32/64 r1/r2), plus 64-bit
# integer operations, which trap in an o32 (32-bit user mode) process.
FORBIDDEN='mul|madd|maddu|msub|msubu|movn|movz|movf|movt|seb|seh|wsbh|ext|ins|clz|clo|dclz|dclo|rotr|rotrv|drotr|pref|prefx|lwxc1|ldxc1|swxc1|sdxc1|luxc1|suxc1|madd\.[sd]|msub\.[sd]|nmadd\.[sd]|nmsub\.[sd]|recip\.[sd]|rsqrt\.[sd]|movn\.[sd]|movz\.[sd]|movf\.[sd]|movt\.[sd]|di|ei|rdhwr|synci|ehb|dadd|daddu|daddi|daddiu|dsub|dsubu|dsll|dsrl|dsra|dsll32|dsrl32|dsra32|dsllv|dsrlv|dsrav|dmult|dmultu|ddiv|ddivu|ld|sd|ldl|ldr|sdl|sdr|lld|scd|lwu|dmfc1|dmtc1|dmfc0|dmtc0'

build_libc() { # $1 = personality, $2 = object dir
	pers=$1
	dir=$2
	mkdir -p "$dir"
	define=-DGUEST_$(echo "$pers" | tr a-z A-Z)
	srcs=$LIBC_COMMON
	[ "$pers" = irix ] && srcs="$srcs $LIBC_IRIX"
	objs=
	for s in $srcs; do
		o=$dir/$(echo "$s" | sed 's/\.[cS]$/.o/')
		(cd "$GUEST" && $CC $CFLAGS $define -c "libc/$s" -o "$o")
		case $s in crt0.S) ;; *) objs="$objs $o" ;; esac
	done
	rm -f "$dir/libc.a"
	# D: deterministic archive (no timestamps, uids, modes).
	$AR rcD "$dir/libc.a" $objs
}

build_program() { # $1 = personality, $2 = object dir, $3 = program, $4 = output dir
	pers=$1
	dir=$2
	prog=$3
	out=$4
	define=-DGUEST_$(echo "$pers" | tr a-z A-Z)
	if [ -f "$GUEST/src/$prog.c" ]; then
		src=src/$prog.c
	elif [ -f "$GUEST/src/$prog.S" ]; then
		src=src/$prog.S
	else
		echo "build.sh: no source for $prog" >&2
		exit 2
	fi
	# Compile, then link: a one-step build would name the object after a
	# random temporary file in the symbol table (assembly sources).
	extra=
	case " $DEBUG_PROGS " in *" $prog "*) extra="-g -O0 -fdebug-prefix-map=$GUEST=." ;; esac
	(cd "$GUEST" && $CC $CFLAGS $extra $define -c "$src" -o "$dir/prog-$prog.o")
	$CC $CFLAGS $LDFLAGS -o "$out/$prog" "$dir/crt0.o" "$dir/prog-$prog.o" "$dir/libc.a"
	if $OBJDUMP -d -m mips:isa64r2 "$out/$prog" | awk '{print $3}' |
		grep -Ex "$FORBIDDEN" >/dev/null; then
		echo "build.sh: $pers/$prog contains instructions an R4000 o32 process cannot run:" >&2
		$OBJDUMP -d -m mips:isa64r2 "$out/$prog" | awk -v re="^($FORBIDDEN)\$" '$3 ~ re' >&2
		exit 2
	fi
}

# The dynamic-loading test root (bin/dynroot/): irix-emu's own interpreter
# lib/ld.so (src/dyn/ld.c, a static program at 0x0f000000 as IRIX's rld is
# at 0x0fb60000), the shared library lib/libgreet.so (position-independent,
# linked at 0 so it must be moved and relocated), and bin/dyn_hello, a
# position-independent program naming /lib/ld.so and libgreet.so.
DYN_FLAGS="-O2 -march=mips3 -mabi=32 -mfp32 -mno-odd-spreg -mhard-float -G0
-fPIC -mabicalls -ffreestanding -fno-builtin -fno-ident
-fno-asynchronous-unwind-tables -fno-unwind-tables -nostdinc
-ffile-prefix-map=$GUEST/= -Wall -Wextra -Werror"

check_r4000() { # $1 = file, $2 = name in messages
	if $OBJDUMP -d -m mips:isa64r2 "$1" | awk '{print $3}' | grep -Ex "$FORBIDDEN" >/dev/null; then
		echo "build.sh: $2 contains instructions an R4000 o32 process cannot run" >&2
		exit 2
	fi
}

build_dynamic() { # $1 = object dir holding the irix libc, $2 = output dir
	dir=$1
	out=$2
	mkdir -p "$out/lib" "$out/bin"
	(cd "$GUEST" && $CC $CFLAGS -DGUEST_IRIX -c src/dyn/ld_start.S -o "$dir/ld_start.o")
	(cd "$GUEST" && $CC $CFLAGS -DGUEST_IRIX -c src/dyn/ld.c -o "$dir/ld.o")
	$CC $CFLAGS -nostdlib -static -no-pie -Wl,-Ttext-segment=0x0f000000 \
		-Wl,--build-id=none -e _dl_start -o "$out/lib/ld.so" \
		"$dir/ld_start.o" "$dir/ld.o" "$dir/libc.a"
	(cd "$GUEST" && $CC $DYN_FLAGS -c src/dyn/libgreet.c -o "$dir/libgreet.o")
	$CC $DYN_FLAGS -shared -nostdlib -Wl,--build-id=none -Wl,-soname,libgreet.so \
		-o "$out/lib/libgreet.so" "$dir/libgreet.o"
	(cd "$GUEST" && $CC $DYN_FLAGS -c src/dyn/dyn_start.S -o "$dir/dyn_start.o")
	(cd "$GUEST" && $CC $DYN_FLAGS -c src/dyn/dyn_hello.c -o "$dir/dyn_hello.o")
	$CC $DYN_FLAGS -nostdlib -no-pie -Wl,--build-id=none -Wl,-dynamic-linker,/lib/ld.so \
		-o "$out/bin/dyn_hello" "$dir/dyn_start.o" "$dir/dyn_hello.o" "$out/lib/libgreet.so"
	for f in lib/ld.so lib/libgreet.so bin/dyn_hello; do
		check_r4000 "$out/$f" "dynroot/$f"
	done
}

build_all() { # $1 = output root (holds irix/, linux/ and dynroot/)
	root=$1
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for pers in irix linux; do
		mkdir -p "$root/$pers"
		build_libc "$pers" "$tmp/$pers"
		progs=$COMMON
		[ "$pers" = irix ] && progs="$progs $IRIX_ONLY"
		for p in $progs; do
			build_program "$pers" "$tmp/$pers" "$p" "$root/$pers"
		done
	done
	build_dynamic "$tmp/irix" "$root/dynroot"
	rm -rf "$tmp"
	trap - EXIT
}

case "${1:-}" in
"")
	rm -rf "$GUEST/bin/irix" "$GUEST/bin/linux" "$GUEST/bin/dynroot"
	build_all "$GUEST/bin"
	echo "built: $(ls "$GUEST/bin/irix" | wc -l) irix and $(ls "$GUEST/bin/linux" | wc -l) linux programs in $GUEST/bin"
	;;
--check)
	check=$(mktemp -d)
	build_all "$check"
	status=0
	seen=""
	for pers in irix linux dynroot; do
		for f in $(cd "$check" && find "$pers" -type f) $(cd "$GUEST/bin" && find "$pers" -type f); do
			name=$f
			case " $seen " in *" $name "*) continue ;; esac
			seen="$seen $name"
			if [ ! -f "$GUEST/bin/$name" ]; then
				echo "build.sh --check: guest/bin/$name is missing (rebuild produces it)"
				status=1
			elif [ ! -f "$check/$name" ]; then
				echo "build.sh --check: guest/bin/$name is committed but no longer built"
				status=1
			elif ! cmp -s "$check/$name" "$GUEST/bin/$name"; then
				echo "build.sh --check: guest/bin/$name differs from a fresh build"
				status=1
			fi
		done
	done
	rm -rf "$check"
	if [ $status -eq 0 ]; then
		echo "build.sh --check: all guest binaries match a fresh build"
	else
		echo "build.sh --check: run guest/build.sh and commit guest/bin/"
	fi
	exit $status
	;;
--program)
	# One program of the user's own: the IRIX libc, this file's flags,
	# plus -g so that `report --lines` and GDB see its source.
	src=${2:-}
	[ -n "$src" ] && [ -f "$src" ] || {
		echo "build.sh --program: no such source file: '$src'" >&2
		echo "usage: guest/build.sh --program FILE.c [OUTPUT]" >&2
		exit 2
	}
	out=${3:-$(echo "$src" | sed 's/\.[cS]$//')}
	[ "$out" != "$src" ] || out=$src.elf
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	build_libc irix "$tmp"
	$CC $CFLAGS -g -DGUEST_IRIX -c "$src" -o "$tmp/prog.o"
	$CC $CFLAGS $LDFLAGS -o "$out" "$tmp/crt0.o" "$tmp/prog.o" "$tmp/libc.a"
	check_r4000 "$out" "$out"
	echo "built $out: run it with 'irix-emu run $out', profile it with 'irix-emu prof $out'"
	;;
*)
	echo "usage: guest/build.sh [--check | --program FILE.c [OUTPUT]]" >&2
	exit 2
	;;
esac

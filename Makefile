# Makefile — builds zpk (kernel ELF, ISO), runs it in QEMU, runs the tests.
# make run | make test | make debug | make gdb | make bench | make clean
# make ktest-image (build/zpk-test.elf: the kernel and its ktests)
# make kselftest | make fuzz
# make lab-list | make lab LAB=NAME | make grade | make lab-check
# make gradescope-zip LAB=NAME

CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin LD),default)
LD := $(CROSS_COMPILE)ld
endif
NM	?= $(CROSS_COMPILE)nm
NASM	?= nasm
QEMU	?= qemu-system-x86_64
QEMU_ACCEL ?= tcg
# make run ROOTFS=debian boots Debian's packages (make rootfs), which want
# more memory: the initrd is unpacked before its own pages are freed.
ifeq ($(ROOTFS),debian)
MEM	?= 512M
RUN_INITRD = $(B)/rootfs/initrd.cpio
RUN_DEPS := rootfs
else ifneq ($(ROOTFS),)
$(error ROOTFS=$(ROOTFS): the one root there is besides zpk's is ROOTFS=debian)
else
RUN_INITRD = $(B)/user/initrd.cpio
RUN_DEPS := initrd
endif
MEM	?= 128M
SMP	?= 1
# make run (or debug) DISK=img: a raw image as zpk's /dev/vda (virtio-blk);
# make run (or debug) SWAP=64M: a swap image of that size instead
# ($(B)/swap.img, made anew), which init swaps on (/etc/fstab).
DISK	?=
SWAP	?=
CMDLINE	?=
GRUB_MKRESCUE ?= grub-mkrescue

B	:= build
VERSION	:= 0.1
# The normal build and the benchmark run at OPT. make debug, make gdb and
# the gdb tests use a second build in $(B)/debug at DEBUG_OPT and
# DEBUG_FRAMES, where every function of the fault path is a real frame
# (__fault_inline, zpk/compiler.h, is noinline there) and most arguments
# print. The fault path's own files (FRAME_SRCS) are built there at
# FRAME_OPT, -O0: at -Og an argument a function no longer needs leaves
# its frame, and a backtrace shows it <optimized out>.
OPT	?= -O2
DEBUG_OPT ?= -Og
DEBUG_FRAMES := -DCONFIG_DEBUG_FRAMES
FRAME_SRCS := arch/x86_64/fault.c mm/memory.c mm/gup.c
FRAME_OPT ?=
DEBUG_ELF := $(B)/debug/zpk.elf

# Quiet build lines ("  CC  file") unless V=1.
ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @echo "  $(1)"
endif

CFLAGS	:= -std=gnu11 -ffreestanding -nostdlib -mcmodel=kernel -mno-red-zone \
	   -mno-sse -mno-mmx -mno-80387 -fno-pic -fno-pie \
	   -fno-stack-protector -fno-omit-frame-pointer \
	   -fno-optimize-sibling-calls -fno-asynchronous-unwind-tables \
	   -fno-strict-aliasing -g $(OPT) -Wall -Wextra -Werror \
	   -Iinclude -I$(B)/gen -DZPK_VERSION='"$(VERSION)"' -MMD -MP
NASMFLAGS := -i arch/x86_64/ -f elf64 -g -F dwarf -w+all -Werror
LDFLAGS	:= -nostdlib -static -z max-page-size=0x1000 -z noexecstack \
	   --no-warn-rwx-segments -T linker.ld

KSRC_C	:= $(wildcard arch/x86_64/*.c kernel/*.c fs/*.c fs/proc/*.c net/*.c \
		   ipc/*.c mm/*.c lib/*.c block/*.c drivers/*/*.c)
KSRC_S	:= $(wildcard boot/*.asm arch/x86_64/*.asm)
KOBJS	:= $(patsubst %.c,$(B)/k/%.o,$(KSRC_C)) \
	   $(patsubst %.asm,$(B)/k/%.o,$(KSRC_S))
# The ktests live in each subsystem's tests/ (as Linux's KUnit tests) and
# are linked into $(KTEST_ELF) only: make test boots it with ktest=all;
# make run, make bench and make debug boot $(B)/zpk.elf, without them.
KTEST_C	:= $(wildcard arch/x86_64/tests/*.c kernel/tests/*.c fs/tests/*.c \
		   fs/proc/tests/*.c net/tests/*.c mm/tests/*.c lib/tests/*.c)
KTEST_S	:= $(wildcard arch/x86_64/tests/*.asm)
KTEST_OBJS := $(patsubst %.c,$(B)/k/%.o,$(KTEST_C)) \
	   $(patsubst %.asm,$(B)/k/%.o,$(KTEST_S))
KTEST_ELF := $(B)/zpk-test.elf

all: $(B)/zpk.iso

# Flags live here: a change to the Makefile rebuilds everything.
$(KOBJS) $(KTEST_OBJS): Makefile

$(B)/k/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC      $<)
	$(Q)$(CC) $(CFLAGS) $(if $(filter $<,$(FRAME_SRCS)),$(FRAME_OPT)) \
		-c $< -o $@

$(B)/k/%.o: %.asm
	@mkdir -p $(dir $@)
	$(call quiet,NASM    $<)
	$(Q)$(NASM) $(NASMFLAGS) -MD $(B)/k/$*.d -MT $@ $< -o $@

# System-call names for the -ENOSYS message, from the numbers' header.
$(B)/gen/syscall_names.h: include/asm/unistd.h
	@mkdir -p $(dir $@)
	$(Q)sed -n 's/^#define __NR_\([a-z0-9_]*\)[[:space:]]*\([0-9][0-9]*\).*/[\2] = "\1",/p' $< > $@
$(B)/k/arch/x86_64/syscall.o: $(B)/gen/syscall_names.h

# Two-pass link, like Linux's kallsyms: pass 1 links with an empty symbol
# table; its text symbols become a table for pass 2.  The table lives in
# .rodata, after .text, so no function moves between the passes (checked).
$(B)/kallsyms0.o: scripts/gen-kallsyms.sh
	@mkdir -p $(B)
	$(Q)scripts/gen-kallsyms.sh /dev/null > $(B)/kallsyms0.c
	$(Q)$(CC) $(CFLAGS) -c $(B)/kallsyms0.c -o $@

# link_kernel OBJS: links $@ from OBJS in two passes; its intermediate
# files are named after it ($(B)/zpk.pass1.elf, $(B)/zpk.kallsyms1.c, ...).
define link_kernel
	$(call quiet,LD      $@ (two passes for kallsyms))
	$(Q)$(LD) $(LDFLAGS) -o $(basename $@).pass1.elf $(1) $(B)/kallsyms0.o
	$(Q)NM=$(NM) scripts/gen-kallsyms.sh $(basename $@).pass1.elf > $(basename $@).kallsyms1.c
	$(Q)$(CC) $(CFLAGS) -c $(basename $@).kallsyms1.c -o $(basename $@).kallsyms1.o
	$(Q)$(LD) $(LDFLAGS) -o $@ $(1) $(basename $@).kallsyms1.o
	@$(NM) -n $(basename $@).pass1.elf | grep -i ' t ' > $(basename $@).syms1.txt
	@$(NM) -n $@ | grep -i ' t ' > $(basename $@).syms2.txt
	@cmp -s $(basename $@).syms1.txt $(basename $@).syms2.txt || \
	  { echo "kallsyms: text moved between link passes"; exit 1; }
endef

$(B)/zpk.elf: $(KOBJS) $(B)/kallsyms0.o linker.ld scripts/gen-kallsyms.sh
	$(call link_kernel,$(KOBJS))

$(KTEST_ELF): $(KOBJS) $(KTEST_OBJS) $(B)/kallsyms0.o linker.ld scripts/gen-kallsyms.sh
	$(call link_kernel,$(KOBJS) $(KTEST_OBJS))

ktest-image: $(KTEST_ELF)

$(B)/zpk.iso: $(B)/zpk.elf scripts/mkiso.sh
	$(call quiet,ISO     $@)
	$(Q)scripts/mkiso.sh $(B)/zpk.elf $(B)/zpk.iso "$(CMDLINE)"

deps:
	@scripts/deps.sh

# Boot on the terminal.  Quit QEMU with Ctrl-A X: here that is a normal
# end (qemu.sh's 125), as is zpk's own power-off with 0; a panic is not.
run: deps $(B)/zpk.iso $(RUN_DEPS)
	@echo "zpk: booting in QEMU ($(QEMU_ACCEL), $(SMP) CPU); quit with Ctrl-A X"
	$(if $(and $(DISK),$(SWAP)),$(error DISK= and SWAP= both want /dev/vda))
	$(if $(SWAP),scripts/mkswap-img.sh $(SWAP) $(B)/swap.img)
	scripts/qemu.sh --mem $(MEM) --smp $(SMP) --append "$(CMDLINE)" --initrd $(RUN_INITRD) $(if $(DISK),--disk $(DISK))$(if $(SWAP),--disk $(B)/swap.img) --interactive --zpk-status $(B)/zpk.elf || \
	  { rc=$$?; [ $$rc -eq 125 ] || exit $$rc; }

# The debug build: the same sources at DEBUG_OPT, objects in $(B)/debug.
$(DEBUG_ELF): FORCE
	$(Q)$(MAKE) -s B=$(B)/debug OPT="$(DEBUG_OPT) $(DEBUG_FRAMES)" \
		FRAME_OPT=-O0 $(DEBUG_ELF)

# QEMU halted at the first instruction with a gdb stub on :1234.  It ends
# well only if zpk powers off with 0 (init exited 0): a panic, or QEMU
# stopped first (a hang ended with Ctrl-A X, gdb's kill), is an error.
debug: deps $(DEBUG_ELF) initrd
	$(if $(and $(DISK),$(SWAP)),$(error DISK= and SWAP= both want /dev/vda))
	$(if $(SWAP),scripts/mkswap-img.sh $(SWAP) $(B)/swap.img)
	@echo "zpk: QEMU waits for gdb on localhost:1234 — run 'make gdb' in another terminal"
	scripts/qemu.sh --mem $(MEM) --smp $(SMP) --append "$(CMDLINE)" --initrd $(B)/user/initrd.cpio $(if $(DISK),--disk $(DISK))$(if $(SWAP),--disk $(B)/swap.img) --interactive --gdb --zpk-status $(DEBUG_ELF)

gdb: $(DEBUG_ELF)
	gdb -x tools/gdbinit $(DEBUG_ELF)

# The c2c coherence profiler: a QEMU TCG plugin, host compiler, libc only
# (docs/c2c.md).
HOSTCC	?= gcc
C2C_SRCS := tools/c2c/c2c.c tools/c2c/model.c
c2c-plugin: $(B)/c2c.so
$(B)/c2c.so: $(C2C_SRCS) tools/c2c/marker.h tools/c2c/model.h \
		tools/c2c/qemu-plugin-api.h
	@mkdir -p $(B)
	$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC \
		-fvisibility=hidden -o $@ $(C2C_SRCS) -lpthread

host-tests:
	$(MAKE) -C tests/host all

# The user programs and the initrd they live in (static musl).
initrd: deps
	$(MAKE) -s -C user initrd

# Debian's own programs (scripts/rootfs.sh): PKGS and all they depend on,
# downloaded once into build/rootfs/debs, unpacked with zpk's initrd laid
# over them: build/rootfs/initrd.cpio, which make run ROOTFS=debian boots.
PKGS	?= python3-minimal sqlite3 lua5.4 dash coreutils
rootfs: deps initrd
	scripts/rootfs.sh $(PKGS)

test: deps $(B)/zpk.elf $(KTEST_ELF) $(DEBUG_ELF) host-tests initrd $(B)/c2c.so
	ZPK_DEBUG_ELF=$(DEBUG_ELF) ZPK_KTEST_ELF=$(KTEST_ELF) tests/run-all.sh

# Benchmarks print figures; nothing here passes or fails (docs/bench.md).
# bench-linux downloads Debian's kernel once into build/linux/ (not in CI).
bench: deps $(B)/zpk.elf initrd
	$(MAKE) -s -C user bench
	scripts/bench.sh

bench-linux: deps $(B)/zpk.elf initrd
	$(MAKE) -s -C user bench
	BENCH_KERNELS=linux BENCH_PAGE_ALLOC=0 scripts/bench.sh

# The several-CPU part alone (the 2009 story, docs/bench.md).
bench-smp: deps $(B)/zpk.elf initrd
	$(MAKE) -s -C user bench
	BENCH_ONLY=smp scripts/bench.sh

# Cache-line sharing per fault under the c2c plugin: zpk's three policies
# and Linux 6.1 (docs/c2c.md). Writes build/c2c/report.md and c2c.png.
c2c: deps $(B)/zpk.elf initrd $(B)/c2c.so
	$(MAKE) -s -C user bench
	scripts/c2c.sh

# The sequel: a read fault per fresh 2 MiB huge page under each
# huge_zero_page= policy and Linux 6.1 with THP always (docs/c2c.md).
# Writes build/c2c-huge/report.md and c2c.png.
c2c-huge: deps $(B)/zpk.elf initrd $(B)/c2c.so
	$(MAKE) -s -C user bench
	C2C_HUGE=1 scripts/c2c.sh

# Linux's mm selftests on zpk (each policy) and on Debian's Linux 6.1 in the
# same QEMU (docs/kselftest.md); the sources come once with apt-get download
# into build/kselftest/.  KSELFTEST_CI=1 runs .ci/run's subset.
kselftest: deps $(B)/zpk.elf initrd
	$(MAKE) -s -C user bench
	scripts/kselftest.sh

# The system-call fuzzer (tools/fuzz/, docs/robustness.md): FUZZ_SECS of
# calls under each zero_page policy, one boot each; FUZZ_SEED replays a
# run (default: a new seed, printed).
FUZZ_SECS ?= 600
# stress-ng as an outside fuzzer (scripts/stress.sh, docs/robustness.md):
# Debian's stress-ng, each memory stressor STRESS_SECS seconds (3) under
# each zero-page policy on 4 CPUs, then on Debian's Linux 6.1 for the
# comparison (STRESS_LINUX=0 skips it); writes build/stress/report.md.
stress: deps $(B)/zpk.elf initrd
	$(MAKE) -s -C user bench
	scripts/stress.sh

fuzz: deps $(B)/zpk.elf initrd
	tests/qemu/fuzz.sh --secs $(FUZZ_SECS) --seed $${FUZZ_SEED:-$$(date +%s)}

# Course labs (docs/labs.md): make lab-list; make lab LAB=NAME [DEST=dir];
# make grade [LAB=NAME] [T=filter]; make lab-check (CI: every lab is real).
LAB	?= $(shell cat labs/LAB 2>/dev/null)
lab-list:
	@scripts/lab.py list

lab:
	@test -n "$(LAB)" || { echo "make lab LAB=NAME (make lab-list)"; exit 2; }
	scripts/lab.py make $(LAB) $(DEST)

grade: deps
	@test -n "$(LAB)" || { echo "make grade LAB=NAME (make lab-list)"; exit 2; }
	scripts/lab.py grade $(LAB) $(if $(T),-t $(T))

lab-check: deps $(B)/zpk.elf $(KTEST_ELF) initrd host-tests
	scripts/lab.py check

gradescope-zip:
	@test -n "$(LAB)" || { echo "make gradescope-zip LAB=NAME (make lab-list)"; exit 2; }
	scripts/lab.py gradescope $(LAB)

# The user tests, natively on this Linux: the ABI reference.
test-host-linux: deps
	$(MAKE) -C user all host-test

clean:
	rm -rf $(B)

FORCE:

.PHONY: FORCE rootfs stress ktest-image c2c c2c-huge c2c-plugin lab-list lab grade lab-check gradescope-zip all deps initrd run debug gdb test host-tests bench bench-linux bench-smp kselftest test-host-linux fuzz clean

-include $(shell find $(B)/k -name '*.d' 2>/dev/null)

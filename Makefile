# vgpu: build the module, libvgpu, the tools and the tests; run the demo,
# the tests and the benchmarks. Everything built lands in build/.
#
#   make              vgpu.ko (against KDIR), libvgpu, tools, tests
#   make demo         set up, boot the VM and run the deviceQuery sample
#   make check        set up, run every test; last line "N passed, N failed"
#   make bench        set up, run the benchmarks in the VM: lines "NAME: VALUE"
#   make install-deps install the Debian packages the build and tests need
#   make install      install libvgpu, the runtime (libcudart.so.13), headers,
#                     tools, pkg-config and CMake files, the module's
#                     source for DKMS and a udev rule
#                     (PREFIX, default /usr/local; DESTDIR); make uninstall

BUILD := $(CURDIR)/build
# The project's version: the module's, the DKMS package's, the pkg-config
# and CMake packages', and the installed library's file name.
VERSION := 0.1.0

# The kernels the VM bench boots: Debian's stock kernel and, when installed,
# the newest of Debian 12's newer kernel line (tools/vm/kernel-release).
VM_KVER := $(shell tools/vm/kernel-release stock)
VM_KDIR := /lib/modules/$(VM_KVER)/build
NEWER_KVER := $(shell tools/vm/kernel-release newer)
NEWER_KDIR := /lib/modules/$(NEWER_KVER)/build
# vgpu.ko for this machine: the running kernel's build tree if it has one,
# else the VM's kernel.
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
KDIR ?= $(if $(wildcard $(RUNNING_KDIR)/Makefile),$(RUNNING_KDIR),$(VM_KDIR))

CC := gcc
WARN := -Wall -Wextra -Werror
CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g $(WARN)
CPPFLAGS := -I$(CURDIR)/libvgpu/include -I$(CURDIR) -I$(CURDIR)/tests
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer

LIB_SRCS := $(wildcard libvgpu/*.c libvgpu/jit/*.c)
LIB_HDRS := $(wildcard libvgpu/*.h libvgpu/jit/*.h)
LIB_OBJS := $(patsubst libvgpu/%.c,$(BUILD)/libvgpu/%.o,$(LIB_SRCS))
UNIT_LIB_OBJS := $(patsubst libvgpu/%.c,$(BUILD)/unit/libvgpu/%.o,$(LIB_SRCS))
# The freestanding compute core, built for user space with its user shim.
CORE_SRCS := $(wildcard core/*.c)
UNIT_CORE_OBJS := $(patsubst core/%.c,$(BUILD)/unit/core/%.o,$(CORE_SRCS))
BENCH_CORE_OBJS := $(patsubst core/%.c,$(BUILD)/bench-core/%.o,$(CORE_SRCS))
CORE_USER := -Icore -frounding-math \
	'-D__printf(a,b)=__attribute__((format(printf, a, b)))' \
	'-D__always_inline=__inline __attribute__ ((__always_inline__))' \
	'-Dnoinline=__attribute__((__noinline__))'
# The core's objects, with the lane loops unrolled as Kbuild builds fp.o and
# interp.o.
CORE_OBJ_FLAGS := -funroll-loops
LIBVGPU := $(BUILD)/lib/libvgpu.so.1
# vgpu's runtime library (libvgpu/rt), under NVIDIA's runtime soname.
LIBCUDART := $(BUILD)/lib/libcudart.so.13
# Programs built here find libvgpu in build/lib.
LINK_LIBVGPU := $(LIBVGPU) -Wl,-rpath,$(BUILD)/lib -lpthread
# fatbin.c inflates the PTX that nvcc compresses.
LIB_LIBS := -lzstd -llz4 -lpthread -ldl

UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(wildcard tests/unit/test_*.c))
KSELFTESTS := $(patsubst tests/kselftest/%.c,$(BUILD)/tests/kselftest/%,$(wildcard tests/kselftest/*.c))
E2E_TESTS := $(patsubst tests/e2e/%.c,$(BUILD)/tests/e2e/%,$(wildcard tests/e2e/*.c))
SAMPLES := $(patsubst tests/samples/%.c,$(BUILD)/samples/%,$(wildcard tests/samples/*.c))
# Runtime-API programs (tests/samples/rt/NAME.cu), built by nvcc as users
# build them for vgpu: -cudart shared, PTX only, vgpu's libcudart.so.13
# found through the rpath.
# rt_interop, rt_extmem, rt_extsem, rt_texobj and rt_capture(_ptds) also
# call the driver API: they link the toolkit's stub libcuda.so and run on
# vgpu's libcuda.so.1.
RT_SAMPLE_LIBS_rt_interop = -L$(dir $(CUDA_STUB)) -lcuda
RT_SAMPLE_LIBS_rt_extmem = -L$(dir $(CUDA_STUB)) -lcuda
RT_SAMPLE_LIBS_rt_extsem = -L$(dir $(CUDA_STUB)) -lcuda
RT_SAMPLE_LIBS_rt_texobj = -L$(dir $(CUDA_STUB)) -lcuda
RT_SAMPLE_LIBS_rt_capture = -L$(dir $(CUDA_STUB)) -lcuda -lpthread
RT_SAMPLE_LIBS_rt_capture_ptds = -L$(dir $(CUDA_STUB)) -lcuda
# rt_texobj's istypep and integer-coordinate kernels are modules of their
# own (tests/samples/rt/texobj/).
RT_SAMPLE_SRCS_rt_texobj := $(wildcard tests/samples/rt/texobj/*.cu)
# Host threads: rt_ptds's workers, rt_callback's, rt_async's gate.
RT_SAMPLE_LIBS_rt_ptds := -lpthread
RT_SAMPLE_LIBS_rt_async := -lpthread
RT_SAMPLE_LIBS_rt_callback := -lpthread
RT_SAMPLE_ARCH := arch=compute_75,code=compute_75
# rt_noptx is built with machine code only, which vgpu cannot run.
RT_SAMPLE_ARCH_rt_noptx := arch=compute_75,code=sm_75
# rt_ptds and rt_capture_ptds are built with --default-stream per-thread.
RT_SAMPLE_FLAGS_rt_ptds := --default-stream per-thread
RT_SAMPLE_FLAGS_rt_capture_ptds := --default-stream per-thread
# rt_rdc is separate compilation: its objects, rt_rdc.cu and those under
# tests/samples/rt/rdc/, device-linked (-rdc=true).
RT_SAMPLE_FLAGS_rt_rdc := -rdc=true
RT_SAMPLE_SRCS_rt_rdc := $(wildcard tests/samples/rt/rdc/*.cu)
RT_SAMPLES := $(patsubst tests/samples/rt/%.cu,$(BUILD)/samples/rt/%,$(wildcard tests/samples/rt/*.cu))
# rt_rdc again, compiled with -dc and device-linked on its own (below).
RT_SAMPLES += $(BUILD)/samples/rt/rt_rdc_dlink
SAMPLE_PTX := $(patsubst tests/samples/%.cu,$(BUILD)/samples/%.ptx,$(wildcard tests/samples/*.cu))
# The VM's benchmarks; the native engine's (native_*, and pocl_*, which
# holds it against POCL) run on the host.
BENCHES := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,\
	$(filter-out tests/bench/native_% tests/bench/pocl_%,$(wildcard tests/bench/*.c)))
NATIVE_BENCH := $(BUILD)/bench/native_bench
POCL_BENCH := $(BUILD)/bench/pocl_bench
# The same two for the VM, which reaches the host's LLVM and POCL through
# its read-only view of the host's /; run there with --vm.
VM_NATIVE_BENCHES := $(BUILD)/bench/vm/native_bench $(BUILD)/bench/vm/pocl_bench
TOOLS := $(BUILD)/tools/vgpu-smi $(BUILD)/tools/vgpu-as $(BUILD)/tools/vgpu-dis \
	$(BUILD)/tools/vgpu-ptxas

KSFT_DIR := $(BUILD)/kselftest-headers
KSFT_HEADERS := $(KSFT_DIR)/kselftest_harness.h $(KSFT_DIR)/kselftest.h
LINUX_SOURCE := /usr/src/linux-source-6.1.tar.xz

.PHONY: all module lib tools tests demo check bench soak install-deps clean install uninstall \
	vm-module-stock vm-module-newer vm-module-debug
.SUFFIXES:
.SECONDARY: $(SAMPLE_PTX) $(LIB_OBJS) $(UNIT_LIB_OBJS) $(UNIT_CORE_OBJS) $(BENCH_CORE_OBJS) \
	$(UNIT_NATIVE_OBJS) $(BENCH_NATIVE_OBJS) $(PIC_NATIVE_OBJS) $(PIC_CORE_OBJS)

all: module lib tools tests

# --- vgpu.ko -------------------------------------------------------------
# Kbuild writes objects next to the sources, so each kernel gets its own
# mirror of the tree (symlinks) under build/ and the source tree stays clean.
define build_kmod
	@test -f $(2)/Makefile || { echo "no kernel build tree at $(2) (run make install-deps or set KDIR)"; exit 1; }
	@mkdir -p $(1)
	@find $(1) -type l -delete
	@cp -rs $(CURDIR)/Kbuild $(CURDIR)/kmod $(CURDIR)/core $(CURDIR)/uapi $(1)/
	$(MAKE) -C $(2) M=$(1) VGPU_WERROR=1 VGPU_VERSION=$(VERSION) modules
endef

module:
	$(call build_kmod,$(BUILD)/kmod/host,$(KDIR))
	@cp $(BUILD)/kmod/host/vgpu.ko $(BUILD)/vgpu.ko

vm-module-stock:
	$(call build_kmod,$(BUILD)/vm/stock,$(VM_KDIR))

vm-module-newer:
	$(call build_kmod,$(BUILD)/vm/newer,$(NEWER_KDIR))

vm-module-debug:
	$(call build_kmod,$(BUILD)/vm/debug,$(shell tools/vm/build-debug-kernel))

# --- libvgpu ---------------------------------------------------------------
lib: $(LIBVGPU) $(LIBCUDART)

# cuGetProcAddress's table (procaddr.c) is made from the toolkit's
# cudaTypedefs.h and the symbols libvgpu.map exports.
CUDA_INC ?= /usr/local/cuda/include
PROCADDR_TABLE := $(BUILD)/gen/procaddr_table.h

PROCADDR_TYPEDEFS := $(CUDA_INC)/cudaTypedefs.h

$(PROCADDR_TABLE): tools/gen-procaddr libvgpu/libvgpu.map $(PROCADDR_TYPEDEFS)
	@mkdir -p $(@D)
	tools/gen-procaddr $(PROCADDR_TYPEDEFS) libvgpu/libvgpu.map $@

$(PROCADDR_TYPEDEFS):
	@echo "$@ not found: libvgpu's cuGetProcAddress table is made from the" \
		"CUDA toolkit's cudaTypedefs.h; set CUDA_INC to the toolkit's" \
		"include directory (make CUDA_INC=/usr/local/cuda/include)" >&2
	@exit 1

$(BUILD)/libvgpu/procaddr.o $(BUILD)/unit/libvgpu/procaddr.o: $(PROCADDR_TABLE)
$(BUILD)/libvgpu/procaddr.o $(BUILD)/unit/libvgpu/procaddr.o: \
	private CPPFLAGS += -I$(BUILD)/gen

$(BUILD)/libvgpu/%.o: libvgpu/%.c $(LIB_HDRS) libvgpu/include/cuda.h uapi/vgpu.h core/isa.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@

# engine.c and usm.c call the native engine (libvgpu-native.so.1) with the
# core's types.
ENGINE_OBJS := $(BUILD)/libvgpu/engine.o $(BUILD)/libvgpu/usm.o \
	$(BUILD)/unit/libvgpu/engine.o $(BUILD)/unit/libvgpu/usm.o
$(ENGINE_OBJS): CPPFLAGS += -I$(CURDIR)/core -I$(CURDIR)/libvgpu/native $(CORE_USER)
$(ENGINE_OBJS): libvgpu/native/native.h core/core.h

# The JIT checks each instruction it writes against the ISA description,
# as the module's verifier does first: libvgpu links that part of the
# compute core.
LIB_CORE_OBJS := $(BUILD)/libvgpu/core/isa_desc.o

$(BUILD)/libvgpu/core/%.o: core/%.c core/*.h uapi/vgpu_isa.h uapi/vgpu_tex.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CORE_USER) $(CFLAGS) -fPIC -c $< -o $@

# The soname is NVIDIA's, libcuda.so.1: a program linked against libvgpu
# (-lvgpu, -lcuda or the file) runs on NVIDIA's driver, and the reverse.
$(LIBVGPU): $(LIB_OBJS) $(LIB_CORE_OBJS) libvgpu/libvgpu.map
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(LIB_OBJS) $(LIB_CORE_OBJS) -Wl,-soname,libcuda.so.1 \
		-Wl,--version-script=libvgpu/libvgpu.map -Wl,-z,defs $(LIB_LIBS)
	ln -sf libvgpu.so.1 $(BUILD)/lib/libvgpu.so
	ln -sf libvgpu.so.1 $(BUILD)/lib/libcuda.so.1

# --- libcudart.so.13: the runtime API over libvgpu ----------------------------
# Built on the driver API that libvgpu exports, with the runtime's types and
# prototypes from the toolkit's public headers (CUDA_INC). nvcc's programs
# built with -cudart shared load it by NVIDIA's soname; it finds libvgpu
# (libcuda.so.1) beside itself.
RT_SRCS := $(wildcard libvgpu/rt/*.c)
RT_OBJS := $(patsubst libvgpu/rt/%.c,$(BUILD)/rt/%.o,$(RT_SRCS))
RT_CPPFLAGS := -I$(CURDIR)/libvgpu/include -I$(BUILD)/gen -isystem $(CUDA_INC)
RT_ERROR_NAMES := $(BUILD)/gen/rt_error_names.h

$(RT_ERROR_NAMES): tools/gen-rt-errors $(CUDA_INC)/driver_types.h
	@mkdir -p $(@D)
	tools/gen-rt-errors $(CUDA_INC)/driver_types.h $@

$(BUILD)/rt/errors.o: $(RT_ERROR_NAMES)

$(BUILD)/rt/%.o: libvgpu/rt/%.c libvgpu/rt/*.h libvgpu/include/cuda.h
	@mkdir -p $(@D)
	$(CC) $(RT_CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@

$(LIBCUDART): $(RT_OBJS) libvgpu/rt/libcudart.map $(LIBVGPU)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(RT_OBJS) -Wl,-soname,libcudart.so.13 \
		-Wl,--version-script=libvgpu/rt/libcudart.map -Wl,-z,defs \
		$(LIBVGPU) '-Wl,-rpath,$$ORIGIN' -lpthread

# --- tools -------------------------------------------------------------------
tools: $(TOOLS)

# The assembler and disassembler share the text form and the ISA
# description's table of operations.
ISA_TEXT_SRCS := tools/isa_text.c core/isa_desc.c
$(BUILD)/tools/vgpu-as $(BUILD)/tools/vgpu-dis: $(BUILD)/tools/%: tools/%.c \
		$(ISA_TEXT_SRCS) tools/isa_text.h core/*.h uapi/vgpu_isa.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CORE_USER) $(CFLAGS) $< $(ISA_TEXT_SRCS) -o $@

# The offline compiler is libvgpu's JIT: it links libvgpu's objects.
$(BUILD)/tools/vgpu-ptxas: tools/vgpu-ptxas.c tools/isa_text.c tools/isa_text.h $(LIB_HDRS) \
		$(LIB_OBJS) $(LIB_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu -Ilibvgpu/jit $(CORE_USER) $(CFLAGS) $< tools/isa_text.c $(LIB_OBJS) \
		$(LIB_CORE_OBJS) $(LIB_LIBS) -o $@

$(BUILD)/tools/%: tools/%.c uapi/vgpu.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@

# --- tests -------------------------------------------------------------------
# The ioctl fuzzer and the driver-API soak run in the VM with arguments:
# outside build/tests/kselftest and build/tests/e2e, whose programs the
# suite runs with none.
IOCTL_FUZZ := $(BUILD)/tests/fuzz-vm/vgpu_ioctl_fuzz
IOCTL_FUZZ_SRCS := tests/fuzz/vgpu_ioctl_fuzz.c tests/fuzz/vgpu_fuzz_worker.c tests/fuzz/vgpu_fuzz_gen.c \
	tests/fuzz/vgpu_ioctl_desc.c tests/fuzz/vgpu_fuzz_programs.c tests/fuzz/vgpu_fuzz_baseline.c
SOAK_API := $(BUILD)/tests/soak/soak_api
# The errors uapi/vgpu.h documents for each ioctl, which the ioctl fuzzer
# and the kselftests check what the module returns against.
ERRNO_TABLE := $(BUILD)/gen/vgpu_errno_table.h

tests: $(UNIT_TESTS) $(KSELFTESTS) $(E2E_TESTS) $(SAMPLES) $(RT_SAMPLES) $(BENCHES) $(NATIVE_BENCH) \
	$(POCL_BENCH) $(VM_NATIVE_BENCHES) $(BUILD)/fuzz/fuzz_isa \
	$(BUILD)/fuzz/fuzz_ptx $(BUILD)/fuzz/fuzz_fatbin $(BUILD)/fuzz/fuzz_link \
	$(BUILD)/tests/vm/gpu_holder $(IOCTL_FUZZ) $(SOAK_API)

$(ERRNO_TABLE): tools/gen-errno-table uapi/vgpu.h
	@mkdir -p $(@D)
	tools/gen-errno-table uapi/vgpu.h $@

$(IOCTL_FUZZ): $(IOCTL_FUZZ_SRCS) tests/fuzz/vgpu_*.h tests/isa_build.h tests/vgpu_errno.h \
		uapi/vgpu.h uapi/vgpu_isa.h $(ERRNO_TABLE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -I$(BUILD)/gen $(CFLAGS) $(IOCTL_FUZZ_SRCS) -lpthread -o $@
$(SOAK_API): tests/soak/soak_api.c tests/tap.h libvgpu/include/cuda.h $(LIBVGPU)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(LINK_LIBVGPU) -o $@

# The core's benchmark links the core built for speed, not for checking.
# The interpreter's files are built as Kbuild builds them, without vector
# registers (compilers' vector code is what an emulated CPU runs slowest).
$(BUILD)/bench-core/interp.o $(BUILD)/bench-core/interp_mem.o \
$(BUILD)/bench-core/shape.o $(BUILD)/bench-core/sreg.o: CORE_OBJ_FLAGS += -mgeneral-regs-only
$(BUILD)/bench-core/%.o: core/%.c core/*.h uapi/vgpu_isa.h uapi/vgpu_tex.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CORE_USER) $(CORE_OBJ_FLAGS) $(CFLAGS) -c $< -o $@

# The interpreter's yardstick (tests/bench/native_ref.c) is compiled into
# its bench at the project's -O2, for any CPU the VM has.
$(BUILD)/bench/interp_bench: tests/bench/interp_bench.c tests/isa_build.h tests/bench/bench_kernels.h \
		tests/bench/bench_host.h tests/bench/native_ref.h tests/bench/native_ref.c \
		tests/kselftest/vgpu_chan_util.h $(BENCH_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CORE_USER) $(CFLAGS) $< $(BENCH_CORE_OBJS) -lm -o $@

# The native engine (libvgpu/native): the ISA compiled by LLVM (through its C
# API) into warp-vectorised host code. Its unit test and benches link it
# directly with the core; libcuda.so loads it as libvgpu-native.so.1 (below).
LLVM_CONFIG := llvm-config-19
LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags)
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags) $(shell $(LLVM_CONFIG) --libs) -lpthread
NATIVE_SRCS := $(wildcard libvgpu/native/*.c)
NATIVE_HDRS := $(wildcard libvgpu/native/*.h)
# The engine keeps compiled code in libcuda's cache directory, through its
# own copy of the cache's file handling (libvgpu/cache_store.c).
UNIT_NATIVE_OBJS := $(patsubst libvgpu/native/%.c,$(BUILD)/unit/native/%.o,$(NATIVE_SRCS)) \
	$(BUILD)/unit/native/cache_store.o
BENCH_NATIVE_OBJS := $(patsubst libvgpu/native/%.c,$(BUILD)/bench-native/%.o,$(NATIVE_SRCS)) \
	$(BUILD)/bench-native/cache_store.o
NATIVE_CPPFLAGS = $(CPPFLAGS) -I$(CURDIR)/libvgpu $(LLVM_CFLAGS) $(CORE_USER)

$(BUILD)/unit/native/cache_store.o: libvgpu/cache_store.c libvgpu/cache_store.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN) -c $< -o $@

$(BUILD)/bench-native/cache_store.o: libvgpu/cache_store.c libvgpu/cache_store.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/pic-native/cache_store.o: libvgpu/cache_store.c libvgpu/cache_store.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@

$(BUILD)/unit/native/%.o: libvgpu/native/%.c $(NATIVE_HDRS) libvgpu/cache_store.h core/*.h uapi/vgpu_isa.h
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CPPFLAGS) $(CFLAGS) $(SAN) -c $< -o $@

$(BUILD)/bench-native/%.o: libvgpu/native/%.c $(NATIVE_HDRS) libvgpu/cache_store.h core/*.h uapi/vgpu_isa.h
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/tests/unit/test_native: tests/unit/test_native.c tests/unit/core_run.h \
		tests/bench/bench_kernels.h tests/tap.h \
		tests/isa_build.h $(UNIT_NATIVE_OBJS) $(UNIT_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu/native $(CORE_USER) $(CFLAGS) $(SAN) $< \
		$(UNIT_NATIVE_OBJS) $(UNIT_CORE_OBJS) $(LLVM_LIBS) -lm -o $@

# libcuda.so loads the native engine, with the core it shares the
# interpreter's semantics with, only when a launch wants it (engine.c):
# programs that never run natively never load LLVM.
LIBNATIVE := $(BUILD)/lib/libvgpu-native.so.1
PIC_NATIVE_OBJS := $(patsubst libvgpu/native/%.c,$(BUILD)/pic-native/%.o,$(NATIVE_SRCS)) \
	$(BUILD)/pic-native/cache_store.o
PIC_CORE_OBJS := $(patsubst core/%.c,$(BUILD)/pic-core/%.o,$(CORE_SRCS))

$(BUILD)/pic-native/%.o: libvgpu/native/%.c $(NATIVE_HDRS) libvgpu/cache_store.h core/*.h uapi/vgpu_isa.h
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@

$(BUILD)/pic-core/%.o: core/%.c core/*.h uapi/vgpu_isa.h uapi/vgpu_tex.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CORE_USER) $(CORE_OBJ_FLAGS) $(CFLAGS) -fPIC -c $< -o $@

lib: $(LIBNATIVE)

$(LIBNATIVE): $(PIC_NATIVE_OBJS) $(PIC_CORE_OBJS) libvgpu/native/native.map
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(PIC_NATIVE_OBJS) $(PIC_CORE_OBJS) -Wl,-soname,libvgpu-native.so.1 \
		-Wl,--version-script=libvgpu/native/native.map -Wl,-z,defs $(LLVM_LIBS) -lm

# The C the native engine is measured against: only these get
# -O3 -march=native.
$(BUILD)/bench-native/ref_kernels.o: tests/bench/native_ref.c tests/bench/native_ref.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -O3 -march=native $(WARN) -Itests/bench -c $< -o $@

# In the VM "native" is the VM's CPU, which has AVX2 but not AVX-512 (QEMU's
# TCG): the host's -march=native may not run there.
VM_MARCH ?= x86-64-v3
$(BUILD)/bench-native/ref_kernels_vm.o: tests/bench/native_ref.c tests/bench/native_ref.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -O3 -march=$(VM_MARCH) $(WARN) -Itests/bench -c $< -o $@

# The bench kernels' launches on the engine, which its benches share.
$(BUILD)/bench-native/native_time.o: tests/bench/native_time.c tests/bench/native_time.h \
		tests/bench/bench_kernels.h tests/bench/bench_host.h tests/isa_build.h \
		$(NATIVE_HDRS) core/*.h uapi/vgpu_isa.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu/native $(CORE_USER) $(CFLAGS) -c $< -o $@

NATIVE_BENCH_OBJS := $(BUILD)/bench-native/native_time.o $(BUILD)/bench-native/ref_kernels.o \
	$(BENCH_NATIVE_OBJS) $(BENCH_CORE_OBJS)

$(BUILD)/bench/native_bench: tests/bench/native_bench.c tests/bench/native_ref.h \
		tests/bench/native_time.h tests/bench/bench_host.h $(NATIVE_BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu/native $(CORE_USER) $(CFLAGS) $< $(NATIVE_BENCH_OBJS) \
		$(LLVM_LIBS) -lm -o $@

VM_NATIVE_BENCH_OBJS := $(filter-out %/ref_kernels.o,$(NATIVE_BENCH_OBJS)) \
	$(BUILD)/bench-native/ref_kernels_vm.o

$(BUILD)/bench/vm/native_bench: tests/bench/native_bench.c tests/bench/native_ref.h \
		tests/bench/native_time.h tests/bench/bench_host.h $(VM_NATIVE_BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu/native $(CORE_USER) $(CFLAGS) $< $(VM_NATIVE_BENCH_OBJS) \
		$(LLVM_LIBS) -lm -o $@

# The engine against POCL, an OpenCL implementation for the CPU
# (pocl_bench.c); the kernels' OpenCL C (pocl_kernels.cl) is built into
# it as a string.
POCL_KERNELS := $(BUILD)/gen/pocl_kernels.h

$(POCL_KERNELS): tests/bench/pocl_kernels.cl
	@mkdir -p $(@D)
	sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $< > $@.tmp
	mv $@.tmp $@

$(POCL_BENCH): tests/bench/pocl_bench.c tests/bench/native_ref.h tests/bench/native_time.h \
		tests/bench/bench_host.h $(POCL_KERNELS) $(NATIVE_BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -I$(BUILD)/gen -Ilibvgpu/native $(CORE_USER) $(CFLAGS) $< \
		$(NATIVE_BENCH_OBJS) $(LLVM_LIBS) -lOpenCL -lm -o $@

$(BUILD)/bench/vm/pocl_bench: tests/bench/pocl_bench.c tests/bench/native_ref.h \
		tests/bench/native_time.h tests/bench/bench_host.h $(POCL_KERNELS) \
		$(VM_NATIVE_BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -I$(BUILD)/gen -Ilibvgpu/native $(CORE_USER) $(CFLAGS) $< \
		$(VM_NATIVE_BENCH_OBJS) $(LLVM_LIBS) -lOpenCL -lm -o $@

# libFuzzer needs clang; the target links the core's sources directly.
$(BUILD)/fuzz/fuzz_isa: tests/fuzz/fuzz_isa.c $(CORE_SRCS) core/*.h uapi/vgpu_isa.h
	@mkdir -p $(@D)
	clang -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Wno-missing-field-initializers \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(CPPFLAGS) $(CORE_USER) $< $(CORE_SRCS) -lm -o $@

# The JIT's target links the front end and lowering, and the verifier
# with the ISA description it builds on.
JIT_SRCS := $(wildcard libvgpu/jit/*.c)
$(BUILD)/fuzz/fuzz_ptx: tests/fuzz/fuzz_ptx.c $(JIT_SRCS) $(LIB_HDRS) $(CORE_SRCS) core/*.h
	@mkdir -p $(@D)
	clang -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Wno-missing-field-initializers \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(CPPFLAGS) -Ilibvgpu -Ilibvgpu/jit $(CORE_USER) $< \
		$(JIT_SRCS) core/isa_desc.c core/isa_verify.c core/shim_user.c -o $@

# The image readers' and the linker's targets add the fatbin reader (and
# the compression libraries it inflates with) and the compiled-module
# reader to the JIT and the verifier.
FUZZ_IMAGE_SRCS := libvgpu/fatbin.c libvgpu/jit_image.c $(JIT_SRCS) \
	core/isa_desc.c core/isa_verify.c core/shim_user.c
$(BUILD)/fuzz/fuzz_fatbin $(BUILD)/fuzz/fuzz_link: $(BUILD)/fuzz/%: tests/fuzz/%.c \
		$(FUZZ_IMAGE_SRCS) $(LIB_HDRS) core/*.h
	@mkdir -p $(@D)
	clang -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Wno-missing-field-initializers \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(CPPFLAGS) -Ilibvgpu -Ilibvgpu/jit $(CORE_USER) $< \
		$(FUZZ_IMAGE_SRCS) -lzstd -llz4 -o $@

# Unit tests link libvgpu's objects directly, built with sanitizers.
$(BUILD)/unit/libvgpu/%.o: libvgpu/%.c $(LIB_HDRS) libvgpu/include/cuda.h uapi/vgpu.h core/isa.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN) -c $< -o $@

$(BUILD)/tests/unit/test_isa_text: tests/unit/test_isa_text.c tools/isa_text.c \
		tools/isa_text.h tests/tap.h $(UNIT_LIB_OBJS) $(UNIT_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu -Ilibvgpu/jit $(CORE_USER) $(CFLAGS) $(SAN) $< tools/isa_text.c \
		$(UNIT_LIB_OBJS) $(UNIT_CORE_OBJS) $(LIB_LIBS) -lm -o $@

$(BUILD)/unit/core/%.o: core/%.c core/*.h uapi/vgpu_isa.h uapi/vgpu_tex.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CORE_USER) $(CORE_OBJ_FLAGS) $(CFLAGS) $(SAN) -c $< -o $@

$(BUILD)/tests/unit/%: tests/unit/%.c tests/tap.h tests/unit/data/h100_tex_sets.h tests/fp_h100_cases.h tests/unit/core_run.h tests/gridsync_ptx.h tests/isa_build.h tests/isa_verify_cases.h $(UNIT_LIB_OBJS) $(UNIT_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu -Ilibvgpu/jit $(CORE_USER) $(CFLAGS) $(SAN) $< $(UNIT_LIB_OBJS) \
		$(UNIT_CORE_OBJS) $(LIB_LIBS) -lm -o $@

# The runtime's test links vgpu's libcudart.so.13, with the runtime's types
# from the toolkit's headers.
$(BUILD)/tests/unit/test_rt: tests/unit/test_rt.c tests/tap.h libvgpu/rt/*.h $(LIBCUDART)
	@mkdir -p $(@D)
	$(CC) $(RT_CPPFLAGS) -I$(CURDIR)/tests -I$(CURDIR)/libvgpu/rt $(CFLAGS) $(SAN) $< \
		$(LIBCUDART) -Wl,-rpath,$(BUILD)/lib -lpthread -o $@

# The runtime's device link of -rdc=true programs, over a fake driver.
$(BUILD)/tests/unit/test_rt_rdc: tests/unit/test_rt_rdc.c tests/tap.h libvgpu/rt/rdc.c libvgpu/rt/*.h libvgpu/fatbin.h
	@mkdir -p $(@D)
	$(CC) $(RT_CPPFLAGS) -I$(CURDIR)/tests -I$(CURDIR)/libvgpu/rt $(CFLAGS) $(SAN) $< \
		libvgpu/rt/rdc.c -o $@

# The runtime's descriptors of arrays, textures and surfaces as the
# driver's: conversions alone, no driver.
$(BUILD)/tests/unit/test_rt_texdesc: tests/unit/test_rt_texdesc.c tests/tap.h libvgpu/rt/texdesc.c libvgpu/rt/*.h
	@mkdir -p $(@D)
	$(CC) $(RT_CPPFLAGS) -I$(CURDIR)/tests -I$(CURDIR)/libvgpu/rt $(CFLAGS) $(SAN) $< \
		libvgpu/rt/texdesc.c -o $@

# The fatbin reader's test reads vecadd built by nvcc in the ways of
# ptx-notes §5.6: the default (PTX compressed with ZSTD), uncompressed,
# LZ4, SASS only, arch-specific (sm_90a), and PTX for several archs.
FATBIN_DIR := $(BUILD)/tests/data
FATBIN_OPTS_default :=
FATBIN_OPTS_nocompress := --no-compress
FATBIN_OPTS_lz4 := --compress-mode=speed
FATBIN_OPTS_sm75_sass := -gencode arch=compute_75,code=sm_75
FATBIN_OPTS_sm90a := -arch=sm_90a
FATBIN_OPTS_multi := -gencode arch=compute_75,code=compute_75 \
	-gencode arch=compute_90,code=compute_90 -gencode arch=compute_100a,code=compute_100a
FATBINS := $(foreach f,default nocompress lz4 sm75_sass sm90a multi,$(FATBIN_DIR)/vecadd_$(f).fatbin)

$(FATBIN_DIR)/vecadd_%.fatbin: tests/unit/data/vecadd.cu
	@mkdir -p $(@D)
	nvcc -fatbin $(FATBIN_OPTS_$*) -o $@ $<

$(BUILD)/tests/unit/test_fatbin: $(FATBINS)
$(BUILD)/tests/unit/test_fatbin: private CPPFLAGS += -DFATBIN_DIR='"$(FATBIN_DIR)"'

# The JIT's test runs what nvcc makes of function pointers.
FNPTR_PTX := $(BUILD)/tests/data/fnptr.ptx

$(FNPTR_PTX): tests/unit/data/fnptr.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 $< -o $@

$(BUILD)/tests/unit/test_jit: $(FNPTR_PTX)
$(BUILD)/tests/unit/test_jit: private CPPFLAGS += -DFNPTR_PTX='"$(FNPTR_PTX)"'

# And what nvcc makes of byte permutes, funnel shifts, dot products, matches
# and inline PTX for the other instructions lowered to sequences.
OPS_PTX := $(BUILD)/tests/data/ops.ptx

$(OPS_PTX): tests/unit/data/ops.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 $< -o $@

$(BUILD)/tests/unit/test_jit_ops: $(OPS_PTX)
$(BUILD)/tests/unit/test_jit_ops: private CPPFLAGS += -DOPS_PTX='"$(OPS_PTX)"'

# The verifier's test reads the verifier's sources for their messages.
$(BUILD)/tests/unit/test_isa_verify: private CPPFLAGS += -DCORE_DIR='"$(CURDIR)/core"'

# The uapi layout test is also built for 32-bit user space (compat ioctls).
$(BUILD)/tests/unit/test_uapi_layout: tests/unit/test_uapi_layout.c uapi/vgpu.h uapi/vgpu_isa.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@
	$(CC) $(CPPFLAGS) $(CFLAGS) -m32 -fsyntax-only $<

# kselftest_harness.h and kselftest.h come from Debian's linux-source-6.1.
$(KSFT_HEADERS):
	@test -r $(LINUX_SOURCE) || { echo "$(LINUX_SOURCE) missing (run make install-deps)"; exit 1; }
	@mkdir -p $(KSFT_DIR)
	tar -xJf $(LINUX_SOURCE) -C $(KSFT_DIR) --strip-components=4 \
		linux-source-6.1/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.1/tools/testing/selftests/kselftest.h
	@touch $(KSFT_HEADERS)

$(BUILD)/tests/kselftest/%: tests/kselftest/%.c tests/kselftest/vgpu_chan_util.h tests/isa_build.h tests/isa_verify_cases.h uapi/vgpu.h \
		tests/vgpu_errno.h $(ERRNO_TABLE) $(KSFT_HEADERS)
	@mkdir -p $(@D)
	$(CC) -I$(KSFT_DIR) -I$(CURDIR) -I$(BUILD)/gen -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror \
		-Wno-unused-parameter -Wno-sign-compare $(KSFT_CFLAGS) $< -lpthread $(KSFT_LIBS) -o $@

# The programs that share buffers with vgem: the kselftest through the
# kernel's DRM uapi headers (Debian ships them with libdrm), the sample and
# the e2e test through libdrm itself.
$(BUILD)/tests/kselftest/vgpu_dmabuf: KSFT_CFLAGS = $(shell pkg-config --cflags libdrm)
DRM_CFLAGS_vgem_roundtrip = $(shell pkg-config --cflags libdrm)
DRM_LIBS_vgem_roundtrip = $(shell pkg-config --libs libdrm)
DRM_CFLAGS_extmem_api = $(shell pkg-config --cflags libdrm)
DRM_LIBS_extmem_api = $(shell pkg-config --libs libdrm)
DRM_CFLAGS_extsem_api = $(shell pkg-config --cflags libdrm)
DRM_LIBS_extsem_api = $(shell pkg-config --libs libdrm)

$(BUILD)/tests/e2e/%: tests/e2e/%.c tests/tap.h tests/gridsync_ptx.h tests/h100_log.h tests/fp_h100_cases.h tests/probe_run.h tests/vgem.h libvgpu/include/cuda.h $(LIBVGPU)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DRM_CFLAGS_$*) $< $(LINK_LIBVGPU) $(DRM_LIBS_$*) -o $@

# Tests that run an H200 probe (probe_run.h) build its source in.
$(BUILD)/tests/e2e/graph_dot_api: tests/e2e/ref/h200_graph_dot.c
$(BUILD)/tests/e2e/graph_memop_api: tests/e2e/ref/h200_graph_memop.c
$(BUILD)/tests/e2e/graph_memory_api: tests/e2e/ref/h200_graphmem.c
$(BUILD)/tests/e2e/capture_misc_api: tests/e2e/ref/h200_capture_misc.c
$(BUILD)/tests/e2e/extsem_api: tests/e2e/ref/h200_extsem.c

# devmalloc_api runs the kernels the H100 ran for its reference log,
# compiled by nvcc (outside build/tests/e2e, whose files are all tests).
DEVMALLOC_PTX := $(BUILD)/tests/e2e-ptx/devmalloc_k.ptx
$(DEVMALLOC_PTX): tests/e2e/ref/h100_devmalloc_k.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 $< -o $@
$(BUILD)/tests/e2e/devmalloc_api: $(DEVMALLOC_PTX)
$(BUILD)/tests/e2e/devmalloc_api: CPPFLAGS += '-DPTX_FILE="$(DEVMALLOC_PTX)"'
# assert_api runs the kernel of the H100's assert probe.
ASSERT_PTX := $(BUILD)/tests/e2e-ptx/assert_k.ptx
$(ASSERT_PTX): tests/e2e/ref/h100_assert_k.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 $< -o $@
$(BUILD)/tests/e2e/assert_api: $(ASSERT_PTX)
$(BUILD)/tests/e2e/assert_api: CPPFLAGS += '-DPTX_FILE="$(ASSERT_PTX)"'
# limits_api runs the kernels of the H100 probe it compares with
# (tests/e2e/ref/h100_printf_fifo*): as the H100 ran them, and without the
# recursion the JIT refuses.
LIMITS_PTX := $(BUILD)/tests/data/h100_printf_fifo_k.ptx \
	$(BUILD)/tests/data/h100_printf_fifo_k_norec.ptx \
	$(BUILD)/tests/data/h100_printf_fifo_k2.ptx

$(BUILD)/tests/data/h100_printf_fifo_k_norec.ptx: tests/e2e/ref/h100_printf_fifo_k.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 -DVG_NO_RECURSION $< -o $@

$(BUILD)/tests/data/h100_printf_fifo_%.ptx: tests/e2e/ref/h100_printf_fifo_%.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 $< -o $@

$(BUILD)/tests/e2e/limits_api: $(LIMITS_PTX)
$(BUILD)/tests/e2e/limits_api: private CPPFLAGS += '-DPTX_DIR="$(BUILD)/tests/data"'

# What tests/vm/smi.sh watches vgpu-smi report.
$(BUILD)/tests/vm/gpu_holder: tests/vm/gpu_holder.c libvgpu/include/cuda.h $(LIBVGPU)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(LINK_LIBVGPU) -o $@

# A sample's kernels (tests/samples/NAME.cu) become PTX at build time; the
# program finds them in PTX_DIR.
# NAME_fast.cu is built with --use_fast_math, NAME_rdc.cu with -rdc=true
# (its .extern symbols are resolved by cuLink*).
$(BUILD)/samples/%.ptx: tests/samples/%.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 $(if $(findstring _fast,$*),--use_fast_math) \
		$(if $(findstring _rdc,$*),-rdc=true) $< -o $@

$(BUILD)/samples/%: tests/samples/%.c tests/samples/sample.h libvgpu/include/cuda.h \
		$(LIBVGPU) $(SAMPLE_PTX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/samples '-DPTX_DIR="$(BUILD)/samples"' \
		$(DRM_CFLAGS_$*) $< $(LINK_LIBVGPU) $(DRM_LIBS_$*) -lm -o $@

$(BUILD)/samples/rt/%: tests/samples/rt/%.cu tests/samples/rt/rt.h $(LIBCUDART)
	@mkdir -p $(@D)
	nvcc -cudart shared -gencode $(or $(RT_SAMPLE_ARCH_$*),$(RT_SAMPLE_ARCH)) \
		$(RT_SAMPLE_FLAGS_$*) \
		-Xcompiler -Wall,-Wextra,-Werror '-DVGPU_LIB_DIR="$(BUILD)/lib"' \
		-Xlinker -rpath,$(BUILD)/lib $< $(RT_SAMPLE_SRCS_$*) -ldl \
		$(RT_SAMPLE_LIBS_$*) -o $@

$(BUILD)/samples/rt/rt_rdc: $(RT_SAMPLE_SRCS_rt_rdc)
$(BUILD)/samples/rt/rt_texobj: $(RT_SAMPLE_SRCS_rt_texobj)

# rt_rdc_dlink is rt_rdc built the other way: each file compiled alone
# (-dc), the device link in a step of its own (-dlink), and the host link
# by the C++ compiler, which needs the device runtime library nvlink's
# stub names (nvcc adds it itself).
RT_RDC_DLINK_SRCS := tests/samples/rt/rt_rdc.cu $(RT_SAMPLE_SRCS_rt_rdc)
RT_RDC_DLINK_OBJS := $(patsubst tests/samples/rt/%.cu,$(BUILD)/samples/rt/dc/%.o,$(RT_RDC_DLINK_SRCS))

$(BUILD)/samples/rt/dc/%.o: tests/samples/rt/%.cu tests/samples/rt/rt.h
	@mkdir -p $(@D)
	nvcc -cudart shared -gencode $(RT_SAMPLE_ARCH) -dc \
		-Xcompiler -Wall,-Wextra,-Werror '-DVGPU_LIB_DIR="$(BUILD)/lib"' \
		$< -o $@

$(BUILD)/samples/rt/dc/dlink.o: $(RT_RDC_DLINK_OBJS)
	nvcc -cudart shared -gencode $(RT_SAMPLE_ARCH) -dlink $^ -o $@

$(BUILD)/samples/rt/rt_rdc_dlink: $(RT_RDC_DLINK_OBJS) $(BUILD)/samples/rt/dc/dlink.o $(LIBCUDART)
	$(CXX) $(RT_RDC_DLINK_OBJS) $(BUILD)/samples/rt/dc/dlink.o \
		-Wl,-rpath,$(BUILD)/lib -L$(dir $(CUDA_STUB)).. -lcudadevrt \
		$(LIBCUDART) -ldl -o $@

# The dlopen sample links no libcuda: it dlopen()s libcuda.so.1, found
# through its rpath, and dlsym()s every entry point of the toolkit's stub
# library, whose names a rule lists at build time (build/gen/cuda_symbols.h,
# never committed).
CUDA_STUB ?= /usr/local/cuda/lib64/stubs/libcuda.so
CUDA_SYMBOLS := $(BUILD)/gen/cuda_symbols.h

$(CUDA_SYMBOLS): $(CUDA_STUB)
	@mkdir -p $(@D)
	nm -D --defined-only $< | awk '$$2 == "T" { printf "\t\"%s\",\n", $$3 } \
		END { if (!n) exit 1 } $$2 == "T" { n++ }' > $@.tmp
	mv $@.tmp $@

$(CUDA_STUB):
	@echo "$@ not found: the dlopen sample's table of entry points is" \
		"made from the CUDA toolkit's stub libcuda.so; set CUDA_STUB to it" >&2
	@exit 1

$(BUILD)/samples/dlopen: tests/samples/dlopen.c tests/samples/sample.h libvgpu/include/cuda.h \
		$(CUDA_SYMBOLS) $(LIBVGPU) $(BUILD)/samples/vectoradd.ptx
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/samples -I$(BUILD)/gen '-DPTX_DIR="$(BUILD)/samples"' \
		'-DVGPU_LIB_DIR="$(BUILD)/lib"' $< -Wl,-rpath,$(BUILD)/lib -ldl -lm -o $@

# The JIT's benchmark links libvgpu's objects (the library hides the JIT)
# and compiles the module that nvcc makes of tests/bench/jit_bench.cu.
$(BUILD)/bench/jit_bench.ptx: tests/bench/jit_bench.cu
	@mkdir -p $(@D)
	nvcc -ptx -arch=compute_75 $< -o $@

$(BUILD)/bench/jit_bench: tests/bench/jit_bench.c $(BUILD)/bench/jit_bench.ptx $(LIB_HDRS) \
		$(LIB_OBJS) $(LIB_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ilibvgpu -Ilibvgpu/jit $(CFLAGS) '-DJIT_BENCH_PTX="$(BUILD)/bench/jit_bench.ptx"' $< \
		$(LIB_OBJS) $(LIB_CORE_OBJS) $(LIB_LIBS) -o $@

$(BUILD)/bench/%: tests/bench/%.c libvgpu/include/cuda.h uapi/vgpu.h $(LIBVGPU)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -std=gnu11 $< $(LINK_LIBVGPU) -o $@

# --- install -------------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=STAGE]; make uninstall with the
# same variables removes what it installed. The library goes to
# $(PREFIX)/lib, which ldconfig and pkg-config search on every distribution
# for /usr/local (Debian's multiarch folder is for its own packages; set
# LIBDIR for those). cuda.h goes under include/vgpu/, not beside another
# cuda.h: pkg-config and CMake give that folder. DKMS finds module sources
# only in /usr/src and udev reads local rules from /etc/udev/rules.d,
# whatever PREFIX is.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR ?= $(LIBDIR)/cmake/vgpu
DKMSDIR ?= /usr/src/vgpu-$(VERSION)
UDEVRULESDIR ?= /etc/udev/rules.d
# The library's file, then its names: the soname (NVIDIA's), the name
# -lcuda links, and -lvgpu, which no other libcuda.so on the path can take.
LIB_FILE := libvgpu.so.$(VERSION)
LIB_LINKS := libcuda.so.1 libcuda.so libvgpu.so
KMOD_SRCS := Kbuild $(wildcard kmod/*.c kmod/*.h) $(filter-out core/shim_user.c,\
	$(wildcard core/*.c core/*.h)) $(wildcard uapi/*.h)
SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(firstword $(subst ., ,$(VERSION)))|g' \
	-e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	-e "s|@REL_LIBDIR@|$$(realpath -m --relative-to=$(CMAKEDIR) $(LIBDIR))|g" \
	-e "s|@REL_INCLUDEDIR@|$$(realpath -m --relative-to=$(CMAKEDIR) $(INCLUDEDIR))|g"

install: $(LIBVGPU) $(LIBCUDART) $(LIBNATIVE) $(TOOLS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/vgpu/uapi \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(DKMSDIR) \
		$(DESTDIR)$(UDEVRULESDIR)
	install -m 755 $(TOOLS) $(DESTDIR)$(BINDIR)/
	install -m 755 $(LIBVGPU) $(DESTDIR)$(LIBDIR)/$(LIB_FILE)
	install -m 755 $(LIBCUDART) $(DESTDIR)$(LIBDIR)/libcudart.so.13
	install -m 755 $(LIBNATIVE) $(DESTDIR)$(LIBDIR)/libvgpu-native.so.1
	ln -sf $(LIB_FILE) $(DESTDIR)$(LIBDIR)/libcuda.so.1
	ln -sf libcuda.so.1 $(DESTDIR)$(LIBDIR)/libcuda.so
	ln -sf libcuda.so.1 $(DESTDIR)$(LIBDIR)/libvgpu.so
	install -m 644 libvgpu/include/cuda.h libvgpu/include/cudaProfiler.h \
		$(DESTDIR)$(INCLUDEDIR)/vgpu/
	install -m 644 uapi/vgpu.h uapi/vgpu_isa.h $(DESTDIR)$(INCLUDEDIR)/vgpu/uapi/
	$(SUBST) tools/install/vgpu.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/vgpu.pc
	$(SUBST) tools/install/vgpuConfig.cmake.in > $(DESTDIR)$(CMAKEDIR)/vgpuConfig.cmake
	$(SUBST) tools/install/vgpuConfigVersion.cmake.in > $(DESTDIR)$(CMAKEDIR)/vgpuConfigVersion.cmake
	for f in $(KMOD_SRCS); do install -D -m 644 $$f $(DESTDIR)$(DKMSDIR)/$$f || exit 1; done
	$(SUBST) tools/install/Makefile.dkms.in > $(DESTDIR)$(DKMSDIR)/Makefile
	$(SUBST) tools/install/dkms.conf.in > $(DESTDIR)$(DKMSDIR)/dkms.conf
	install -m 644 tools/install/70-vgpu.rules $(DESTDIR)$(UDEVRULESDIR)/
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then echo ldconfig; ldconfig; fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(TOOLS))) \
		$(addprefix $(DESTDIR)$(LIBDIR)/,$(LIB_FILE) $(LIB_LINKS) \
			libcudart.so.13 libvgpu-native.so.1) \
		$(DESTDIR)$(PKGCONFIGDIR)/vgpu.pc $(DESTDIR)$(UDEVRULESDIR)/70-vgpu.rules
	rm -rf $(DESTDIR)$(INCLUDEDIR)/vgpu $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(DKMSDIR)
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then echo ldconfig; ldconfig; fi

# --- the two commands --------------------------------------------------------
install-deps:
	tools/install-deps

demo:
	tools/install-deps
	$(MAKE) all vm-module-stock
	tools/vm/run --module-args "num_devices=2" -- $(BUILD)/samples/devicequery

# Benchmarks: ratios measured in one run, printed as "NAME: VALUE": the
# native engine's on the host, against C and then against POCL; the same
# in the VM (which reaches the host's LLVM and POCL through its view of
# the host's /), named without "host_"; then the VM's own.
bench:
	tools/install-deps
	$(MAKE) all vm-module-stock
	$(NATIVE_BENCH)
	$(POCL_BENCH)
	tools/vm/run --module-args "num_devices=2 mem_mb=512" -- sh -c \
		'$(BUILD)/bench/vm/native_bench --vm && \
		POCL_CACHE_DIR=/tmp/pocl $(BUILD)/bench/vm/pocl_bench --vm && \
		for b in $(BENCHES); do $$b || exit 1; done'

# The debug kernel's VM for SOAK_MINUTES: the ioctl fuzzer, then the
# driver-API soak (tests/vm/soak.sh). The VM's limit leaves room to boot
# and settle.
SOAK_MINUTES ?= 30
soak:
	$(MAKE) all vm-module-debug
	tools/vm/run --debug --timeout $$(($(SOAK_MINUTES) * 60 + 900)) \
		--module-args "num_devices=2 sm_count=3 mem_mb=512" -- tests/vm/soak.sh $(SOAK_MINUTES)

check:
	tools/install-deps
	$(MAKE) all vm-module-stock vm-module-newer vm-module-debug
	tests/run-all

clean:
	rm -rf $(BUILD)

/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu user-space ABI: the ioctls of /dev/vgpuN, shared verbatim by vgpu.ko
 * and libvgpu.
 *
 * Conventions every ioctl follows:
 *  - one open file is one GPU context; nothing is shared between files;
 *  - structures use fixed-width fields only, are naturally aligned, carry
 *    explicit padding and have a size that is a multiple of 8;
 *  - user pointers travel as __u64;
 *  - every pad, reserved field and unknown flag bit must be zero (-EINVAL);
 *  - structures grow only by appending fields. The size in the ioctl number
 *    is the caller's: a shorter (older) structure is zero-extended, a longer
 *    (newer) one is accepted only if the bytes the kernel does not know are
 *    zero (-E2BIG otherwise), and one shorter than the first version of the
 *    structure is refused (-EINVAL);
 *  - unknown ioctl numbers fail with -ENOTTY, unreadable or unwritable
 *    argument memory with -EFAULT; a command that creates something and
 *    cannot write its handle back creates nothing;
 *  - results are written into the structure; the return value is 0.
 *
 * Errors are documented once, here and in each ioctl's structure: every
 * error an ioctl returns is in the "Errors:" paragraph of its structure or
 * in the list below, which holds for all of them. Each -E name in those
 * paragraphs is one the ioctl may return; tools/gen-errno-table reads them
 * from this file, and the ioctl fuzzer fails on any other.
 *
 * Errors of every ioctl:
 *  -EINVAL: a nonzero pad, reserved field or unknown flag bit; a structure
 *	shorter than the first version of it;
 *  -E2BIG: a structure longer than the kernel's whose extra bytes are not
 *	all zero;
 *  -EFAULT: the argument cannot be read, or cannot be written back (where
 *	the ioctl writes results).
 *
 * Errors of an unknown ioctl number (this type, but no such command, or
 * the command with the wrong direction bits):
 *  -ENOTTY.
 *
 * An interrupted wait returns -EINTR only when the signal's handler was
 * installed without SA_RESTART; otherwise the call restarts, and
 * deadlines, being absolute, still hold. -EINTR listed for work that only
 * a fatal signal interrupts is never seen by the caller, which is being
 * killed.
 */
#ifndef _UAPI_VGPU_H
#define _UAPI_VGPU_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * Bumped when an ioctl or a structure changes incompatibly. 2: a launch
 * command carries its grid workspace (VGPU_CMD_LAUNCH.grid_sync), which
 * an older module would ignore; VGPU_IOCTL_HEAP_CREATE is new. 3: the
 * generic-address windows of shared and local memory moved to
 * VGPU_RESERVED_BASE (uapi/vgpu_isa.h), out of the reach of user
 * addresses under 5-level paging: programs compiled for the old windows
 * (their cvta instructions add the window's address) would reach global
 * memory on a module of the new ones, and the other way round.
 */
#define VGPU_ABI_VERSION 3

/* ioctl type byte (unused in Documentation/userspace-api/ioctl). */
#define VGPU_IOCTL_TYPE 0xB9

#define VGPU_NAME_LEN 64
#define VGPU_UUID_LEN 16

/**
 * struct vgpu_info - VGPU_IOCTL_GET_INFO: what the device is.
 * @flags: In. Must be 0.
 * @abi_version: Out. VGPU_ABI_VERSION of the module.
 * @mem_size: Out. Device memory in bytes.
 * @index: Out. N of /dev/vgpuN.
 * @sm_count: Out. Number of streaming multiprocessors.
 * @cc_major: Out. Compute capability, major part.
 * @cc_minor: Out. Compute capability, minor part.
 * @warp_size: Out. Threads in a warp.
 * @max_threads_per_block: Out. Upper bound on x*y*z of a block.
 * @max_block_dim: Out. Largest block extent in x, y and z.
 * @max_grid_dim: Out. Largest grid extent in x, y and z.
 * @max_threads_per_sm: Out. Resident threads per multiprocessor.
 * @max_blocks_per_sm: Out. Resident blocks per multiprocessor.
 * @shared_mem_per_block: Out. Bytes of shared memory a block may use.
 * @shared_mem_per_sm: Out. Bytes of shared memory per multiprocessor.
 * @regs_per_block: Out. 32-bit registers a block may use.
 * @regs_per_sm: Out. 32-bit registers per multiprocessor.
 * @const_mem_size: Out. Bytes of constant memory.
 * @clock_khz: Out. Nominal SM clock in kHz (clock64 advances at this rate).
 * @copy_engines: Out. Number of copy engines.
 * @pad: Structure padding. Must be 0.
 * @uuid: Out. Stable identifier of this device.
 * @name: Out. NUL-terminated device name.
 * @mem_free: Out. Device memory not allocated by any context, in bytes.
 *	(Appended after ABI version 1's first layout, which ends at @name.)
 *
 * Errors: none but those of every ioctl.
 */
struct vgpu_info {
	__u32 flags;
	__u32 abi_version;
	__u64 mem_size;
	__u32 index;
	__u32 sm_count;
	__u32 cc_major;
	__u32 cc_minor;
	__u32 warp_size;
	__u32 max_threads_per_block;
	__u32 max_block_dim[3];
	__u32 max_grid_dim[3];
	__u32 max_threads_per_sm;
	__u32 max_blocks_per_sm;
	__u32 shared_mem_per_block;
	__u32 shared_mem_per_sm;
	__u32 regs_per_block;
	__u32 regs_per_sm;
	__u32 const_mem_size;
	__u32 clock_khz;
	__u32 copy_engines;
	__u32 pad;
	__u8 uuid[VGPU_UUID_LEN];
	char name[VGPU_NAME_LEN];
	__u64 mem_free;
};

/* Size of the first layout of struct vgpu_info (up to @name). */
#define VGPU_INFO_SIZE_V1 184

/*
 * Device addresses. Each context places its device memory inside a window
 * of addresses that user space has reserved in its own address space (an
 * inaccessible mapping), so device pointers never collide with host
 * pointers and dereferencing one on the host faults, as with CUDA's unified
 * addressing. The window ends below VGPU_VA_LIMIT, far below the ISA's
 * reserved generic addresses (VGPU_RESERVED_BASE in uapi/vgpu_isa.h).
 * Windows and chunks of device memory are aligned to
 * VGPU_VA_ALIGN; allocations up to VGPU_SUBALLOC_MAX share chunks and are
 * placed on VGPU_SUBALLOC_ALIGN boundaries, larger ones get chunks of their
 * own.
 */
#define VGPU_VA_ALIGN (2ULL << 20)
#define VGPU_VA_WINDOW_MAX _BITULL(42)
#define VGPU_VA_LIMIT _BITULL(47)
#define VGPU_SUBALLOC_ALIGN 512ULL
#define VGPU_SUBALLOC_MAX _BITULL(20)

/**
 * struct vgpu_va_window - VGPU_IOCTL_SET_VA_WINDOW: where this context's
 * device addresses live. Set once, before the first allocation.
 * @base: In. First address; a multiple of VGPU_VA_ALIGN, nonzero.
 * @size: In. Length; a nonzero multiple of VGPU_VA_ALIGN, at most
 *	VGPU_VA_WINDOW_MAX; @base + @size at most VGPU_VA_LIMIT.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -EINVAL: a malformed window;
 *  -EBUSY: the window is set already.
 */
struct vgpu_va_window {
	__u64 base;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/**
 * struct vgpu_mem_alloc - VGPU_IOCTL_MEM_ALLOC: allocate device memory.
 * @size: In. Bytes, nonzero. The memory reads as zero.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 * @va: Out. Device address, a multiple of VGPU_SUBALLOC_ALIGN (of
 *	VGPU_VA_ALIGN above VGPU_SUBALLOC_MAX).
 *
 * Errors:
 *  -EINVAL: a zero size, or no window yet;
 *  -ENOMEM: the device (or the caller's memory cgroup) has no room, or
 *	@size is more than the device's memory;
 *  -ENOSPC: the window has no room.
 */
struct vgpu_mem_alloc {
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 va;
};

/**
 * struct vgpu_mem_free - VGPU_IOCTL_MEM_FREE: free an allocation.
 * @va: In. The address VGPU_IOCTL_MEM_ALLOC returned.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -ENOENT: no allocation of this context contains @va;
 *  -EINVAL: one does, but does not start there.
 */
struct vgpu_mem_free {
	__u64 va;
	__u32 flags;
	__u32 pad;
};

/**
 * struct vgpu_mem_query - VGPU_IOCTL_MEM_QUERY: the allocation holding an
 * address.
 * @va: In. Any address inside the allocation.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 * @base: Out. Its first address.
 * @size: Out. Its size as requested.
 *
 * Errors:
 *  -ENOENT: no allocation of this context contains @va.
 */
struct vgpu_mem_query {
	__u64 va;
	__u32 flags;
	__u32 pad;
	__u64 base;
	__u64 size;
};

/* struct vgpu_host_register flags */
#define VGPU_HOST_READ_ONLY _BITUL(0)
#define VGPU_HOST_FLAGS VGPU_HOST_READ_ONLY

/*
 * Largest host range one call registers; the caller's RLIMIT_MEMLOCK (unless
 * it has CAP_IPC_LOCK) bounds what the context's opener has charged.
 */
#define VGPU_HOST_REGISTER_MAX _BITULL(40)

/**
 * struct vgpu_host_register - VGPU_IOCTL_HOST_REGISTER: pin a range of the
 * caller's memory and map it into the context's device address space at
 * the same address (zero-copy), for the copy engines and kernels to use.
 * @addr: In. Start, page aligned. Anonymous, shared-memory (memfd, shmem)
 *	and hugetlb memory can be registered; file mappings may be refused.
 *	The range must end at or below VGPU_RESERVED_BASE (uapi/vgpu_isa.h):
 *	a kernel's generic address there means shared or local memory.
 * @size: In. Length, a nonzero multiple of the page size, at most
 *	VGPU_HOST_REGISTER_MAX.
 * @flags: In. VGPU_HOST_READ_ONLY: the device only reads the range (which
 *	may then be mapped read-only). Other bits must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * The pinned pages are charged, against the caller's RLIMIT_MEMLOCK
 * (unless it has CAP_IPC_LOCK), to the locked memory of the process that
 * opened the context (its VmLck), until they are unregistered or the
 * context is closed: what forked children sharing the context register
 * stays charged there after they exit.
 *
 * Errors:
 *  -EINVAL: alignment, size, flags;
 *  -EFAULT: the range is not in user space (or reaches
 *	VGPU_RESERVED_BASE), part of it is not mapped or not writable
 *	without VGPU_HOST_READ_ONLY, or it is memory the kernel does not
 *	pin long-term (I/O and PFN mappings, secret memory, writable file
 *	mappings from Linux 6.5 on);
 *  -EEXIST: it overlaps a registered range;
 *  -ENOMEM: over RLIMIT_MEMLOCK, no memory, or pages that could not be
 *	moved out of movable memory before pinning;
 *  -EOPNOTSUPP: a file system DAX mapping;
 *  -EBUSY: device-coherent memory that could not be moved;
 *  -EINTR: a fatal signal, while pinning.
 */
struct vgpu_host_register {
	__u64 addr;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/**
 * struct vgpu_host_unregister - VGPU_IOCTL_HOST_UNREGISTER: unpin a range.
 * @addr: In. The @addr it was registered with.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -ENOENT: no registered range holds @addr (memory of HOST_ALLOC is not
 *	registered: munmap() frees it);
 *  -EINVAL: one does, but does not start there.
 */
struct vgpu_host_unregister {
	__u64 addr;
	__u32 flags;
	__u32 pad;
};

/* Largest host allocation one call makes; the memory cgroup bounds the total. */
#define VGPU_HOST_ALLOC_MAX _BITULL(40)

/* VGPU_IOCTL_HOST_ALLOC flags. */
#define VGPU_HOST_ALLOC_MANAGED _BITUL(0)

/**
 * struct vgpu_host_alloc - VGPU_IOCTL_HOST_ALLOC: allocate zeroed, pinned
 * host memory (cuMemHostAlloc) from the kernel, charged to the caller's
 * memory cgroup. Map it with mmap(NULL, @size, PROT_READ | PROT_WRITE,
 * MAP_SHARED, fd, @offset): the mapping is also mapped into the context's
 * device address space at the same address (zero-copy), for as long as it
 * exists. It can be mapped once, is not inherited across fork(), cannot
 * be split or moved, and is freed by munmap() (or by closing the file, if
 * it was never mapped). mmap() fails with EINVAL where the mapping would
 * reach VGPU_RESERVED_BASE (uapi/vgpu_isa.h), which no user address of
 * x86-64 or arm64 does.
 * @size: In. Bytes, a nonzero multiple of the page size, at most
 *	VGPU_HOST_ALLOC_MAX.
 * @flags: In. 0 or VGPU_HOST_ALLOC_MANAGED.
 * @pad: Structure padding. Must be 0.
 * @offset: Out. The mmap offset that names the memory.
 *
 * With VGPU_HOST_ALLOC_MANAGED the memory is managed memory
 * (cuMemAllocManaged): still one set of pages, but the module models
 * where each page lives. The engines' first touch of a page the CPU had
 * counts a device fault, and the page leaves the process's page tables
 * once the command or slice that touched it ends; the CPU's next touch
 * of it then counts a host fault and maps it back. MANAGED_PREFETCH
 * moves pages without faults. The counts are the device's, in sysfs:
 * managed_faults_device and managed_faults_host.
 *
 * The memory, with 8 bytes a page of bookkeeping, counts against the
 * context's budget of kernel memory (the module's ctx_kmem_mb parameter,
 * a quarter of RAM by default; sysfs ctx_kmem_limit) until it is freed.
 *
 * Errors:
 *  -EINVAL: size, flags;
 *  -ENOMEM: no memory, the caller's memory cgroup is full, @size is more
 *	than the machine's memory, or over the context's budget;
 *  -ENOSPC: too many allocations (65536) wait to be mapped;
 *  -EINTR: a fatal signal, while allocating.
 */
struct vgpu_host_alloc {
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 offset;
};

/*
 * Channels: in-order queues of commands executed by the device's engines
 * (a CUDA stream maps onto one). User space writes fixed-size commands
 * into a ring in its own memory and rings the doorbell (CHAN_SUBMIT); the
 * kernel copies each command out of the ring, validates the copy and
 * queues it. Progress is published in a read-only page that the context's
 * file maps at offset 0: one struct vgpu_chan_status per channel, indexed
 * by channel handle.
 *
 * The device has two copy engines, one for copies that read host memory
 * and one for copies that write it; other commands go to either. A
 * channel's commands run one at a time and in order, on whichever engine
 * each needs, so a channel copying to the device and another copying from
 * it progress together.
 *
 * A failed command fails the context, as a fault ends a CUDA context:
 * from then on every channel of the file skips its commands (they
 * complete without running, so fences still advance and no waiter is
 * left behind), launches running on other channels stop at their next
 * slice, and only the channel that failed reports an error. A waiter
 * that sees its fence reached looks at the other channels' errors too.
 *
 * poll() on the file reports EPOLLIN | EPOLLRDNORM while every channel has
 * completed all it was given (the context is idle) and EPOLLPRI once a
 * channel has failed.
 */
#define VGPU_MAX_CHANNELS 128
#define VGPU_RING_MIN 16
#define VGPU_RING_MAX 4096

/* Commands (struct vgpu_cmd.op). */
#define VGPU_CMD_NOP 0
#define VGPU_CMD_COPY 1		/* 2D copy between any two mapped ranges */
#define VGPU_CMD_MEMSET 2	/* 2D fill with an 8, 16 or 32-bit pattern */
#define VGPU_CMD_SEM_RELEASE 3	/* write a 64-bit value (and a time) */
#define VGPU_CMD_SEM_ACQUIRE 4	/* wait for a value to satisfy a test */
#define VGPU_CMD_LAUNCH 5	/* run a kernel of a loaded module */
#define VGPU_CMD_LAUNCH_CHAIN 6	/* run launches one after another */

/*
 * struct vgpu_cmd.flags of the semaphore commands. VGPU_SEM_32 makes the
 * semaphore a 32-bit word (4-byte aligned) instead of a 64-bit one; the
 * VGPU_SEM_* tests are SEM_ACQUIRE's and VGPU_SEM_TIMESTAMP is
 * SEM_RELEASE's (64-bit only).
 */
#define VGPU_SEM_TIMESTAMP _BITUL(0)
#define VGPU_SEM_32 _BITUL(1)
#define VGPU_SEM_TEST_MASK (_BITUL(4) | _BITUL(5))
#define VGPU_SEM_GEQ 0		/* (signed)(*addr - value) >= 0 */
#define VGPU_SEM_EQ _BITUL(4)	/* *addr == value */
#define VGPU_SEM_AND _BITUL(5)	/* (*addr & value) != 0 */
#define VGPU_SEM_NOR (_BITUL(4) | _BITUL(5))	/* ~(*addr | value) != 0 */
/*
 * With VGPU_SEM_GEQ only: compare as unsigned numbers, *addr >= value, as
 * a timeline semaphore's value (CUDA's external semaphores) is compared.
 */
#define VGPU_SEM_UNSIGNED _BITUL(6)

/*
 * struct vgpu_cmd.flags of LAUNCH: the launch's priority, 0 (the default)
 * to VGPU_LAUNCH_PRIORITY_MAX. The compute engine hands out the blocks of
 * higher-priority launches first (CUDA's stream priorities); launches of
 * equal priority take turns.
 */
#define VGPU_LAUNCH_PRIORITY_MASK 0xfu
#define VGPU_LAUNCH_PRIORITY_MAX 5
/*
 * The launch's blocks go to the context's user-mode SMs (USM_ATTACH),
 * for a launch whose kernel user space can run itself. Without an SM
 * attached when the launch starts, or for a cooperative launch
 * (@grid_sync), the blocks run on the module's SMs as any launch's; so
 * they do when the last user-mode SM detaches with blocks not yet taken.
 */
#define VGPU_LAUNCH_USER_SM _BITUL(8)
/*
 * With VGPU_LAUNCH_USER_SM: each block of the launch ends without waiting
 * for another (its kernel has no loop), so a user-mode SM may take a run
 * of consecutive blocks in one USM_WAIT (@max_blocks) and run them one
 * after another. Without it an SM takes one block at a time, so that
 * blocks that wait for each other all run.
 */
#define VGPU_LAUNCH_USM_RUNS _BITUL(9)

/**
 * struct vgpu_cmd_copy - VGPU_CMD_COPY: @depth slices of @height rows of
 * @width bytes from @src to @dst. Rows are @src_pitch and @dst_pitch bytes
 * apart; slices start @src_height and @dst_height rows apart. Each row
 * must lie inside one device allocation or registered host range.
 *
 * Source and destination may overlap, in any kind of memory (device,
 * registered or allocated host memory), with one rule: each row is read
 * whole before it is written (memmove), and the rows go from the last to
 * the first when @dst is above @src, from the first otherwise, so a copy
 * whose two sides have the same pitch and slice height acts as memmove
 * as a whole. (CUDA leaves overlapping copies undefined; an H100's
 * results vary with size and offset.)
 * @depth: Slices; 0 counts as 1. With one slice @src_height and
 *	@dst_height must be 0; with more they are at least @height.
 */
struct vgpu_cmd_copy {
	__u64 src;
	__u64 dst;
	__u64 width;
	__u64 src_pitch;
	__u64 dst_pitch;
	__u32 height;
	__u32 depth;
	__u32 src_height;
	__u32 dst_height;
};

/**
 * struct vgpu_cmd_memset - VGPU_CMD_MEMSET: @height rows of @width
 * elements of @elem_size bytes (1, 2 or 4) set to the low bytes of @value,
 * rows @pitch bytes apart, starting at @dst (aligned to @elem_size).
 */
struct vgpu_cmd_memset {
	__u64 dst;
	__u64 width;
	__u64 pitch;
	__u32 height;
	__u32 value;
	__u32 elem_size;
	__u32 pad;
};

/**
 * struct vgpu_cmd_sem - the semaphore commands, on the word at @addr.
 *
 * VGPU_CMD_SEM_RELEASE: once every earlier command of the channel has
 * completed, write @value at @addr and, with VGPU_SEM_TIMESTAMP, the
 * CLOCK_MONOTONIC time in ns at @addr + 8 (written first). Everything the
 * channel wrote before is visible to whoever sees the value.
 *
 * VGPU_CMD_SEM_ACQUIRE: the channel waits until the word satisfies the
 * test in flags (GEQ counts in wrapping arithmetic, as fences do, unless
 * VGPU_SEM_UNSIGNED asks for plain unsigned order); later
 * commands see everything written before the value they waited for. The
 * test is evaluated again when any command of the context completes, when
 * the channel's doorbell rings (write the word from the CPU, then submit
 * with nothing new) and periodically. A wait has no time limit; closing
 * the file ends it.
 */
struct vgpu_cmd_sem {
	__u64 addr;
	__u64 value;
};

/**
 * struct vgpu_cmd_launch - VGPU_CMD_LAUNCH: run kernel @func of module
 * @module over a grid of @grid blocks of @block threads, with @dyn_shared
 * bytes of dynamic shared memory per block. The @param_bytes parameter
 * bytes (the kernel's declared size) are read from @params, device or
 * registered host memory, when the launch starts. The command completes
 * when every block has finished; a fault ends the launch and fails the
 * channel (VGPU_CHAN_LAUNCH_FAULT, details from CHAN_FAULT).
 *
 * Checked at submit: dimensions at least 1 and within the device's limits
 * (GET_INFO), static plus dynamic shared memory within the device's
 * shared_mem_per_sm (less 1 KiB from compute capability 8.0 on, which
 * those devices keep per block). The module and kernel are looked up
 * when the launch starts.
 *
 * A cooperative launch names in @grid_sync its grid's workspace: 8 bytes
 * of device memory, 8-aligned, that the kernel's grid-wide barriers use
 * (special registers GRID_SYNC_HI and GRID_SYNC_LO read its address; the
 * 32-bit word at @grid_sync + 4 counts arrivals and must be 0 when the
 * launch starts). Its blocks are all resident at once, so they can wait
 * for each other: the grid must fit the device at once, at most
 * sm_count * max_blocks_per_sm blocks and sm_count * max_threads_per_sm
 * threads (checked at submit). An ordinary launch passes 0, which is
 * what those registers then read. The state of all its blocks counts
 * against the context's budget of kernel memory (see HOST_ALLOC) while it
 * runs; over the budget the launch fails with VGPU_KFAULT_RESOURCES.
 */
struct vgpu_cmd_launch {
	__u32 module;
	__u32 func;
	__u32 grid[3];
	__u32 block[3];
	__u32 dyn_shared;
	__u32 param_bytes;
	__u64 params;
	__u64 grid_sync;
};

/* Most launches one VGPU_CMD_LAUNCH_CHAIN may hold. */
#define VGPU_MAX_CHAIN_STEPS 1024

/**
 * struct vgpu_chain_step - one launch of a VGPU_CMD_LAUNCH_CHAIN.
 * @flags: VGPU_LAUNCH_USER_SM and VGPU_LAUNCH_USM_RUNS, as a LAUNCH
 *	command's; the priority is the chain command's.
 * @pad: Must be 0.
 * @launch: As VGPU_CMD_LAUNCH's, checked as at submit when the chain
 *	starts; @grid_sync must be 0 (a cooperative launch is never a
 *	step of a chain).
 */
struct vgpu_chain_step {
	__u32 flags;
	__u32 pad;
	struct vgpu_cmd_launch launch;
};

/**
 * struct vgpu_cmd_chain - VGPU_CMD_LAUNCH_CHAIN: @nsteps launches run one
 * after another as one command, a graph's chain of kernels. Each starts
 * when every block of the one before has ended, as consecutive LAUNCH
 * commands of a channel would, but the compute engine goes from one to
 * the next without a command completing in between: no fence, no wake-up
 * of a waiter, no launch set up anew, so a chain of small kernels costs
 * little more than their blocks. The command completes when the last
 * launch ends.
 *
 * When the chain starts, the module reads its steps and each step's
 * parameters and checks every step as LAUNCH's submit and start would; a
 * step that fails them fails the chain before anything of it ran
 * (VGPU_KFAULT_BAD_LAUNCH or VGPU_KFAULT_RESOURCES). A fault of a step
 * ends the chain there, and the steps after it do not run. Either way
 * the channel fails as for a launch, and CHAN_FAULT's @step names the
 * step. The steps and the parameters count against the context's budget
 * of kernel memory (see HOST_ALLOC) while the chain runs.
 * @steps: Address of @nsteps struct vgpu_chain_step, in device or
 *	registered host memory.
 * @nsteps: 1 to VGPU_MAX_CHAIN_STEPS.
 * @pad: Must be 0.
 * The command's flags: its priority, as LAUNCH's.
 */
struct vgpu_cmd_chain {
	__u64 steps;
	__u32 nsteps;
	__u32 pad;
};

/**
 * struct vgpu_cmd - one command of a channel's ring: 64 bytes.
 * @op: VGPU_CMD_*.
 * @flags: per command: VGPU_SEM_* for the semaphores, the priority for
 *	LAUNCH; 0 otherwise.
 * @copy, @memset, @sem, @raw: the arguments of @op; unused bytes must be 0.
 */
struct vgpu_cmd {
	__u32 op;
	__u32 flags;
	union {
		struct vgpu_cmd_copy copy;
		struct vgpu_cmd_memset memset;
		struct vgpu_cmd_sem sem;
		struct vgpu_cmd_launch launch;
		struct vgpu_cmd_chain chain;
		__u64 raw[7];
	};
};

/* Channel errors (struct vgpu_chan_status.error). */
#define VGPU_CHAN_OK 0
#define VGPU_CHAN_FAULT 1	/* a command touched an unmapped address */
#define VGPU_CHAN_LAUNCH_FAULT 2	/* a kernel faulted: see CHAN_FAULT */
#define VGPU_CHAN_TIMEOUT 3	/* a kernel ran past the time budget */

/**
 * struct vgpu_chan_status - a channel's progress, in the status page.
 * @completed: Commands completed since creation (the channel's fence).
 * @error: VGPU_CHAN_* of the first failed command; sticky.
 * @pad: Zero.
 * @error_addr: The address that failed.
 * @error_seqno: The failed command's number (its @completed value + 1).
 */
struct vgpu_chan_status {
	__u64 completed;
	__u32 error;
	__u32 pad;
	__u64 error_addr;
	__u64 error_seqno;
};

/**
 * struct vgpu_chan_create - VGPU_IOCTL_CHAN_CREATE.
 * @ring: In. User address of the ring: @ring_size commands, 64-byte aligned.
 * @ring_size: In. Commands in the ring: a power of two, VGPU_RING_MIN to
 *	VGPU_RING_MAX.
 * @flags: In. Must be 0.
 * @handle: Out. The channel, also its index in the status page.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -EINVAL: the ring's size, alignment, or an address outside user space;
 *  -ENOMEM: no memory for the channel or its queue;
 *  -EMFILE: VGPU_MAX_CHANNELS channels exist (destroyed ones count until
 *	their work has run).
 */
struct vgpu_chan_create {
	__u64 ring;
	__u32 ring_size;
	__u32 flags;
	__u32 handle;
	__u32 pad;
};

/**
 * struct vgpu_chan_submit - VGPU_IOCTL_CHAN_SUBMIT: the doorbell.
 * @put: In. Commands written to the ring since the channel was created;
 *	those since the last submit (at most the ring's size) are copied out
 *	of the ring slots (index modulo the ring size) and queued, or none is.
 * @handle: In. The channel.
 * @flags: In. Must be 0.
 *
 * Errors:
 *  -ENOENT: no such channel;
 *  -EINVAL: @put goes backwards or more than a ring ahead of the last
 *	submit; a malformed command;
 *  -EAGAIN: the queue is full: the new commands and those not yet
 *	completed would be more than the ring holds. Nothing is queued;
 *	wait for earlier commands (CHAN_WAIT), then submit again;
 *  -EFAULT: the ring is unreadable;
 *  -ENOMEM: no memory for the copy of the new commands;
 *  -EIO: the channel has failed (see its status).
 */
struct vgpu_chan_submit {
	__u64 put;
	__u32 handle;
	__u32 flags;
};

/**
 * struct vgpu_chan_wait - VGPU_IOCTL_CHAN_WAIT: wait for a fence.
 * @seqno: In. Wait until the channel's @completed reaches this.
 * @deadline_ns: In. CLOCK_MONOTONIC time to give up at; 0 only polls.
 * @handle: In. The channel.
 * @flags: In. Must be 0.
 *
 * Errors:
 *  -ENOENT: no such channel, or it was destroyed during the wait, which
 *	ends it;
 *  -EINVAL: @seqno beyond what was submitted, or a negative @deadline_ns;
 *  -ETIME: the deadline passed;
 *  -EIO: the channel has failed at or before @seqno;
 *  -EINTR: a signal (the call restarts under SA_RESTART).
 */
struct vgpu_chan_wait {
	__u64 seqno;
	__s64 deadline_ns;
	__u32 handle;
	__u32 flags;
};

/**
 * struct vgpu_chan_destroy - VGPU_IOCTL_CHAN_DESTROY. Returns at once;
 * queued work still runs, and the handle is reused only once it has.
 * Waits on the channel (CHAN_WAIT) in other threads end with -ENOENT.
 * @handle: In. The channel.
 * @flags: In. Must be 0.
 *
 * Errors:
 *  -ENOENT: no such channel (or it was destroyed already).
 */
struct vgpu_chan_destroy {
	__u32 handle;
	__u32 flags;
};

/* Faults of a kernel (struct vgpu_chan_fault.kind). */
#define VGPU_KFAULT_ADDRESS 1	/* nothing mapped there, or read only */
#define VGPU_KFAULT_MISALIGNED 2
#define VGPU_KFAULT_TRAP 3	/* the kernel trapped */
#define VGPU_KFAULT_DEADLOCK 4	/* no thread of a block could go on */
#define VGPU_KFAULT_TIMEOUT 5	/* ran past the time budget */
#define VGPU_KFAULT_BAD_LAUNCH 6	/* no such module or kernel, bad params */
/*
 * A block needs more memory than the device holds per SM (its memory
 * divided among its SMs), or the host could not give it.
 */
#define VGPU_KFAULT_RESOURCES 7
/*
 * A user-mode SM went away (its file closed, its process killed) holding
 * a block, or could not be given the block it took (USM_WAIT).
 */
#define VGPU_KFAULT_USM_LOST 8

/**
 * struct vgpu_chan_fault - VGPU_IOCTL_CHAN_FAULT: what made a channel's
 * launch fail.
 * @handle: In. The channel.
 * @flags: In. Must be 0.
 * @kind: Out. VGPU_KFAULT_*, or 0 if no launch of the channel failed.
 * @insn: Out. Index of the instruction.
 * @addr: Out. The address, for memory faults.
 * @module: Out. The module.
 * @func: Out. The kernel.
 * @block: Out. The block's index in the grid.
 * @thread: Out. The thread's index in its block.
 * @seqno: Out. The launch command's number (as vgpu_chan_status.error_seqno).
 * @step: Out. Of a VGPU_CMD_LAUNCH_CHAIN, the step that failed, from 0; 0
 *	for a LAUNCH command.
 * @pad: Out. 0.
 *
 * Callers of the size before @step are served the fields they have.
 *
 * Errors:
 *  -ENOENT: no such channel.
 */
struct vgpu_chan_fault {
	__u32 handle;
	__u32 flags;
	__u32 kind;
	__u32 insn;
	__u64 addr;
	__u32 module;
	__u32 func;
	__u32 block[3];
	__u32 thread[3];
	__u64 seqno;
	__u32 step;
	__u32 pad;
};

/* Largest constant bank a module may have. */
#define VGPU_MAX_CONST_BYTES 65536

/**
 * struct vgpu_module_load - VGPU_IOCTL_MODULE_LOAD: verify a program of the
 * vgpu ISA (uapi/vgpu_isa.h) and keep it for launches. The kernel keeps
 * its own copy, out of user space's reach.
 * @insns: In. User address of @ninsns struct vgpu_insn.
 * @funcs: In. User address of @nfuncs struct vgpu_func.
 * @consts: In. User address of the constant bank (@const_bytes), or 0.
 * @log: In. User address of a buffer for the verifier's message, or 0.
 * @ninsns: In. Instructions, 1 to VGPU_MAX_INSNS.
 * @nfuncs: In. Kernels, at least 1.
 * @const_bytes: In. At most VGPU_MAX_CONST_BYTES.
 * @log_size: In. Bytes at @log.
 * @flags: In. Must be 0.
 * @handle: Out. The module, for launches and MODULE_UNLOAD.
 * @error_insn: Out. When refused: the instruction at fault, or ~0.
 * @error_func: Out. When refused: the kernel being checked, or ~0.
 *
 * The module's instructions, kernels and constants count against the
 * context's budget of kernel memory (as HOST_ALLOC's) until it is unloaded
 * and its last launch has ended.
 *
 * Errors:
 *  -EINVAL: the verifier refused it (the message is in @log, and the
 *	structure is written back); a bad count or size;
 *  -EFAULT: an array is unreadable, or @log unwritable;
 *  -ENOMEM: no memory for the copy or the verifier, or over the
 *	context's budget;
 *  -EMFILE: too many modules (4096) are loaded.
 */
struct vgpu_module_load {
	__u64 insns;
	__u64 funcs;
	__u64 consts;
	__u64 log;
	__u32 ninsns;
	__u32 nfuncs;
	__u32 const_bytes;
	__u32 log_size;
	__u32 flags;
	__u32 handle;
	__u32 error_insn;
	__u32 error_func;
};

/**
 * struct vgpu_module_unload - VGPU_IOCTL_MODULE_UNLOAD. Launches already
 * started keep the module until they end.
 * @handle: In. The module.
 * @flags: In. Must be 0.
 *
 * Errors:
 *  -ENOENT: no such module.
 */
struct vgpu_module_unload {
	__u32 handle;
	__u32 flags;
};

/**
 * struct vgpu_heap_create - VGPU_IOCTL_HEAP_CREATE: give the context its
 * device heap, the memory that kernels' VGPU_OP_MALLOC hands out and
 * VGPU_OP_FREE takes back. Once per context; it lasts as long as the
 * context. The module allocates it, charged as device memory, inside the
 * VA window; it is no allocation of user space's: MEM_QUERY and MEM_FREE
 * do not see it. Until a context has a heap, every MALLOC returns 0.
 * @size: In. Bytes, nonzero, a multiple of VGPU_HEAP_ALIGN.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 * @va: Out. The heap's first address, a multiple of VGPU_VA_ALIGN.
 *
 * Errors:
 *  -EINVAL: a bad size, or no window yet;
 *  -EBUSY: the context has a heap;
 *  -ENOMEM: the device (or the caller's memory cgroup) has no room, or
 *	@size is more than the device's memory;
 *  -ENOSPC: the window has no room.
 */
struct vgpu_heap_create {
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 va;
};

/* The heap's granule: every block's address and span are multiples. */
#define VGPU_HEAP_ALIGN 16ULL

/*
 * Virtual memory management: physical memory objects apart from any
 * address, address ranges kept out of MEM_ALLOC's way, and mappings of
 * objects into those ranges with access rights the engines enforce.
 * Objects are sized, and mappings placed, in units of VGPU_VA_ALIGN.
 * An object lives while a handle, a mapping or an exported file of it
 * remains; its memory is charged to the device (and to the creator's
 * memory cgroup) until then.
 */

/* Access rights of a mapping (struct vgpu_mem_access). */
#define VGPU_PROT_READ _BITUL(0)
#define VGPU_PROT_WRITE _BITUL(1)

/**
 * struct vgpu_mem_create - VGPU_IOCTL_MEM_CREATE: make a memory object.
 * @size: In. Bytes, a nonzero multiple of VGPU_VA_ALIGN. Reads as zero.
 * @flags: In. Must be 0.
 * @handle: Out. Names the object in this context (MEM_MAP, MEM_EXPORT,
 *	MEM_RELEASE); never 0.
 *
 * Errors:
 *  -EINVAL: a bad size;
 *  -ENOMEM: the device (or the caller's memory cgroup) has no room, or
 *	@size is more than the device's memory.
 */
struct vgpu_mem_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
};

/**
 * struct vgpu_mem_release - VGPU_IOCTL_MEM_RELEASE: let go of a handle.
 * The object lives on while mapped or exported.
 * @handle: In. From MEM_CREATE or MEM_IMPORT.
 * @flags: In. Must be 0.
 *
 * Errors:
 *  -ENOENT: no such handle.
 */
struct vgpu_mem_release {
	__u32 handle;
	__u32 flags;
};

/**
 * struct vgpu_va_reserve - VGPU_IOCTL_VA_RESERVE: keep a range of the VA
 * window for mappings (MEM_MAP); MEM_ALLOC places nothing there.
 * @va: In: where it should start, or 0 for anywhere; a multiple of
 *	VGPU_VA_ALIGN. Where that range is not free, it goes elsewhere.
 *	Out: where it starts.
 * @size: In. Bytes, a nonzero multiple of VGPU_VA_ALIGN.
 * @align: In. 0, or a power of two at most VGPU_VA_WINDOW_MAX that @va
 *	is to be a multiple of (at least VGPU_VA_ALIGN is used).
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -EINVAL: bad arguments, or no window yet;
 *  -ENOSPC: the window has no such room;
 *  -ENOMEM: no kernel memory for its bookkeeping.
 */
struct vgpu_va_reserve {
	__u64 va;
	__u64 size;
	__u64 align;
	__u32 flags;
	__u32 pad;
};

/**
 * struct vgpu_va_free - VGPU_IOCTL_VA_FREE: give a reserved range back.
 * @va: In. Its start.
 * @size: In. Its whole size.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -EINVAL: no reservation is exactly [@va, @va + @size);
 *  -EBUSY: something is still mapped in it.
 */
struct vgpu_va_free {
	__u64 va;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/**
 * struct vgpu_mem_map - VGPU_IOCTL_MEM_MAP: map @size bytes of an object,
 * from @offset on, at @va. The mapping starts with no access rights
 * (MEM_ACCESS gives them); it holds the object.
 * @va: In. Inside one reservation, with the rest of the range.
 * @size: In. Nonzero.
 * @offset: In. Where in the object; @offset + @size at most its size.
 * @handle: In. From MEM_CREATE or MEM_IMPORT.
 * @flags: In. Must be 0.
 *
 * @va, @size and @offset are multiples of VGPU_VA_ALIGN; @size may also
 * reach exactly the end of an object whose size is not, and the mapping
 * then takes up its last granule whole.
 *
 * Errors:
 *  -EINVAL: bad arguments, or the range is not inside one reservation;
 *  -ENOENT: no such handle;
 *  -EEXIST: part of the range is mapped already;
 *  -ENOMEM: no kernel memory for its bookkeeping.
 */
struct vgpu_mem_map {
	__u64 va;
	__u64 size;
	__u64 offset;
	__u32 handle;
	__u32 flags;
};

/**
 * struct vgpu_mem_unmap - VGPU_IOCTL_MEM_UNMAP: remove every mapping in a
 * range of one reservation; each must lie wholly inside it. A range with
 * none is not an error.
 * @va: In. Start, a multiple of VGPU_VA_ALIGN.
 * @size: In. Bytes, a nonzero multiple of VGPU_VA_ALIGN.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -EINVAL: bad arguments, the range is not inside one reservation, or a
 *	mapping reaches outside it.
 */
struct vgpu_mem_unmap {
	__u64 va;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/**
 * struct vgpu_mem_access - VGPU_IOCTL_MEM_ACCESS: set what kernels and
 * copies may do with a mapped range. Without VGPU_PROT_READ an access
 * faults; without VGPU_PROT_WRITE a write does. The rights are this
 * context's device's (its contexts'), or, with VGPU_ACCESS_DEVICE,
 * another device's, whose contexts reach the mappings through a link to
 * this one (PEER_SET; with or without VGPU_PEER_ACCESS, which concerns
 * other memory). Another device has none until given. With
 * VGPU_ACCESS_ALLOC (and VGPU_ACCESS_DEVICE), @va names an allocation of
 * MEM_ALLOC instead, @size is 0, and the rights are what the kernels of
 * device @device have there when their link to this context lacks
 * VGPU_PEER_ACCESS (a memory pool's access, cuMemPoolSetAccess).
 * @va: In. Start, a multiple of VGPU_VA_ALIGN (an allocation's first
 *	byte, with VGPU_ACCESS_ALLOC).
 * @size: In. Bytes, a nonzero multiple of VGPU_VA_ALIGN (0, with
 *	VGPU_ACCESS_ALLOC).
 * @prot: In. 0, VGPU_PROT_READ, or VGPU_PROT_READ | VGPU_PROT_WRITE.
 * @flags: In. 0, VGPU_ACCESS_DEVICE, or that and VGPU_ACCESS_ALLOC.
 * @device: In. With VGPU_ACCESS_DEVICE, the device (N of /dev/vgpuN)
 *	whose rights these are; else must be 0.
 * @pad: Structure padding. Must be 0.
 *	(@device and @pad are appended after the first layout, which ends
 *	at @flags: a caller that passes that one sets this device's rights.)
 *
 * Errors:
 *  -EINVAL: bad arguments (a device past the module's limit); a part of
 *	the range is not mapped, or a mapping reaches outside it; no
 *	allocation starts at @va (VGPU_ACCESS_ALLOC).
 */
struct vgpu_mem_access {
	__u64 va;
	__u64 size;
	__u32 prot;
	__u32 flags;
	__u32 device;
	__u32 pad;
};

/* The most devices the module makes (/dev/vgpu0 to /dev/vgpu15). */
#define VGPU_MAX_DEVICES 16

/* VGPU_IOCTL_MEM_ACCESS flags, and the size of its first layout. */
#define VGPU_ACCESS_DEVICE _BITUL(0)
#define VGPU_ACCESS_ALLOC _BITUL(1)
#define VGPU_MEM_ACCESS_SIZE_V1 24

/**
 * struct vgpu_mem_export - VGPU_IOCTL_MEM_EXPORT: a dma-buf of an object,
 * for MEM_IMPORT in any context of the same device (another process's
 * too) and for other drivers. It holds the object until closed.
 * @handle: In. From MEM_CREATE or MEM_IMPORT.
 * @flags: In. Must be 0.
 * @fd: Out. The dma-buf's file descriptor, close-on-exec.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -ENOENT: no such handle;
 *  -EINVAL: the object is another driver's (VGPU_IMPORT_FOREIGN);
 *  -EMFILE: no free file descriptor;
 *  -ENOMEM: no kernel memory for the dma-buf.
 */
struct vgpu_mem_export {
	__u32 handle;
	__u32 flags;
	__s32 fd;
	__u32 pad;
};

/* struct vgpu_mem_import flags */
#define VGPU_IMPORT_FOREIGN _BITUL(0)

/**
 * struct vgpu_mem_import - VGPU_IOCTL_MEM_IMPORT: a handle of the object
 * that a dma-buf from MEM_EXPORT holds; or, with VGPU_IMPORT_FOREIGN, of
 * a new object over another driver's dma-buf, whose memory stays that
 * driver's (not charged to the device) and which cannot be exported.
 * @fd: In. The dma-buf.
 * @flags: In. 0 or VGPU_IMPORT_FOREIGN.
 * @handle: Out. As MEM_CREATE's.
 * @pad: Structure padding. Must be 0.
 * @size: Out. The object's size. A mapping of an object whose size is
 *	no multiple of VGPU_VA_ALIGN may end with it (MEM_MAP).
 *
 * Errors:
 *  -EBADF: @fd is no open file;
 *  -EINVAL: it is no dma-buf, or one of another driver without
 *	VGPU_IMPORT_FOREIGN, or one the kernel cannot map;
 *  -EXDEV: the memory is another vgpu device's;
 *  -ENOMEM: no kernel memory for the handle, or for mapping the buffer.
 */
struct vgpu_mem_import {
	__s32 fd;
	__u32 flags;
	__u32 handle;
	__u32 pad;
	__u64 size;
};

/*
 * IPC: an allocation of MEM_ALLOC named by a token for other processes,
 * which map the same memory into their contexts. The module keeps the
 * tokens; a token holds no memory, a mapping does.
 */

/**
 * struct vgpu_ipc_export - VGPU_IOCTL_IPC_EXPORT: the token of the
 * allocation holding an address. The same for every call on one
 * allocation; it names nothing once the allocation is freed.
 * @va: In. Any address inside an allocation of MEM_ALLOC.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 * @token: Out. A number, never reused, and a random secret.
 *
 * Errors:
 *  -EINVAL: no allocation of MEM_ALLOC holds @va;
 *  -ENOMEM: no kernel memory for the token.
 */
struct vgpu_ipc_export {
	__u64 va;
	__u32 flags;
	__u32 pad;
	__u64 token[2];
};

/**
 * struct vgpu_ipc_open - VGPU_IOCTL_IPC_OPEN: map the allocation a token
 * names into this context, read-write, at an address of the window the
 * module chooses. Each call makes a mapping of its own, which holds the
 * memory until IPC_CLOSE or the context's end. The caller must run as
 * the exporter's effective user, or have CAP_SYS_ADMIN.
 * @token: In. From IPC_EXPORT, in any process.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 * @va: Out. Where the allocation's first byte is mapped.
 * @size: Out. Its size.
 *
 * Errors:
 *  -EINVAL: no window yet, or the token is this context's own;
 *  -ENOENT: the token names nothing, and never did;
 *  -ESTALE: it named an allocation that is freed;
 *  -EXDEV: the allocation is another device's;
 *  -EACCES: the exporter ran as another user;
 *  -ENOSPC: the window has no room;
 *  -ENOMEM: no kernel memory for the mapping.
 */
struct vgpu_ipc_open {
	__u64 token[2];
	__u32 flags;
	__u32 pad;
	__u64 va;
	__u64 size;
};

/**
 * struct vgpu_ipc_close - VGPU_IOCTL_IPC_CLOSE: remove a mapping that
 * IPC_OPEN made.
 * @va: In. The address IPC_OPEN returned.
 * @flags: In. Must be 0.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -EINVAL: no mapping of IPC_OPEN starts at @va.
 */
struct vgpu_ipc_close {
	__u64 va;
	__u32 flags;
	__u32 pad;
};

/* VGPU_IOCTL_PEER_SET flags. */
#define VGPU_PEER_ACCESS _BITUL(0)	/* kernels may reach the peer's memory */

/**
 * struct vgpu_peer_set - VGPU_IOCTL_PEER_SET: link this context to
 * another of the same process (@fd, its open device file: any device's)
 * so that this context's copy engines reach the other's device memory at
 * its unified addresses, and say whether this context's kernels may too.
 * The copy engines carry copies between the two devices directly, with
 * no pass through user space. A kernel touching the peer's memory
 * without VGPU_PEER_ACCESS faults, as an address nothing maps does.
 * Calling again changes only VGPU_PEER_ACCESS; a kernel running while it
 * is cleared finishes its current slice first. The link lasts until
 * either context is closed; the peer's registered host memory is not
 * reached through it.
 * @fd: In. The peer context's device file.
 * @flags: In. 0 or VGPU_PEER_ACCESS.
 *
 * Errors:
 *  -EBADF: @fd is no open file;
 *  -EINVAL: unknown flags, @fd is no vgpu context, is this context, or
 *	belongs to another process;
 *  -ENOSPC: this context has VGPU_MAX_PEERS links already;
 *  -ENOMEM: no kernel memory for the link.
 */
struct vgpu_peer_set {
	__s32 fd;
	__u32 flags;
};

#define VGPU_MAX_PEERS 64

/* VGPU_IOCTL_MANAGED_PREFETCH flags. */
#define VGPU_PREFETCH_DEVICE _BITUL(0)	/* to the device; without: the host */

/**
 * struct vgpu_managed_prefetch - VGPU_IOCTL_MANAGED_PREFETCH: say that the
 * pages of [@addr, @addr + @size) of managed memory (HOST_ALLOC with
 * VGPU_HOST_ALLOC_MANAGED, mapped) now live on the device or on the host,
 * as cuMemPrefetchAsync moves them: touching them there afterwards counts
 * no fault. Pages moved to the device leave the process's page tables at
 * once. The range may be unaligned; it takes the pages it touches.
 * @addr: In. The first byte.
 * @size: In. Bytes, not 0.
 * @flags: In. 0 (to the host) or VGPU_PREFETCH_DEVICE.
 * @pad: Structure padding. Must be 0.
 *
 * Errors:
 *  -EINVAL: flags, padding, a size of 0 or one that wraps;
 *  -ENOENT: the range is not inside one managed allocation of this
 *	context.
 */
struct vgpu_managed_prefetch {
	__u64 addr;
	__u64 size;
	__u32 flags;
	__u32 pad;
};

/*
 * User-mode SMs: threads of the context's process that run blocks of the
 * context's launches (those submitted with VGPU_LAUNCH_USER_SM) in place
 * of the module's SMs. The module keeps everything else: the order of a
 * channel's commands, fences, fault reports, the watchdog and teardown.
 *
 * USM_ATTACH, on the device's file, makes an SM and returns a file of its
 * own (close-on-exec) that stands for it; USM_WAIT and USM_DONE are that
 * file's ioctls, and fail with -ENOTTY on the device's file (as the
 * device's ioctls do on an SM's). An SM holds at most one block at a
 * time, or one run of consecutive blocks of a launch submitted with
 * VGPU_LAUNCH_USM_RUNS, or consecutive one-block steps of a chain:
 * USM_WAIT hands it out, USM_DONE reports how it ended. Calls on one
 * SM's file run one at a time: an SM is meant for one thread.
 *
 * A launch completes (its fence advances) once every block has been
 * reported done. A block reported faulted fails the launch as a fault of
 * the module's SMs does (VGPU_CHAN_LAUNCH_FAULT; CHAN_FAULT tells the
 * kind, block, thread, instruction and address the SM reported). Closing
 * an SM's file, which the death of its process does, detaches it: a block
 * it held fails its launch with VGPU_KFAULT_USM_LOST. The watchdog (the
 * module's timeout_ms) ends a launch whose blocks are not all done in
 * time, whether they wait in an SM or for one, with VGPU_KFAULT_TIMEOUT;
 * so does a failure of the context end its launches, and a report of a
 * block of a launch that ended so is refused with -ECANCELED.
 *
 * An SM's file holds the context: the device's file is released only
 * once the SMs' files are closed too, so user space stops its SM threads
 * (USM_WAIT ends at its deadline, or with a signal) and closes their
 * files before it closes the device's. Nothing of another context ever
 * reaches an SM.
 */
#define VGPU_USM_MAX 256	/* SMs attached to one context at once */

/**
 * struct vgpu_usm_attach - VGPU_IOCTL_USM_ATTACH: attach a user-mode SM.
 * @flags: In. Must be 0.
 * @fd: Out. The SM's file.
 *
 * Errors:
 *  -ENOSPC: VGPU_USM_MAX SMs are attached;
 *  -EMFILE: the process has no file descriptor left;
 *  -ENOMEM: no memory.
 */
struct vgpu_usm_attach {
	__u32 flags;
	__s32 fd;
};

/**
 * struct vgpu_usm_wait - VGPU_IOCTL_USM_WAIT, on an SM's file: wait for a
 * block of one of the context's launches and take it. Of the launches
 * with blocks waiting, the highest priority goes first and launches of
 * one priority take turns; blocks go in order of their index. Once the
 * context has failed, none is handed out.
 * @deadline_ns: In. CLOCK_MONOTONIC time to give up at; 0 only looks.
 * @params: In. User address of a buffer for the launch's parameters.
 * @params_size: In. Bytes at @params.
 * @flags: In. 0, or VGPU_USM_WAIT_REPORT: first report the block (or run)
 *	the SM holds, as USM_DONE does, from the struct vgpu_usm_done at
 *	@done; then wait. A report USM_DONE would refuse fails the call
 *	with USM_DONE's error, and nothing is taken; one refused with
 *	-ECANCELED (the launch ended early without it) is not an error here.
 *	Once made, the report stands whatever the wait then returns.
 *	A launch of one block that the report (or the wait) starts is taken
 *	by this SM in the same call, without waking the others: a chain of
 *	launches, a graph's, costs one call a launch.
 * @done: In. With VGPU_USM_WAIT_REPORT, the user address of the report;
 *	otherwise 0.
 * @max_blocks: In. At most this many blocks to take (0 is 1). More than
 *	one only of a launch submitted with VGPU_LAUNCH_USM_RUNS, and no
 *	more than leaves every SM of the context a few runs of what is left
 *	of it, so that the grid's end spreads over them.
 * @nblocks: Out. The blocks taken, from @block_idx on in the grid's order
 *	(x fastest); at least 1.
 * @cookie: Out. Names the block (or run of blocks) for USM_DONE; never 0.
 * @seqno: Out. The launch command's number in its channel (as
 *	CHAN_FAULT's @seqno): with @chan, it names the launch.
 * @module: Out. The module handle of the launch command.
 * @func: Out. The kernel's index in the module.
 * @grid: Out. The grid's dimensions.
 * @block: Out. The block's dimensions.
 * @block_idx: Out. The block's index in the grid.
 * @dyn_shared: Out. Bytes of dynamic shared memory.
 * @param_bytes: Out. Bytes of parameters, copied to @params: as the
 *	module read them when the launch started. With -ENOSPC, what
 *	@params_size must be at least (nothing is taken).
 * @chan: Out. The launch's channel.
 * @map_gen: Out. The generation of the context's mappings when the block
 *	was taken: it changes whenever memory is mapped, unmapped or has
 *	its access changed, so ranges an SM learned (MEM_QUERY) under the
 *	same value still hold.
 * @step: Out. Of a VGPU_CMD_LAUNCH_CHAIN, the step (from 0) whose block
 *	this is: the steps of a chain share @seqno. 0 for a LAUNCH command.
 * @pad: Out. 0.
 * @steps: In. User address of an array of @max_steps struct
 *	vgpu_usm_step, or 0.
 * @max_steps: In. At most this many steps of a chain to take at once (0
 *	is 1; at most VGPU_USM_MAX_STEPS count). More than one only when the
 *	block taken is the one block of its step, and then only the steps
 *	after it that also have one block and VGPU_LAUNCH_USER_SM, and whose
 *	parameters fit in @params_size together.
 * @nsteps: Out. The steps taken, from @step on; at least 1. With more
 *	than one, @steps[i] describes step @step + i, the first included,
 *	and their parameters lie one after another at @params (each at an
 *	offset aligned to 16): the SM runs them in order, as one hold (one
 *	report; its @block names the step that faulted, from 0), and the
 *	watchdog gives them @nsteps launches' time together.
 *
 * Callers of the size before @done, or before @steps, are served the
 * fields they have.
 *
 * Errors:
 *  -EINVAL: a negative @deadline_ns;
 *  -EBUSY: the SM holds a block it has not reported;
 *  -ENOSPC: @params_size is smaller than the launch's parameters;
 *  -ETIME: the deadline passed with no block to take;
 *  -EFAULT: the parameters could not be written to @params: the block is
 *	lost as if the SM had gone away (VGPU_KFAULT_USM_LOST); or the
 *	report could not be read from @done;
 *  -EINTR: a signal (the call restarts under SA_RESTART, unless it made
 *	a report: that is never made twice);
 *  as USM_DONE: a report it would refuse.
 */
#define VGPU_USM_WAIT_REPORT	_BITUL(0)

struct vgpu_usm_wait {
	__s64 deadline_ns;
	__u64 params;
	__u32 params_size;
	__u32 flags;
	__u64 cookie;
	__u64 seqno;
	__u32 module;
	__u32 func;
	__u32 grid[3];
	__u32 block[3];
	__u32 block_idx[3];
	__u32 dyn_shared;
	__u32 param_bytes;
	__u32 chan;
	__u64 map_gen;
	__u32 max_blocks;
	__u32 nblocks;
	__u64 done;
	__u32 step;
	__u32 pad;
	__u64 steps;
	__u32 max_steps;
	__u32 nsteps;
};

#define VGPU_USM_MAX_STEPS 64	/* chain steps one USM_WAIT hands out */

/**
 * struct vgpu_usm_step - one of the chain steps a USM_WAIT handed out
 * together: a launch of one block (grid 1x1x1).
 * @module: The module handle of the step's launch.
 * @func: The kernel's index in the module.
 * @block: The block's dimensions.
 * @dyn_shared: Bytes of dynamic shared memory.
 * @param_bytes: Bytes of the step's parameters.
 * @param_off: Where they lie in USM_WAIT's @params.
 */
struct vgpu_usm_step {
	__u32 module;
	__u32 func;
	__u32 block[3];
	__u32 dyn_shared;
	__u32 param_bytes;
	__u32 param_off;
};

/**
 * struct vgpu_usm_done - VGPU_IOCTL_USM_DONE, on an SM's file: the block
 * (or run of blocks) the SM holds has ended, done or faulted. A run ends
 * as a whole: done, or at its first block that faulted (the blocks after
 * it are not run, and the launch fails).
 * @cookie: In. The block's, from USM_WAIT.
 * @flags: In. Must be 0.
 * @kind: In. 0: done; or the fault that ended it: VGPU_KFAULT_ADDRESS,
 *	VGPU_KFAULT_MISALIGNED, VGPU_KFAULT_TRAP or VGPU_KFAULT_DEADLOCK.
 * @addr: In. The faulting address (0 when done).
 * @insn: In. The faulting instruction's index in the module (below its
 *	instruction count; 0 when done).
 * @thread: In. The faulting thread's index in the block, x fastest
 *	(below the block's threads; 0 when done).
 * @block: In. The faulting block's place in the run, from 0 (below
 *	USM_WAIT's @nblocks), or of steps taken together, the faulting
 *	step's place among them (below @nsteps); 0 when done. Steps before
 *	it are done; those after it are not run.
 * @pad: In. Must be 0.
 *
 * Errors:
 *  -EINVAL: a bad @kind, or fields of a fault given with none, @insn,
 *	@thread or @block out of range, @pad not 0, or @cookie is not the
 *	block this SM holds;
 *  -ECANCELED: the block's launch ended before the report (the watchdog,
 *	another block's fault, the context's failure): nothing to report.
 */
struct vgpu_usm_done {
	__u64 cookie;
	__u32 flags;
	__u32 kind;
	__u64 addr;
	__u32 insn;
	__u32 thread;
	__u32 block;
	__u32 pad;
};

/*
 * The shadow mapping: the context's device memory mapped a second time
 * into its process, for user-mode SMs to reach with plain loads and
 * stores. mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
 * VGPU_SHADOW_OFFSET + off) on the device's file maps device addresses
 * [base + off, base + off + len) of the window (SET_VA_WINDOW), which
 * must be set and must hold them; off is a multiple of the page size.
 * The mapping is the context's own: it is not inherited across fork(),
 * cannot grow, and cannot be executable. A page holds memory while some
 * device memory of the context (an allocation, a mapping of a memory
 * object or of an IPC handle, the device heap) covers part of it; the
 * rest faults (SIGBUS), as do memory of another driver (MEM_IMPORT) or
 * of a peer, and, in a writable mapping, memory the context may only
 * read (a read-only mapping reads it, and mprotect() cannot make it
 * writable: EACCES). Freeing or unmapping memory takes its pages out of
 * the mapping at once. User-mode SMs check every access against the
 * context's memory before they make it.
 */
#define VGPU_SHADOW_OFFSET _BITULL(56)

#define VGPU_IOCTL_GET_INFO _IOWR(VGPU_IOCTL_TYPE, 0x00, struct vgpu_info)
#define VGPU_IOCTL_SET_VA_WINDOW _IOW(VGPU_IOCTL_TYPE, 0x01, struct vgpu_va_window)
#define VGPU_IOCTL_MEM_ALLOC _IOWR(VGPU_IOCTL_TYPE, 0x02, struct vgpu_mem_alloc)
#define VGPU_IOCTL_MEM_FREE _IOW(VGPU_IOCTL_TYPE, 0x03, struct vgpu_mem_free)
#define VGPU_IOCTL_MEM_QUERY _IOWR(VGPU_IOCTL_TYPE, 0x04, struct vgpu_mem_query)
#define VGPU_IOCTL_HOST_REGISTER _IOW(VGPU_IOCTL_TYPE, 0x05, struct vgpu_host_register)
#define VGPU_IOCTL_HOST_UNREGISTER _IOW(VGPU_IOCTL_TYPE, 0x06, struct vgpu_host_unregister)
#define VGPU_IOCTL_CHAN_CREATE _IOWR(VGPU_IOCTL_TYPE, 0x07, struct vgpu_chan_create)
#define VGPU_IOCTL_CHAN_SUBMIT _IOW(VGPU_IOCTL_TYPE, 0x08, struct vgpu_chan_submit)
#define VGPU_IOCTL_CHAN_WAIT _IOW(VGPU_IOCTL_TYPE, 0x09, struct vgpu_chan_wait)
#define VGPU_IOCTL_CHAN_DESTROY _IOW(VGPU_IOCTL_TYPE, 0x0a, struct vgpu_chan_destroy)
#define VGPU_IOCTL_HOST_ALLOC _IOWR(VGPU_IOCTL_TYPE, 0x0b, struct vgpu_host_alloc)
#define VGPU_IOCTL_MODULE_LOAD _IOWR(VGPU_IOCTL_TYPE, 0x0c, struct vgpu_module_load)
#define VGPU_IOCTL_MODULE_UNLOAD _IOW(VGPU_IOCTL_TYPE, 0x0d, struct vgpu_module_unload)
#define VGPU_IOCTL_CHAN_FAULT _IOWR(VGPU_IOCTL_TYPE, 0x0e, struct vgpu_chan_fault)
#define VGPU_IOCTL_HEAP_CREATE _IOWR(VGPU_IOCTL_TYPE, 0x0f, struct vgpu_heap_create)
#define VGPU_IOCTL_MEM_CREATE _IOWR(VGPU_IOCTL_TYPE, 0x10, struct vgpu_mem_create)
#define VGPU_IOCTL_MEM_RELEASE _IOW(VGPU_IOCTL_TYPE, 0x11, struct vgpu_mem_release)
#define VGPU_IOCTL_VA_RESERVE _IOWR(VGPU_IOCTL_TYPE, 0x12, struct vgpu_va_reserve)
#define VGPU_IOCTL_VA_FREE _IOW(VGPU_IOCTL_TYPE, 0x13, struct vgpu_va_free)
#define VGPU_IOCTL_MEM_MAP _IOW(VGPU_IOCTL_TYPE, 0x14, struct vgpu_mem_map)
#define VGPU_IOCTL_MEM_UNMAP _IOW(VGPU_IOCTL_TYPE, 0x15, struct vgpu_mem_unmap)
#define VGPU_IOCTL_MEM_ACCESS _IOW(VGPU_IOCTL_TYPE, 0x16, struct vgpu_mem_access)
#define VGPU_IOCTL_MEM_EXPORT _IOWR(VGPU_IOCTL_TYPE, 0x17, struct vgpu_mem_export)
#define VGPU_IOCTL_MEM_IMPORT _IOWR(VGPU_IOCTL_TYPE, 0x18, struct vgpu_mem_import)
#define VGPU_IOCTL_IPC_EXPORT _IOWR(VGPU_IOCTL_TYPE, 0x19, struct vgpu_ipc_export)
#define VGPU_IOCTL_IPC_OPEN _IOWR(VGPU_IOCTL_TYPE, 0x1a, struct vgpu_ipc_open)
#define VGPU_IOCTL_IPC_CLOSE _IOW(VGPU_IOCTL_TYPE, 0x1b, struct vgpu_ipc_close)
#define VGPU_IOCTL_PEER_SET _IOW(VGPU_IOCTL_TYPE, 0x1c, struct vgpu_peer_set)
#define VGPU_IOCTL_MANAGED_PREFETCH _IOW(VGPU_IOCTL_TYPE, 0x1d, struct vgpu_managed_prefetch)
#define VGPU_IOCTL_USM_ATTACH _IOWR(VGPU_IOCTL_TYPE, 0x1e, struct vgpu_usm_attach)
#define VGPU_IOCTL_USM_WAIT _IOWR(VGPU_IOCTL_TYPE, 0x1f, struct vgpu_usm_wait)
#define VGPU_IOCTL_USM_DONE _IOW(VGPU_IOCTL_TYPE, 0x20, struct vgpu_usm_done)

#endif /* _UAPI_VGPU_H */

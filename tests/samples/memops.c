// SPDX-License-Identifier: MIT
/*
 * Producer and consumer streams synchronised by stream memory operations,
 * as a driver-API program would: for each round the consumer's work is
 * queued first, behind cuStreamWaitValue32 on a flag in device memory;
 * the producer fills the buffer, then raises the flag with
 * cuStreamWriteValue32. The consumer acknowledges each round through a
 * 64-bit word of page-locked host memory, which the producer waits on
 * before it refills the buffer; the last round's flags are set by one
 * cuStreamBatchMemOp. The consumer's sums must hold every round.
 */
#include "sample.h"

#define N 4096
#define ROUNDS 8

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "memops");
	CUfunction produce = sample_func(mod, "produce");
	CUfunction consume = sample_func(mod, "consume");
	CUstream prod, cons;
	CUdeviceptr buf, out, flag, ack_dev;
	volatile unsigned long long *ack;
	static int host[N];
	int n = N, round, i, bad = 0, nor = 0, wide = 0;
	CUdevice dev;

	TRY(cuCtxGetDevice(&dev));
	TRY(cuDeviceGetAttribute(&wide,
		CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev));
	TRY(cuDeviceGetAttribute(&nor,
		CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, dev));
	printf("64-bit stream memory operations: %d, wait NOR: %d\n", wide, nor);
	if (!wide) {
		printf("64-bit stream memory operations are not supported\n");
		return sample_result(1);
	}
	TRY(cuStreamCreate(&prod, CU_STREAM_NON_BLOCKING));
	TRY(cuStreamCreate(&cons, CU_STREAM_NON_BLOCKING));
	TRY(cuMemAlloc(&buf, N * sizeof(int)));
	TRY(cuMemAlloc(&out, N * sizeof(int)));
	TRY(cuMemAlloc(&flag, sizeof(unsigned int)));
	TRY(cuMemsetD32(out, 0, N));
	TRY(cuMemsetD32(flag, 0, 1));
	/* The streams are non-blocking: they do not wait for these fills. */
	TRY(cuCtxSynchronize());
	TRY(cuMemHostAlloc((void **)&ack, sizeof(*ack),
			   CU_MEMHOSTALLOC_DEVICEMAP));
	TRY(cuMemHostGetDevicePointer(&ack_dev, (void *)ack, 0));
	*ack = 0;
	for (round = 1; round <= ROUNDS; round++) {
		void *pargs[] = { &buf, &n, &round };
		void *cargs[] = { &out, &buf, &n };

		/* The consumer first: it must wait for the flag. */
		TRY(cuStreamWaitValue32(cons, flag, round,
					CU_STREAM_WAIT_VALUE_GEQ));
		TRY(cuLaunchKernel(consume, N / 256, 1, 1, 256, 1, 1, 0, cons,
				   cargs, NULL));
		TRY(cuStreamWriteValue64(cons, ack_dev, round, 0));
		/* The producer refills only once the last round was read. */
		TRY(cuStreamWaitValue64(prod, ack_dev, round - 1,
					CU_STREAM_WAIT_VALUE_EQ));
		TRY(cuLaunchKernel(produce, N / 256, 1, 1, 256, 1, 1, 0, prod,
				   pargs, NULL));
		if (round < ROUNDS) {
			TRY(cuStreamWriteValue32(prod, flag, round, 0));
		} else {
			CUstreamBatchMemOpParams ops[2];

			memset(ops, 0, sizeof(ops));
			ops[0].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
			ops[1].writeValue.operation =
				CU_STREAM_MEM_OP_WRITE_VALUE_32;
			ops[1].writeValue.address = flag;
			ops[1].writeValue.value = round;
			TRY(cuStreamBatchMemOp(prod, 2, ops, 0));
		}
	}
	TRY(cuStreamSynchronize(cons));
	TRY(cuStreamSynchronize(prod));
	TRY(cuMemcpyDtoH(host, out, sizeof(host)));
	for (i = 0; i < N; i++)
		bad += host[i] != ROUNDS * i * 3 + ROUNDS * (ROUNDS + 1) / 2;
	printf("%d rounds, host acknowledgement %llu, %d wrong sums\n", ROUNDS,
	       (unsigned long long)*ack, bad);
	bad += *ack != ROUNDS;
	TRY(cuStreamDestroy(prod));
	TRY(cuStreamDestroy(cons));
	return sample_result(bad);
}

// Kernels of the stream memory operations sample: a producer fills a
// buffer, a consumer reads it once the producer's flag says it is ready.
extern "C" __global__ void produce(int *buf, int n, int round)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		buf[i] = i * 3 + round;
}

extern "C" __global__ void consume(int *out, const int *buf, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] += buf[i];
}

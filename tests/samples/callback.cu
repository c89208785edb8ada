// The stream callback example of the CUDA Programming Guide: each stream
// copies its half of the input in, doubles it, and copies it out.
extern "C" __global__ void MyKernel(float *out, const float *in, int size)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < size)
		out[i] = 2.0f * in[i];
}

// simpleStreams' kernel: every thread stores the factor into its element,
// num_iterations times over.
extern "C" __global__ void init_array(int *g_data, const int *factor,
				      int num_iterations)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = 0; i < num_iterations; i++)
		g_data[idx] += *factor;
}

// How many clusters of 2 blocks of version 13's launch shape (512 threads,
// ~227 KB of dynamic shared memory, one block a multiprocessor) the device
// runs at once: cudaOccupancyMaxActiveClusters.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void __cluster_dims__(2, 1, 1) k2(float* p) { extern __shared__ float s[]; if (p) p[threadIdx.x] = s[threadIdx.x]; }
__global__ void k1(float* p) { extern __shared__ float s[]; if (p) p[threadIdx.x] = s[threadIdx.x]; }
int main() {
    int smem = 0; cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    for (int bytes : {smem, 120 * 1024, 64 * 1024}) {
        cudaFuncSetAttribute(k2, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
        cudaFuncSetAttribute(k1, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(2 * sms, 1, 1); cfg.blockDim = dim3(512, 1, 1); cfg.dynamicSmemBytes = bytes;
        cudaLaunchAttribute attr; attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = 2; attr.val.clusterDim.y = 1; attr.val.clusterDim.z = 1;
        cfg.attrs = &attr; cfg.numAttrs = 1;
        int clusters = -1; cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, (void*)k2, &cfg);
        int blocks = -1; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k1, 512, bytes);
        printf("%d SMs, %d B shared a block: %d clusters of 2 at once (%s), %d blocks a multiprocessor unclustered\n",
               sms, bytes, clusters, cudaGetErrorString(e), blocks);
    }
    return 0;
}

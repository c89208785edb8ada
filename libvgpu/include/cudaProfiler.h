/* SPDX-License-Identifier: MIT */
/*
 * vgpu's profiler control calls of the CUDA driver API (the names and
 * values are NVIDIA's, written from its documentation). No profiler
 * attaches to vgpu: cuProfilerStart and cuProfilerStop check the context
 * and do nothing more, as NVIDIA's driver does with none attached;
 * cuProfilerInitialize, deprecated, answers CUDA_ERROR_NOT_SUPPORTED.
 */
#ifndef VGPU_CUDAPROFILER_H
#define VGPU_CUDAPROFILER_H

#include "cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum CUoutput_mode_enum {
	CU_OUT_KEY_VALUE_PAIR = 0x00,
	CU_OUT_CSV = 0x01
} CUoutput_mode;

CUresult cuProfilerInitialize(const char *configFile, const char *outputFile,
			      CUoutput_mode outputMode);
CUresult cuProfilerStart(void);
CUresult cuProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_CUDAPROFILER_H */

/* SPDX-License-Identifier: MIT */
/*
 * The bench kernels in C (native_ref.c): the yardstick of both benches,
 * built -O3 -march=native for the native engine's (on the host), with the
 * project's flags for the interpreter's (in the VM, whatever its CPU).
 */
#ifndef VGPU_NATIVE_REF_H
#define VGPU_NATIVE_REF_H

void ref_saxpy(float a, const float *x, float *y, unsigned int n);
void ref_matmul(const float *a, const float *b, float *c, unsigned int n);
void ref_reduce(const float *in, float *out, unsigned int blocks);

#endif /* VGPU_NATIVE_REF_H */

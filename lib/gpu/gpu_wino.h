/*
 * Winograd convolutions of the GPU model: fp32 3x3 and 5x5 stride-1
 * convs as cuDNN's Winograd algorithms run them, for the build's
 * `winograd` key (gpu_build.h).  Lavin and Gray's minimal filtering
 * F(m x m, r x r) computes an m x m output tile from an alpha x alpha
 * input tile, alpha = m + r - 1, with alpha^2 multiplies per tile and
 * channel pair instead of m^2 r^2 ("Fast Algorithms for Convolutional
 * Neural Networks", A. Lavin and S. Gray, CVPR 2016, arXiv:1509.09308,
 * sections 4 and 5): 16 instead of 36 for F(2x2,3x3), 36 instead of 144
 * for F(4x4,3x3), 36 instead of 100 for F(2x2,5x5).  The multiplies are
 * alpha^2 independent GEMMs (tiles x C) * (C x K); the transforms are
 * additions (counted below from the transform matrices).
 *
 * Two kernels structures, as cuDNN has two Winograd algorithms:
 *  - fused (CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, 3x3 only): one kernel
 *    that transforms its input tiles and filters on the fly, runs the
 *    16 GEMMs of F(2x2,3x3) and transforms its outputs in the epilogue;
 *    it reads the input, the weights and writes the output once;
 *  - non-fused (CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, 3x3 as
 *    F(4x4,3x3), 5x5 as F(2x2,5x5)): four kernels, a filter transform
 *    and an input transform writing the transformed tensors, the 36
 *    batched GEMMs on them, an output transform.
 */
#ifndef PF_GPU_WINO_H
#define PF_GPU_WINO_H

#include "gpu_model.h"
#include "gpu_ops.h"
#include "layer.h"

enum gpu_wino { GPU_WINO_NONE, GPU_WINO_FUSED, GPU_WINO_NONFUSED };

/*
 * Whether the build lets layer l run as Winograd algorithm w: the
 * build's winograd is 1, the layer is an fp32 2-D conv, not transposed,
 * one group, stride 1, dilation 1, a 3x3 filter (both algorithms) or a
 * 5x5 one (non-fused only), and it would run on CUDA cores (no TF32).
 */
int gpu_wino_ok(const struct gpu_model *m, const struct layer *l,
    enum gpu_wino w);

/*
 * The Winograd algorithm the library's heuristic runs layer l as,
 * whatever the implicit GEMM would cost, or GPU_WINO_NONE when it leaves
 * the choice to cost: a 3x3 conv gpu_wino_ok() admits with more than 4
 * input channels (a first layer's RGB or RGBA input stays on the
 * implicit GEMM) runs as the fused kernel when it has at most
 * WINO_FUSED_MAX_C input channels and C x N x P x Q is at most
 * WINO_FUSED_MAX_WORK, else as the non-fused algorithm.  In the training
 * set (gpu-measured-conv-train.csv) cuDNN 7 ran every such fp32 conv as
 * WINOGRAD or WINOGRAD_NONFUSED, the 3-channel one as
 * IMPLICIT_PRECOMP_GEMM; the two bounds part its 4 fused rows from its
 * 22 non-fused ones.
 */
enum gpu_wino gpu_wino_forced(const struct gpu_model *m,
    const struct layer *l);

/*
 * Cost of layer l as Winograd algorithm w on machine g (its first
 * kernel's input in L2 when in_l2).  Fills k (cycles = all its kernels'
 * device cycles, aux_cycles = the transform kernels', kernels, the
 * GEMM's tile, ctas, waves, occupancy, bytes) and returns its device
 * cycles.  Call only when gpu_wino_ok().
 */
double gpu_wino_cost(const struct gpu_mach *g, const struct layer *l,
    enum gpu_wino w, int in_l2, struct gpu_kern *k);

#endif

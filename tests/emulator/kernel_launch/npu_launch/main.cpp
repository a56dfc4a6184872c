// SPDX-License-Identifier: MIT
// Host of npu_launch: ACL device memory, ACLRT_LAUNCH_KERNEL(scale_add) through the generated
// aclrtlaunch_scale_add.h, then fill_value through its <<<>>> launcher; checks both results itself.
// `npu_launch --host-input` hands scale_add host memory (aclrtMallocHost) instead of device memory,
// which a device cannot read: the emulator reports it at the kernel's DataCopy. `--host-raw` hands it to
// first_value, which reads it through a raw pointer: reported at that read.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "scale_add_tiling.h"
#include "aclrtlaunch_scale_add.h"
#include "aclrtlaunch_fill_value.h"
#include "aclrtlaunch_first_value.h"

extern void fill_value_do(uint32_t blockDim, void *stream, uint8_t *z, uint32_t perBlock, float value);

#define CHECK(call)                                                   \
    do {                                                              \
        if ((call) != ACL_SUCCESS) {                                  \
            std::fprintf(stderr, "%s failed at line %d\n", #call, __LINE__); \
            return 1;                                                 \
        }                                                             \
    } while (0)

int main(int argc, char **argv)
{
    const bool hostInput = argc > 1 && std::strcmp(argv[1], "--host-input") == 0;
    const bool hostRaw = argc > 1 && std::strcmp(argv[1], "--host-raw") == 0;
    constexpr uint32_t blockDim = 4;
    constexpr uint32_t total = 4 * 512;
    const size_t bytes = total * sizeof(float);
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    float *xHost, *yHost, *zHost;
    ScaleAddTiling *tiling;
    CHECK(aclrtMallocHost((void **)&xHost, bytes));
    CHECK(aclrtMallocHost((void **)&yHost, bytes));
    CHECK(aclrtMallocHost((void **)&zHost, bytes));
    CHECK(aclrtMallocHost((void **)&tiling, sizeof(ScaleAddTiling)));
    for (uint32_t i = 0; i < total; ++i) {
        xHost[i] = static_cast<float>(i % 97) * 0.5f;
        yHost[i] = static_cast<float>(i % 13) - 6.0f;
    }
    *tiling = ScaleAddTiling{total, 128, 3.0f};

    uint8_t *xDev, *yDev, *zDev;
    CHECK(aclrtMalloc((void **)&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&zDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(xDev, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(yDev, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    void *x = hostInput ? static_cast<void *>(xHost) : static_cast<void *>(xDev);
    CHECK(ACLRT_LAUNCH_KERNEL(scale_add)(blockDim, stream, x, yDev, zDev, tiling));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(zHost, bytes, zDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    int wrong = 0;
    for (uint32_t i = 0; i < total; ++i)
        if (std::fabs(zHost[i] - (xHost[i] * 3.0f + yHost[i])) > 1e-4f) ++wrong;

    fill_value_do(blockDim, stream, zDev, total / blockDim, 2.5f);
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(zHost, bytes, zDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < total; ++i)
        if (zHost[i] != 2.5f) ++wrong;

    void *firstIn = hostRaw ? static_cast<void *>(xHost) : static_cast<void *>(xDev);
    CHECK(ACLRT_LAUNCH_KERNEL(first_value)(1, stream, firstIn, zDev));
    CHECK(aclrtMemcpy(zHost, bytes, zDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < 64; ++i)
        if (zHost[i] != xHost[0]) ++wrong;

    CHECK(aclrtFree(xDev));
    CHECK(aclrtFree(yDev));
    CHECK(aclrtFree(zDev));
    CHECK(aclrtFreeHost(xHost));
    CHECK(aclrtFreeHost(yHost));
    CHECK(aclrtFreeHost(zHost));
    CHECK(aclrtFreeHost(tiling));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    if (wrong != 0) {
        std::printf("[Failed] npu_launch: %d wrong elements\n", wrong);
        return 1;
    }
    std::printf("[Success] npu_launch matches\n");
    return 0;
}

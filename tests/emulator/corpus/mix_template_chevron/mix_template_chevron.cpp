// A template kernel declared `__mix__(1, 2)` and launched with <<<>>>, as the devkit's fusion samples write
// it. The compiler drops the section attribute that __mix__ expands to on a template's instances, so the
// launch takes the ratio from the source (core/emulator/ChevronRewrite.h): each block must still run as
// one AIC and two AIVs. The AIC writes its block's marker to GM and releases its AIVs with a mode-2
// flag; each AIV waits, then writes the marker plus its sub-block index. Checked from the host.
#include <cstdint>
#include <cstdio>
#include "acl/acl.h"
#include "kernel_operator.h"

template <int32_t BASE>
__global__ __mix__(1, 2) void mix_template_kernel(__gm__ uint8_t *out)
{
    AscendC::GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, 8 * 3 * 8);
    if ASCEND_IS_AIC {
        const int32_t block = static_cast<int32_t>(AscendC::GetBlockIdx());
        outGm.SetValue(block * 3 * 8, BASE + block);
        AscendC::CrossCoreSetFlag<0x2, PIPE_S>(5);
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(5);
        // An AIV's block index is block * 2 + sub-block.
        const int32_t block = static_cast<int32_t>(AscendC::GetBlockIdx()) / 2;
        const int32_t sub = static_cast<int32_t>(AscendC::GetSubBlockIdx());
        const int32_t marker = outGm.GetValue(block * 3 * 8);
        outGm.SetValue((block * 3 + 1 + sub) * 8, marker * 10 + sub);
    }
}

int main()
{
    constexpr uint32_t blocks = 4;
    constexpr size_t bytes = 8 * 3 * 8 * sizeof(int32_t);
    int32_t host[8 * 3 * 8] = {};
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *dev = nullptr;
    aclrtMalloc((void **)&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    mix_template_kernel<700><<<blocks, nullptr, stream>>>(dev);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = 0;
    for (uint32_t b = 0; b < blocks; b++) {
        const int32_t marker = 700 + static_cast<int32_t>(b);
        const int32_t want[3] = {marker, marker * 10, marker * 10 + 1};
        for (int s = 0; s < 3; s++) {
            if (host[(b * 3 + s) * 8] != want[s]) {
                std::printf("block %u slot %d: %d, expected %d\n", b, s, host[(b * 3 + s) * 8], want[s]);
                bad++;
            }
        }
    }
    aclrtFree(dev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}

// Kernel printf of half and bfloat16_t values with %f (the devkit's simple_printf prints a half read
// from GM this way): the device prints the number the value holds, so the emulator must not pass the
// 16-bit class through `...` as raw bits. The host sends stdout (which the block processes inherit) to a
// file for the launch and checks the printed lines.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include "kernel_operator.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void kernel_printf_values(GM_ADDR x)
{
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 16);
    const half h = xGm.GetValue(AscendC::GetBlockIdx());
    const bfloat16_t b = bfloat16_t(-2.5f);
    AscendC::printf("block %u half %f bf16 %.2f int %d\n", AscendC::GetBlockIdx(), h, b, -7);
    AscendC::PRINTF("PRINTF half %.3f\n", h);
}

int main()
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(16 * sizeof(half));
    half *xh = reinterpret_cast<half *>(x);
    for (int i = 0; i < 16; i++) xh[i] = half(9.0f + 0.5f * i);
    char path[] = "/tmp/kwb_printf_values_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return 1;
    std::fflush(stdout);
    const int saved = dup(1);
    dup2(fd, 1);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(kernel_printf_values, 2, x);
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char text[4096] = {};
    const ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
    close(fd);
    unlink(path);
    std::printf("%s", n > 0 ? text : "");
    int bad = 0;
    for (const char *want : {"block 0 half 9.000000 bf16 -2.50 int -7\n", "block 1 half 9.500000 bf16 -2.50 int -7\n",
                             "PRINTF half 9.000\n", "PRINTF half 9.500\n"}) {
        if (std::strstr(text, want) == nullptr) {
            std::printf("missing line: %s", want);
            bad++;
        }
    }
    AscendC::GmFree((void *)x);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}

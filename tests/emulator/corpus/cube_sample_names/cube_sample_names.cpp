// Names the devkit's cube samples use that are not API calls: `assert` without <cassert>,
// AscendC::IsSameType and the int4b_t type name in `if constexpr`, CFG_NORM unqualified next to
// AscendC::Matmul (no using-directive), and GetBlockIdx() unqualified under `using namespace matmul`
// alone. The kernel writes what it computed with them; the host checks it.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"

namespace with_matmul_names {
using namespace matmul;
__aicore__ inline int64_t BlockIndex() { return GetBlockIdx(); }
}  // namespace with_matmul_names

using NormMatmul = AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                                   AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                                   AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
                                   AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>, CFG_NORM>;

template <typename T>
__aicore__ inline int32_t TypeCode()
{
    if constexpr (AscendC::IsSameType<T, AscendC::int4b_t>::value) {
        return 4;
    } else if constexpr (AscendC::IsSameType<T, int8_t>::value) {
        return 8;
    } else {
        return static_cast<int32_t>(sizeof(T)) * 100;
    }
}

extern "C" __global__ __aicore__ void cube_sample_names(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, 4 * 8);
    const int64_t block = with_matmul_names::BlockIndex();
    assert(block >= 0 && block < 4);
    outGm.SetValue(block * 8 + 0, static_cast<int32_t>(block));
    outGm.SetValue(block * 8 + 1, TypeCode<int8_t>());
    outGm.SetValue(block * 8 + 2, TypeCode<AscendC::int4b_t>());
    outGm.SetValue(block * 8 + 3, TypeCode<half>());
}

int main()
{
    static_assert(sizeof(NormMatmul) > 0, "CFG_NORM names a Matmul configuration at global scope");
    static_assert(!AscendC::IsSameType<half, float>::value && AscendC::IsSameType<float, float>::value,
                  "IsSameType compares types");
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(4 * 8 * sizeof(int32_t));
    int32_t *o = reinterpret_cast<int32_t *>(out);
    for (int i = 0; i < 32; i++) o[i] = -1;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(cube_sample_names, 4, out);
    int bad = 0;
    for (int b = 0; b < 4; b++) {
        const int32_t want[4] = {b, 8, 4, 200};
        for (int k = 0; k < 4; k++) {
            if (o[b * 8 + k] != want[k]) {
                std::printf("block %d value %d: %d, expected %d\n", b, k, o[b * 8 + k], want[k]);
                bad++;
            }
        }
    }
    AscendC::GmFree((void *)out);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}

// Host side as in CANN's CPU debug mode; checks the result itself and exits 0 when it matches.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "data_utils.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
struct AddCustomTilingData {
  uint32_t totalLength;
  uint32_t tileNum;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddCustomTilingData tiling);
#endif

int main() {
  uint32_t blockDim = 8;
  const uint32_t total = 8 * 2048;
  size_t bytes = total * sizeof(uint16_t);
  AddCustomTilingData tiling{total, 8};
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
  for (uint32_t i = 0; i < total; ++i) {
    ((aclFloat16*)x)[i] = aclFloatToFloat16(0.5f * (i % 97));
    ((aclFloat16*)y)[i] = aclFloatToFloat16(0.25f * (i % 13));
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, blockDim, x, y, z, tiling);
  int bad = 0;
  for (uint32_t i = 0; i < total; ++i) {
    const float want = aclFloat16ToFloat(aclFloatToFloat16(0.5f * (i % 97) + 0.25f * (i % 13)));
    if (aclFloat16ToFloat(((aclFloat16*)z)[i]) != want && bad++ < 5) std::printf("mismatch at %u\n", i);
  }
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  std::printf(bad ? "FAIL %d mismatches\n" : "PASS\n", bad);
  return bad ? 1 : 0;
}

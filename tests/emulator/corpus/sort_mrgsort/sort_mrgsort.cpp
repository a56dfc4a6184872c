// Sorting in the (score, index) pair layout: Sort32 sorts 256 float scores (with many equal scores) in
// 8 groups of 32, MrgSort merges them with repeatTimes = 2 (four back-to-back queues of 32 per repeat)
// and then merges the two runs of 128 (validBit = 0b11) into one; the library's Concat / Sort<half,
// isFullSort> / Extract sort 128 half scores fully and split them back into scores and indices
// (GetSortLen / GetSortOffset size and address the pairs); the library's MrgSort in exhausted-suspension
// mode stops when its first queue runs out and reports the pairs taken (sortedNum, GetMrgSortResult).
// Checked against a stable descending sort on the host (equal scores keep their input order).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr uint32_t NF = 256;  // float scores
constexpr uint32_t NH = 128;  // half scores
constexpr uint32_t QA = 4, QB = 4;  // exhausted-suspension queues (pairs)
// Output words: Sort32 groups (NF pairs) | fully merged (NF pairs) | half values (NH halves) | half indices
// (NH) | suspended merge (QA + QB pairs) | sortedNum[4] | GetMrgSortResult[4].
constexpr uint32_t OFF_GROUPS = 0;
constexpr uint32_t OFF_MERGED = OFF_GROUPS + NF * 2;
constexpr uint32_t OFF_HVAL = OFF_MERGED + NF * 2;
constexpr uint32_t OFF_HIDX = OFF_HVAL + NH / 2;
constexpr uint32_t OFF_SUSP = OFF_HIDX + NH;
constexpr uint32_t OFF_NUMS = OFF_SUSP + (QA + QB) * 2;
constexpr uint32_t OUT_WORDS = OFF_NUMS + 8;

__global__ __aicore__ void sort_mrgsort_custom(GM_ADDR scores, GM_ADDR index, GM_ADDR hscores, GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inS, inI, inH;
    TQue<QuePosition::VECOUT, 1> outG, outM, outV, outX, outS;
    TBuf<TPosition::VECCALC> work, sortTmp, concatTmp, qBuf;
    pipe.InitBuffer(inS, 1, NF * sizeof(float));
    pipe.InitBuffer(inI, 1, NF * sizeof(uint32_t));
    pipe.InitBuffer(inH, 1, NH * sizeof(half));
    pipe.InitBuffer(outG, 1, NF * 8);
    pipe.InitBuffer(outM, 1, NF * 8);
    pipe.InitBuffer(outV, 1, NH * sizeof(half));
    pipe.InitBuffer(outX, 1, NH * sizeof(uint32_t));
    pipe.InitBuffer(outS, 1, (QA + QB) * 8);
    pipe.InitBuffer(work, NF * 8);
    pipe.InitBuffer(sortTmp, NH * 8);
    pipe.InitBuffer(concatTmp, 32);
    pipe.InitBuffer(qBuf, (QA + QB) * 8);
    GlobalTensor<float> sGm;
    GlobalTensor<uint32_t> iGm, outGm;
    GlobalTensor<half> hGm;
    sGm.SetGlobalBuffer((__gm__ float *)scores, NF);
    iGm.SetGlobalBuffer((__gm__ uint32_t *)index, NF);
    hGm.SetGlobalBuffer((__gm__ half *)hscores, NH);
    outGm.SetGlobalBuffer((__gm__ uint32_t *)out, OUT_WORDS);

    LocalTensor<float> s = inS.AllocTensor<float>();
    LocalTensor<uint32_t> idx = inI.AllocTensor<uint32_t>();
    LocalTensor<half> hs = inH.AllocTensor<half>();
    DataCopy(s, sGm, NF);
    DataCopy(idx, iGm, NF);
    DataCopy(hs, hGm, NH);
    inS.EnQue(s);
    inI.EnQue(idx);
    inH.EnQue(hs);
    s = inS.DeQue<float>();
    idx = inI.DeQue<uint32_t>();
    hs = inH.DeQue<half>();

    // Float: 8 sorted groups, then 2 runs of 128 (repeatTimes = 2), then one run of 256.
    LocalTensor<float> groups = outG.AllocTensor<float>();
    Sort32<float>(groups, s, idx, NF / 32);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> runs = work.Get<float>();
    MrgSort4Info params;
    for (int q = 0; q < 4; q++) params.elementLengths[q] = 32;
    params.ifExhaustedSuspension = false;
    params.validBit = 0b1111;
    params.repeatTimes = 2;
    MrgSortSrcList<float> list(groups[0], groups[64], groups[128], groups[192]);
    MrgSort<float>(runs, list, params);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> merged = outM.AllocTensor<float>();
    params.elementLengths[0] = 128;
    params.elementLengths[1] = 128;
    params.elementLengths[2] = 0;
    params.elementLengths[3] = 0;
    params.validBit = 0b11;
    params.repeatTimes = 1;
    MrgSortSrcList<float> two;
    two.src1 = runs[0];
    two.src2 = runs[GetSortOffset<float>(128)];
    MrgSort<float>(merged, two, params);

    // Half: the library's full sort, then the scores and the indices apart again.
    LocalTensor<half> concat;
    Concat(concat, hs, concatTmp.Get<half>(), NH / 16);
    LocalTensor<half> sorted = work.Get<half>();
    sorted.SetSize(GetSortLen<half>(NH));
    LocalTensor<half> tmp = sortTmp.Get<half>();
    PipeBarrier<PIPE_V>();
    Sort<half, true>(sorted, concat, idx, tmp, NH / 32);
    PipeBarrier<PIPE_V>();
    LocalTensor<half> values = outV.AllocTensor<half>();
    LocalTensor<uint32_t> indices = outX.AllocTensor<uint32_t>();
    Extract(values, indices, sorted, NH / 32);

    // Exhausted suspension: queue 1 = the first QA pairs of the merged run, queue 2 = QB pairs from its end.
    PipeBarrier<PIPE_V>();
    LocalTensor<float> q = qBuf.Get<float>();
    DataCopy(q, merged, QA * 2);
    DataCopy(q[QA * 2], merged[(NF - QB) * 2], QB * 2);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> susp = outS.AllocTensor<float>();
    Duplicate(susp, 0.0f, (QA + QB) * 2);
    PipeBarrier<PIPE_V>();
    const uint16_t lengths[4] = {QA, QB, 0, 0};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    MrgSort<float, true>(susp, MrgSortSrcList<float>(q[0], q[QA * 2], q[0], q[0]), lengths, sortedNum, 0b11, 1);
    uint16_t r1 = 0, r2 = 0, r3 = 0, r4 = 0;
    GetMrgSortResult(r1, r2, r3, r4);
    for (uint32_t i = 0; i < 4; i++) outGm.SetValue(OFF_NUMS + i, sortedNum[i]);
    outGm.SetValue(OFF_NUMS + 4, r1);
    outGm.SetValue(OFF_NUMS + 5, r2);
    outGm.SetValue(OFF_NUMS + 6, r3);
    outGm.SetValue(OFF_NUMS + 7, r4);

    outG.EnQue(groups);
    outM.EnQue(merged);
    outV.EnQue(values);
    outX.EnQue(indices);
    outS.EnQue(susp);
    inS.FreeTensor(s);
    inI.FreeTensor(idx);
    inH.FreeTensor(hs);
    groups = outG.DeQue<float>();
    merged = outM.DeQue<float>();
    values = outV.DeQue<half>();
    indices = outX.DeQue<uint32_t>();
    susp = outS.DeQue<float>();
    GlobalTensor<float> outF;
    outF.SetGlobalBuffer((__gm__ float *)out, OUT_WORDS);
    GlobalTensor<half> outH;
    outH.SetGlobalBuffer((__gm__ half *)(out + OFF_HVAL * 4), NH);
    DataCopy(outF[OFF_GROUPS], groups, NF * 2);
    DataCopy(outF[OFF_MERGED], merged, NF * 2);
    DataCopy(outH, values, NH);
    DataCopy(outGm[OFF_HIDX], indices, NH);
    DataCopy(outF[OFF_SUSP], susp, (QA + QB) * 2);
    outG.FreeTensor(groups);
    outM.FreeTensor(merged);
    outV.FreeTensor(values);
    outX.FreeTensor(indices);
    outS.FreeTensor(susp);
}

struct Ref {
    float score;
    uint32_t index;
};

static std::vector<Ref> stableDescending(std::vector<Ref> v)
{
    std::stable_sort(v.begin(), v.end(), [](const Ref &a, const Ref &b) { return a.score > b.score; });
    return v;
}

int main()
{
    uint8_t *scores = (uint8_t *)AscendC::GmAlloc(NF * sizeof(float));
    uint8_t *index = (uint8_t *)AscendC::GmAlloc(NF * sizeof(uint32_t));
    uint8_t *hscores = (uint8_t *)AscendC::GmAlloc(NH * sizeof(half));
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(OUT_WORDS * sizeof(uint32_t));
    float *sf = reinterpret_cast<float *>(scores);
    uint32_t *ix = reinterpret_cast<uint32_t *>(index);
    half *hh = reinterpret_cast<half *>(hscores);
    for (uint32_t i = 0; i < NF; i++) {
        sf[i] = static_cast<float>((i * 37u) % 23u) * 0.5f - 3.0f;  // 23 distinct values: many ties
        ix[i] = 1000u + i;
    }
    for (uint32_t i = 0; i < NH; i++) hh[i] = half(static_cast<float>((i * 11u) % 17u) * 0.25f - 2.0f);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(sort_mrgsort_custom, 1, scores, index, hscores, out);

    const uint32_t *ow = reinterpret_cast<const uint32_t *>(out);
    uint32_t bad = 0;
    auto checkPairs = [&](const char *what, uint32_t off, const std::vector<Ref> &want) {
        for (size_t k = 0; k < want.size(); k++) {
            float got;
            std::memcpy(&got, ow + off + 2 * k, 4);
            const uint32_t gotIdx = ow[off + 2 * k + 1];
            if (got != want[k].score || gotIdx != want[k].index) {
                if (bad < 10)
                    std::printf("%s[%zu] = (%g, %u), expected (%g, %u)\n", what, k, got, gotIdx, want[k].score,
                                want[k].index);
                bad++;
            }
        }
    };
    std::vector<Ref> all(NF);
    for (uint32_t i = 0; i < NF; i++) all[i] = Ref{sf[i], ix[i]};
    std::vector<Ref> groupsWant;
    for (uint32_t g = 0; g < NF / 32; g++) {
        const std::vector<Ref> part(all.begin() + g * 32, all.begin() + (g + 1) * 32);
        const std::vector<Ref> sortedPart = stableDescending(part);
        groupsWant.insert(groupsWant.end(), sortedPart.begin(), sortedPart.end());
    }
    checkPairs("Sort32", OFF_GROUPS, groupsWant);
    const std::vector<Ref> mergedWant = stableDescending(all);
    checkPairs("MrgSort", OFF_MERGED, mergedWant);

    std::vector<Ref> hall(NH);
    for (uint32_t i = 0; i < NH; i++) hall[i] = Ref{static_cast<float>(hh[i]), 1000u + i};
    const std::vector<Ref> hwant = stableDescending(hall);
    const half *hv = reinterpret_cast<const half *>(ow + OFF_HVAL);
    for (uint32_t k = 0; k < NH; k++) {
        if (static_cast<float>(hv[k]) != hwant[k].score || ow[OFF_HIDX + k] != hwant[k].index) {
            if (bad < 10)
                std::printf("Sort<half>[%u] = (%g, %u), expected (%g, %u)\n", k, static_cast<float>(hv[k]),
                            ow[OFF_HIDX + k], hwant[k].score, hwant[k].index);
            bad++;
        }
    }

    // Suspended merge of the top QA and the bottom QB pairs: the top queue runs out first, after QA pairs,
    // and nothing of the bottom queue (all lower) was taken; the rest of the output stays 0.
    std::vector<Ref> suspWant(mergedWant.begin(), mergedWant.begin() + QA);
    checkPairs("MrgSort(suspended)", OFF_SUSP, suspWant);
    for (uint32_t k = QA; k < QA + QB; k++)
        if (ow[OFF_SUSP + 2 * k] != 0 || ow[OFF_SUSP + 2 * k + 1] != 0) {
            std::printf("MrgSort(suspended) wrote pair %u after its first queue ran out\n", k);
            bad++;
        }
    const uint32_t numsWant[8] = {QA, 0, 0, 0, QA, 0, 0, 0};
    for (uint32_t i = 0; i < 8; i++)
        if (ow[OFF_NUMS + i] != numsWant[i]) {
            std::printf("%s[%u] = %u, expected %u\n", i < 4 ? "sortedNum" : "GetMrgSortResult", i % 4,
                        ow[OFF_NUMS + i], numsWant[i]);
            bad++;
        }
    for (uint8_t *p : {scores, index, hscores, out}) AscendC::GmFree((void *)p);
    std::printf("sort_mrgsort: mismatches %u\n", bad);
    std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}

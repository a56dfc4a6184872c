/* kwb_tiling.h - the host tiling interface of a Kernel Workbench candidate (docs/candidate-contract.md).
 *
 * Plain C (C99 and C++), no dependencies, safe to include on the host and in the device compile pass.
 * A candidate defines
 *
 *     extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out);
 *
 * inside `#if KWB_COMPILE_TILING`, and its kernel inside `#if KWB_COMPILE_KERNEL`. The harness calls
 * kwb_tiling once per verification case, copies out->tilingData (tilingDataSize bytes) into a GM buffer
 * passed as the kernel's `tiling` argument, allocates out->workspaceSize bytes for `workspace`, and
 * launches the kernel on out->blockDim blocks. This mirrors a CANN TilingFunc:
 *     context->SetBlockDim(n)                   -> kwb_set_block_dim(out, n)
 *     tiling.SaveToBuffer(raw...)/SetDataSize   -> kwb_set_tiling(out, &t, sizeof t)
 *     context->GetWorkspaceSizes(1)[0] = bytes   -> kwb_set_workspace(out, bytes)
 *     platform.GetCoreNumAiv(), GetCoreMemSize(UB) -> in->coreNumAiv, in->ubSize
 *     context->GetInputShape(i), GetAttrs()      -> in->inputs[i], kwb_attr_*(in, "name", def)
 * Dtype codes are ge::DataType values so the numbers mean the same thing in a CANN op project.
 */
#ifndef KWB_TILING_H
#define KWB_TILING_H

#include <stdint.h>
#include <string.h>

/* Which half of the candidate a compile pass sees. A real device pass (bisheng defines
 * __CCE_AICORE__) gets the kernel only; host passes get both unless the build says otherwise. */
#ifndef KWB_COMPILE_KERNEL
#define KWB_COMPILE_KERNEL 1
#endif
#ifndef KWB_COMPILE_TILING
#if defined(__CCE_AICORE__)
#define KWB_COMPILE_TILING 0
#else
#define KWB_COMPILE_TILING 1
#endif
#endif

#define KWB_MAX_TENSORS 16
#define KWB_MAX_DIMS 8
#define KWB_MAX_ATTRS 16
#define KWB_MAX_ATTR_LIST 8
#define KWB_MAX_ATTR_STRING 64 /* bytes of a string attribute, its terminating 0 included */
#define KWB_TILING_CAPACITY 4096

/* ge::DataType numbering. */
enum KwbDType {
  KWB_DT_FLOAT = 0,
  KWB_DT_FLOAT16 = 1,
  KWB_DT_INT8 = 2,
  KWB_DT_INT32 = 3,
  KWB_DT_UINT8 = 4,
  KWB_DT_INT16 = 6,
  KWB_DT_UINT16 = 7,
  KWB_DT_UINT32 = 8,
  KWB_DT_INT64 = 9,
  KWB_DT_UINT64 = 10,
  KWB_DT_DOUBLE = 11,
  KWB_DT_BOOL = 12,
  KWB_DT_BF16 = 27
};

enum KwbAttrType {
  KWB_ATTR_INT = 0,
  KWB_ATTR_FLOAT = 1,
  KWB_ATTR_BOOL = 2,
  KWB_ATTR_INT_LIST = 3,
  KWB_ATTR_FLOAT_LIST = 4,
  KWB_ATTR_STRING = 5
};

typedef struct KwbTensorDesc {
  int32_t dtype;              /* enum KwbDType */
  int32_t dimNum;             /* 1..KWB_MAX_DIMS */
  int64_t dims[KWB_MAX_DIMS]; /* row-major (ND), dims[dimNum-1] is contiguous */
  int64_t elements;           /* product of dims */
} KwbTensorDesc;

typedef struct KwbAttr {
  char name[32];
  int32_t type;    /* enum KwbAttrType */
  int64_t i;       /* KWB_ATTR_INT, KWB_ATTR_BOOL (0/1) */
  double f;        /* KWB_ATTR_FLOAT (also set for INT) */
  int32_t listLen; /* *_LIST */
  int64_t ilist[KWB_MAX_ATTR_LIST];
  double flist[KWB_MAX_ATTR_LIST];
  char str[KWB_MAX_ATTR_STRING]; /* KWB_ATTR_STRING, 0-terminated */
} KwbAttr;

typedef struct KwbTilingInput {
  uint32_t inputNum;
  uint32_t outputNum;
  KwbTensorDesc inputs[KWB_MAX_TENSORS]; /* in task.json order */
  KwbTensorDesc outputs[KWB_MAX_TENSORS];
  uint32_t attrNum;
  KwbAttr attrs[KWB_MAX_ATTRS];
  uint32_t coreNumAiv; /* vector cores of the SoC (PlatformAscendC::GetCoreNumAiv) */
  uint32_t coreNumAic; /* cube cores */
  uint64_t ubSize;     /* usable Unified Buffer bytes per core (GetCoreMemSize(UB)) */
  char socVersion[32]; /* "Ascend910B1" */
} KwbTilingInput;

typedef struct KwbTilingOutput {
  uint32_t blockDim;       /* 1..65535; 0 = not set (an error) */
  uint32_t tilingDataSize; /* bytes used in tilingData */
  uint64_t workspaceSize;  /* user workspace bytes for the kernel's `workspace` argument */
  uint8_t tilingData[KWB_TILING_CAPACITY];
  uint64_t tilingKey; /* the kernel's TILING_KEY_IS value (op-project form: context->SetTilingKey) */
} KwbTilingOutput;

/* Return codes of kwb_tiling. */
#define KWB_TILING_OK 0
#define KWB_TILING_FAILED 1

static inline void kwb_set_block_dim(KwbTilingOutput* out, uint32_t n) {
  out->blockDim = n;
}
static inline void kwb_set_workspace(KwbTilingOutput* out, uint64_t bytes) {
  out->workspaceSize = bytes;
}
/* Copies a POD tiling struct; returns KWB_TILING_FAILED when it does not fit. */
static inline int kwb_set_tiling(KwbTilingOutput* out, const void* data, uint32_t size) {
  if (size > KWB_TILING_CAPACITY) return KWB_TILING_FAILED;
  memcpy(out->tilingData, data, size);
  out->tilingDataSize = size;
  return KWB_TILING_OK;
}

static inline const KwbAttr* kwb_find_attr(const KwbTilingInput* in, const char* name) {
  for (uint32_t k = 0; k < in->attrNum && k < KWB_MAX_ATTRS; ++k)
    if (strcmp(in->attrs[k].name, name) == 0) return &in->attrs[k];
  return 0;
}
static inline double kwb_attr_float(const KwbTilingInput* in, const char* name, double def) {
  const KwbAttr* a = kwb_find_attr(in, name);
  if (!a) return def;
  return a->type == KWB_ATTR_FLOAT ? a->f : (double)a->i;
}
static inline int64_t kwb_attr_int(const KwbTilingInput* in, const char* name, int64_t def) {
  const KwbAttr* a = kwb_find_attr(in, name);
  if (!a) return def;
  return a->type == KWB_ATTR_FLOAT ? (int64_t)a->f : a->i;
}
/* A string attribute's value, or def when the case gives none. */
static inline const char* kwb_attr_str(const KwbTilingInput* in, const char* name, const char* def) {
  const KwbAttr* a = kwb_find_attr(in, name);
  return a && a->type == KWB_ATTR_STRING ? a->str : def;
}
/* Size in bytes of one element of a KwbDType (0 for unknown codes). */
static inline uint32_t kwb_dtype_size(int32_t dtype) {
  switch (dtype) {
    case KWB_DT_INT8:
    case KWB_DT_UINT8:
    case KWB_DT_BOOL:
      return 1;
    case KWB_DT_FLOAT16:
    case KWB_DT_BF16:
    case KWB_DT_INT16:
    case KWB_DT_UINT16:
      return 2;
    case KWB_DT_FLOAT:
    case KWB_DT_INT32:
    case KWB_DT_UINT32:
      return 4;
    case KWB_DT_INT64:
    case KWB_DT_UINT64:
    case KWB_DT_DOUBLE:
      return 8;
    default:
      return 0;
  }
}

#ifdef __cplusplus
extern "C" {
#endif
/* Implemented by the candidate (inside #if KWB_COMPILE_TILING). */
int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out);
#ifdef __cplusplus
}
#endif

#endif /* KWB_TILING_H */

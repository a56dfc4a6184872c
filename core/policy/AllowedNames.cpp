// SPDX-License-Identifier: MIT
#include "core/policy/AllowedNames.h"

#include <sstream>
#include <unordered_map>

namespace kwb {

namespace {

void addWords(std::unordered_set<std::string>& set, const char* words) {
  std::istringstream in(words);
  std::string w;
  while (in >> w) set.insert(w);
}

// C++20 keywords and alternative tokens. 'asm' is deliberately absent (inline assembly escapes every
// other rule); 'export', 'module' and 'import' are not needed by kernels.
const char* kKeywords =
    "alignas alignof and and_eq auto bitand bitor bool break case catch char char8_t char16_t char32_t "
    "class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield "
    "decltype default delete do double dynamic_cast else enum explicit extern false float for friend goto if "
    "inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected "
    "public register reinterpret_cast requires return short signed sizeof static static_assert static_cast "
    "struct switch template this thread_local throw true try typedef typeid typename union unsigned using "
    "virtual void volatile wchar_t while xor xor_eq";

// Declared in namespace AscendC by core/emulator/include (harvested from its -E text: declarations,
// enumerators and parameter-struct fields; GmAlloc, GmFree, SetKernelMode, KernelMode are host harness
// API and stay out). Keep in step with the emulator when it grows an API.
const char* kAscendC =
    "Abs Add AddRelu Adds AlignUp AllocEventID AllocTensor And Axpy BLOCK_CUBE BinaryRepeatParams "
    "BlockReduceMax  "
    "BlockReduceMin BlockReduceSum Brcb C2PIPE2GM C2PIPE2LOCAL CAST_CEIL CAST_FLOOR CAST_NONE CAST_ODD "
    "CAST_RINT  "
    "CAST_ROUND CAST_TRUNC CMPMODE CO1 CO2 COUNTER Cast Compare Compares GetCmpMask SetCmpMask Cos "
    "CreateVecIndex CrossCoreSetFlag "
    " "
    "CrossCoreWaitFlag DEFAULT DEFAULT_BLK_NUM DEFAULT_BLK_STRIDE DEFAULT_REPEAT_STRIDE DataCopy "
    "DataCopyExtParams  "
    "DataCopyPad DataCopyPadExtParams DataCopyPadParams DataCopyParams DeQue Destroy DisableDmaAtomic Div "
    "DivCeil  "
    "DumpTensor Duplicate EQ EnQue Erf Exp FIX_FIX FIX_M FIX_MTE1 FIX_MTE2 FIX_MTE3 FIX_S FetchEventID "
    "Fixpipe  "
    "FreeAllEvent FreeTensor FusedMulAdd GE GM GT Gather GatherMask Gelu Get GetBlockIdx GetBlockNum "
    "GetLength  "
    "GetPhyAddr GetPosition GetSize GetSubBlockIdx GetSubBlockNum GetSysWorkSpacePtr GetSystemCycle "
    "GetTPipePtr  "
    "GetTaskRation GetTensorCountInQue GetUserTag GetValue GetWithOffset GlobalTensor HardEvent "
    "HasIdleBuffer  "
    "HasTensorInQue IBSet IBWait InitBuffer InitConstValue LCM LE LT LayerNorm LeakyRelu Ln LoadData  "
    "LoadDataWithTranspose LocalTensor MAX MAX_REPEAT_TIMES MTE1_FIX MTE1_M MTE1_MTE2 MTE1_MTE3 MTE1_V "
    "MTE2_FIX  "
    "MTE2_M MTE2_MTE1 MTE2_MTE3 MTE2_S MTE2_V MTE3_MTE1 MTE3_MTE2 MTE3_S MTE3_V M_FIX M_MTE1 M_MTE2 M_S M_V  "
    "MaskMode Max Maxs Min Mins Mmad MrgSort MrgSort4 Mul MulAddDst Muls NE NORMAL Not ONE_BLK_SIZE "
    "ONE_BLOCK_SIZE  "
    "ONE_REPEAT_BYTE_SIZE ORDER_INDEX_VALUE ORDER_ONLY_INDEX ORDER_ONLY_VALUE ORDER_VALUE_INDEX Or PIPE_S "
    "PIPE_V PIPE_M PIPE_MTE1 PIPE_MTE2 PIPE_MTE3 PIPE_ALL PIPE_MTE4 PIPE_MTE5 PIPE_V2 PIPE_FIX "
    "EVENT_ID0 EVENT_ID1 EVENT_ID2 EVENT_ID3 EVENT_ID4 EVENT_ID5 EVENT_ID6 EVENT_ID7 "
    "PRINTF  "
    "PairReduceSum PipeBarrier Power PrimType ProposalConcat ProposalExtract QuePosition Reciprocal "
    "ReduceMax  "
    "ReduceMin ReduceOrder ReduceSum ReinterpretCast ReleaseEventID Relu RepeatReduceSum Reset ResetMask "
    "RmsNorm  "
    "RoundMode Rsqrt SELMODE SHM SPM S_MTE2 S_MTE3 S_V Scatter Select SetAtomicAdd SetAtomicMax SetAtomicMin "
    " "
    "SetAtomicNone SetAtomicType SetFlag SetGlobalBuffer SetL2CacheHint CacheMode CACHE_MODE_DISABLE "
    "CACHE_MODE_NORMAL CACHE_MODE_LAST CACHE_MODE_PERSISTENT SetMaskCount SetMaskNorm SetSize "
    "MASK_PLACEHOLDER MASK_PLACEHOLDER_LIST  "
    "SetSysWorkspace SetUserTag SetValue SetVectorMask ShiftLeft ShiftRight Sigmoid Sin SoftMax SoftmaxFlash "
    "Sort  "
    "Sort32 Sqrt Sub SubRelu SyncAll TBuf TEventID TOTAL_L1_SIZE TOTAL_UB_SIZE TPipe TPosition TQue TQueBind "
    "TSCM  "
    "Tanh TensorTrait TransDataTo5HD Transpose UnaryRepeatParams VECCALC VECIN VECOUT VSEL_CMPMASK_SPR  "
    "VSEL_TENSOR_SCALAR_MODE VSEL_TENSOR_TENSOR_MODE V_M V_MTE1 V_MTE2 V_MTE3 V_S V_V VacantInQue WaitFlag  "
    "WholeReduceMax WholeReduceMin WholeReduceSum bfloat16_t blockCount blockIdx blockLen blockNum "
    "blockNumber  "
    "bufOffset buffer bufferSize calIndex cmpMode count depth desc dst dstBlk dstBlkStride dstBlockStride "
    "dstRep  "
    "dstRepStride dstRepeatStride dstStride dstStrideIn dumpSize event eventID half index isPad isPadIn "
    "isSetMask  "
    "left leftPadding mask maskHigh maskLow mode modeId offset order pad paddingValue params pipe "
    "pipe_barrier_t  "
    "pipe_t pos repeatStrideMode repeatTime right rightPadding round roundEn rsv rsvIn scalar scalarValue "
    "selMask  "
    "selMode size src src0 src0Blk src0BlkStride src0Rep src0RepStride src1 src1Blk src1BlkStride src1Rep  "
    "src1RepStride srcBlk srcBlkStride srcRep srcRepStride srcStride srcStrideIn strideSizeMode tag type "
    "ubOffset  "
    "value work  "
    "Concat Extract GetSortLen GetSortOffset GetMrgSortResult MrgSortSrcList MrgSort4Info src2 src3 src4 "
    "elementLengths ifExhaustedSuspension validBit repeatTimes LayerNormTiling LayerNormConfig LayerNormPara "
    "LNCFG_NORM "
    "GetLayerNormMaxMinTmpSize GetLayerNormNDTilingInfo GetSortTmpSize GetConcatTmpSize "
    "AscendC half bfloat16_t float16_t float32_t event_t printf PRINTF";

// kwb_tiling.h (resources/tasks/include).
const char* kTiling =
    "KwbTilingInput KwbTilingOutput KwbTensorDesc KwbAttr KwbDType KwbAttrType kwb_tiling kwb_set_block_dim "
    "kwb_set_workspace kwb_set_tiling kwb_find_attr kwb_attr_float kwb_attr_int kwb_attr_str kwb_dtype_size "
    "inputNum outputNum inputs outputs attrNum attrs coreNumAiv coreNumAic ubSize socVersion dtype dimNum "
    "dims "
    "elements name type i f listLen ilist flist str blockDim tilingDataSize workspaceSize tilingData "
    "KWB_DT_FLOAT KWB_DT_FLOAT16 KWB_DT_INT8 KWB_DT_INT32 KWB_DT_UINT8 KWB_DT_INT16 KWB_DT_UINT16 "
    "KWB_DT_UINT32 KWB_DT_INT64 KWB_DT_UINT64 KWB_DT_DOUBLE KWB_DT_BOOL KWB_DT_BF16 KWB_ATTR_INT "
    "KWB_ATTR_FLOAT KWB_ATTR_BOOL KWB_ATTR_INT_LIST KWB_ATTR_FLOAT_LIST KWB_ATTR_STRING KWB_MAX_ATTR_STRING";

// The operator-project form (core/emulator/include/register, tiling/platform, kwb_op, and the kernel's
// GET_TILING_DATA / TILING_KEY_IS): the CANN host API an op_host TilingFunc and OpDef use.
const char* kOpProject =
    "optiling ops gert ge fe platform_ascendc TilingContext InferShapeContext InferDataTypeContext "
    "TilingParseContext Shape StorageShape Tensor CompileTimeTensorDesc RuntimeAttrs TilingData "
    "ContinuousVector PlatFormInfos PlatformAscendC CoreMemType SocVersion OpDef "
    "OpParamDef OpAttrDef OpAICoreDef OpAICoreConfig Option IGNORE OPTIONAL REQUIRED DYNAMIC VIRTUAL "
    "DataType Format graphStatus GRAPH_SUCCESS GRAPH_FAILED GRAPH_PARAM_INVALID GetSizeByDataType DT_FLOAT "
    "DT_FLOAT16 DT_INT8 DT_INT32 DT_UINT8 DT_INT16 DT_UINT16 DT_UINT32 DT_INT64 DT_UINT64 DT_DOUBLE DT_BOOL "
    "DT_BF16 DT_UNDEFINED DT_STRING DT_COMPLEX64 DT_COMPLEX128 DT_INT4 TypeUtils GetDataTypeLength "
    "FORMAT_NCHW FORMAT_NHWC FORMAT_ND FORMAT_NC1HWC0 FORMAT_FRACTAL_Z "
    "FORMAT_FRACTAL_NZ FORMAT_NCDHW FORMAT_NDHWC FORMAT_RESERVED GetDimNum GetDim SetDimNum SetDim "
    "AppendDim GetShapeSize IsScalar GetOriginShape GetStorageShape MutableOriginShape MutableStorageShape "
    "GetOriginFormat GetStorageFormat GetDataType GetShape GetAttrNum GetAttrPointer GetFloat GetInt "
    "GetBool GetListInt GetListFloat GetStr GetData GetCapacity GetDataSize SetDataSize GetInputShape "
    "GetOptionalInputShape GetOutputShape GetInputTensor GetOptionalInputTensor GetInputDesc "
    "GetOptionalInputDesc GetOutputDesc GetComputeNodeInputNum GetComputeNodeOutputNum GetAttrs "
    "GetNodeName GetNodeType SetBlockDim GetBlockDim SetTilingKey GetTilingKey SetScheduleMode "
    "GetWorkspaceSizes GetWorkspaceNum GetRawTilingData GetTilingData GetPlatformInfo GetInputDataType "
    "SetOutputDataType GetCoreNum GetCoreNumAic GetCoreNumAiv GetCoreMemSize GetSocVersion "
    "GetLibApiWorkSpaceSize CalcTschBlockDim L0_A L0_B L0_C L1 L2 UB HBM RESERVED ASCEND910 ASCEND910B "
    "ASCEND310P ASCEND310B ASCEND910_93 RESERVED_VERSION ParamType DataTypeList FormatList "
    "UnknownShapeFormat ValueDepend AutoContiguous IgnoreContiguous Scalar ScalarList InitValue AttrType "
    "Float Int Bool String ListInt ListFloat Input Output Attr SetInferShape SetInferShapeRange "
    "SetInferDataType AICore SetTiling SetCheckSupport SetOpSelectFormat AddConfig GetTiling "
    "DynamicCompileStaticFlag DynamicFormatFlag DynamicRankSupportFlag DynamicShapeSupportFlag "
    "NeedCheckSupportFlag PrecisionReduceFlag ExtendCfgInfo SaveToBuffer kwbIsTilingData "
    "KwbIsTilingFieldType KwbCopyTilingData KwbTilingKey KwbAssert GetUserWorkspace KernelMetaType "
    "KwbDeclareKernelType KwbCoreIsAiv KwbCoreIsAic "
    "KERNEL_TYPE_AIV_ONLY KERNEL_TYPE_AIC_ONLY KERNEL_TYPE_MIX_AIV_1_0 KERNEL_TYPE_MIX_AIC_1_0 "
    "KERNEL_TYPE_MIX_AIC_1_1 KERNEL_TYPE_MIX_AIC_1_2 KERNEL_TYPE_AICORE KERNEL_TYPE_VECTORCORE "
    "KERNEL_TYPE_MIX_AICORE KERNEL_TYPE_MIX_VECTOR_CORE "
    // The tiling registered outside the OpDef (register/op_impl_registry.h).
    "IMPL_OP_OPTILING IMPL_OP IMPL_OP_INFERSHAPE OpImplRegisterV2 Tiling TilingParse InputsDataDependency "
    "TilingInputsDataDependency InferShape "
    "InferShapeRange InferDataType GetCompileInfo GetCompiledInfo";

// The Matmul high-level API (lib/matmul_intf.h, kwb_sim/matmul_api.h) and its host tiling
// (tiling/tiling_api.h, kwb_sim/matmul_host_tiling.h) with TCubeTiling's fields
// (kwb_sim/matmul_tiling_data.h).
const char* kMatmul =
    "matmul Matmul MatmulType MatmulConfig CubeFormat ND NZ ZN ZZ NN ND_ALIGN SCALAR VECTOR LayoutMode NONE "
    "BSNGD SBNGD BNGS1S2 NORMAL IterateOrder ORDER_M ORDER_N UNDEF ScheduleType INNER_PRODUCT OUTER_PRODUCT "
    "BatchMode CFG_NORM CFG_MDL CFG_IBSHARE_NORM MM_CFG_NO_PRELOAD GetNormalConfig GetMDLConfig "
    "GetSpecialMDLConfig GetIBShareNormConfig REGIST_MATMUL_OBJ KwbMatmulRegistrar Regist Init SetOrgShape "
    "SetSingleShape SetTail "
    "SetTensorA SetTensorB SetBias DisableBias ClearBias SetWorkspace SetLocalWorkspace SetHF32 "
    "WaitIterateAll IterateAll Iterate GetTensorC End TilingType TCubeTiling tiling "
    "matmul_tiling MatmulApiTiling MultiCoreMatmulTiling MatrixTraverse NOSET FIRSTM FIRSTN SetDim SetAType "
    "SetBType SetCType SetBiasType SetShape EnableBias SetBufferSpace SetFixSplit SetTraverse "
    "SetDoubleBuffer "
    "GetSingleShape GetCoreNum "
    "usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM stepN "
    "isBias transLength iterateOrder shareMode shareL1Size shareL0CSize shareUbSize batchM batchN "
    "singleBatchM singleBatchN stepKa stepKb depthAL1CacheUB depthBL1CacheUB dbL0A dbL0B dbL0C ALayoutInfoB "
    "ALayoutInfoS ALayoutInfoN ALayoutInfoG ALayoutInfoD BLayoutInfoB BLayoutInfoS BLayoutInfoN BLayoutInfoG "
    "BLayoutInfoD CLayoutInfoB CLayoutInfoS1 CLayoutInfoN CLayoutInfoG CLayoutInfoS2 BatchNum reserved";

// Tiling template programming (ascendc/host_api/tiling/template_argument.h, kwb_op/template_args.h and
// the kernel unit's generated entry, kwb_op/template_dispatch.h).
const char* kTemplateArgs =
    "ASCENDC_TPL_ARGS_DECL ASCENDC_TPL_ARGS_SEL ASCENDC_TPL_SEL ASCENDC_TPL_DTYPE_DECL "
    "ASCENDC_TPL_DATATYPE_DECL "
    "ASCENDC_TPL_FORMAT_DECL ASCENDC_TPL_UINT_DECL ASCENDC_TPL_BOOL_DECL ASCENDC_TPL_KERNEL_TYPE_DECL "
    "ASCENDC_TPL_DTYPE_SEL ASCENDC_TPL_DATATYPE_SEL ASCENDC_TPL_FORMAT_SEL ASCENDC_TPL_UINT_SEL "
    "ASCENDC_TPL_BOOL_SEL ASCENDC_TPL_TILING_STRUCT_SEL ASCENDC_TPL_KERNEL_TYPE_SEL "
    "ASCENDC_TPL_DETERMINISTIC_SEL "
    "ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL GET_TPL_TILING_KEY ASCENDC_TPL_SEL_PARAM ASCENDC_TPL_1_BW "
    "ASCENDC_TPL_2_BW "
    "ASCENDC_TPL_4_BW ASCENDC_TPL_8_BW ASCENDC_TPL_DTYPE ASCENDC_TPL_FORMAT ASCENDC_TPL_UINT "
    "ASCENDC_TPL_BOOL "
    "ASCENDC_TPL_UI_RANGE ASCENDC_TPL_UI_LIST ASCENDC_TPL_UI_MIX ASCENDC_TPL_INPUT_BIAS "
    "ASCENDC_TPL_OUTPUT_BIAS "
    "ASCENDC_TPL_INPUT ASCENDC_TPL_OUTPUT ASCENDC_TPL_AIV_ONLY ASCENDC_TPL_AIC_ONLY ASCENDC_TPL_MIX_AIV_1_0 "
    "ASCENDC_TPL_MIX_AIC_1_0 ASCENDC_TPL_MIX_AIC_1_1 ASCENDC_TPL_MIX_AIC_1_2 ASCENDC_TPL_AICORE "
    "ASCENDC_TPL_VECTORCORE ASCENDC_TPL_MIX_AICORE ASCENDC_TPL_MIX_VECTOR_CORE C_DT_FLOAT C_DT_FLOAT16 "
    "C_DT_INT8 "
    "C_DT_INT32 C_DT_UINT8 C_DT_INT16 C_DT_UINT16 C_DT_UINT32 C_DT_INT64 C_DT_UINT64 C_DT_DOUBLE C_DT_BOOL "
    "C_DT_COMPLEX64 C_DT_BF16 C_DT_INT4 C_FORMAT_NCHW C_FORMAT_NHWC C_FORMAT_ND C_FORMAT_NC1HWC0 "
    "C_FORMAT_FRACTAL_Z "
    "C_FORMAT_NDHWC C_FORMAT_FRACTAL_NZ C_FORMAT_NCDHW KwbTplCDataType KwbTplCFormat kwb_tpl TplParam "
    "TplGroup "
    "kDType kDataType kFormat kUint kBool kKernelType kDeterministic kSharedKernelType kTilingStruct "
    "kwb_tpl_declared kwb_tpl_selected kwb_tpl_op_type tplEncodeOnHost";

// Types and side-effect-free standard names the allowed headers provide.
const char* kStd =
    "std int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t intmax_t "
    "uintmax_t int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t "
    "uint_least32_t uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t "
    "uint_fast16_t uint_fast32_t uint_fast64_t size_t ptrdiff_t nullptr_t max_align_t byte float_t double_t "
    "min max clamp swap move forward exchange pair make_pair get first second tuple array initializer_list "
    "begin end cbegin cend size data empty fill fill_n copy copy_n copy_backward equal min_element "
    "max_element minmax accumulate reverse sort lower_bound upper_bound find count "
    "numeric_limits lowest epsilon infinity quiet_NaN signaling_NaN denorm_min round_error digits digits10 "
    "max_digits10 is_signed is_integer is_exact is_iec559 has_infinity has_quiet_NaN radix min_exponent "
    "max_exponent is_same is_same_v enable_if enable_if_t conditional conditional_t is_integral "
    "is_integral_v is_floating_point is_floating_point_v is_arithmetic is_arithmetic_v is_signed_v "
    "is_unsigned is_unsigned_v is_pointer is_pointer_v is_const is_void is_trivially_copyable "
    "is_trivially_copyable_v is_standard_layout is_pod make_signed make_signed_t make_unsigned "
    "make_unsigned_t remove_cv remove_cv_t remove_const remove_const_t remove_reference remove_reference_t "
    "remove_pointer remove_pointer_t add_const add_pointer decay decay_t integral_constant bool_constant "
    "true_type false_type value value_type type underlying_type underlying_type_t common_type "
    "common_type_t declval is_constant_evaluated bit_cast "
    "memcpy memset memmove memcmp strlen strcmp strncmp "
    "abs labs llabs fabs fabsf fabsl div ldiv sqrt sqrtf sqrtl cbrt cbrtf exp expf expl exp2 exp2f expm1 "
    "expm1f log logf logl log2 log2f log10 log10f log1p log1pf pow powf powl sin sinf cos cosf tan tanf "
    "asin asinf acos acosf atan atanf atan2 atan2f sinh sinhf cosh coshf tanh tanhf asinh asinhf acosh "
    "acoshf atanh atanhf erf erff erfc erfcf tgamma tgammaf lgamma lgammaf ceil ceilf floor floorf round "
    "roundf lround lroundf llround trunc truncf rint rintf lrint lrintf nearbyint nearbyintf fmod fmodf "
    "remainder remainderf fmin fminf fmax fmaxf fdim fdimf fma fmaf hypot hypotf copysign copysignf ldexp "
    "ldexpf frexp frexpf modf modff nextafter nextafterf isnan isinf isfinite isnormal signbit fpclassify "
    "ilogb logb scalbn";

// Reserved spellings a candidate may write: predefined identifiers, the restrict extension, the
// Ascend C qualifiers as written (kept for candidates that end up with them unexpanded), and the
// constant builtins that the allowed macros INFINITY, NAN, HUGE_VAL and offsetof expand to.
const char* kReserved =
    "__func__ __FUNCTION__ __PRETTY_FUNCTION__ __restrict__ __restrict __inline__ __global__ __aicore__ "
    "__gm__ "
    "__ubuf__ __builtin_inff __builtin_inf __builtin_infl __builtin_nanf __builtin_nan __builtin_nanl "
    "__builtin_huge_valf __builtin_huge_val __builtin_huge_vall __builtin_offsetof";

const char* kAttributes = "nodiscard maybe_unused likely unlikely fallthrough deprecated noreturn";

}  // namespace

// Host code only (docs/candidate-contract.md, "The operator-project form"): what the headers of
// allowedHostIncludes() declare that a TilingFunc reasonably uses. Nothing here does I/O, starts
// processes or reads the environment.
const char* kHostStd =
    "vector string string_view map multimap set multiset unordered_map unordered_set deque list queue "
    "priority_queue stack accumulate iota partial_sum inner_product adjacent_difference reduce gcd lcm "
    "function unique_ptr make_unique pair make_pair tuple make_tuple get tie optional nullopt make_optional "
    "to_string hash less greater plus multiplies begin end size data "
    // The sandboxed tiling run's own output: public TilingFuncs print the tiling they chose.
    "cout cerr endl";

const AllowedNames& allowedNames() {
  static const AllowedNames kNames = [] {
    AllowedNames n;
    addWords(n.keywords, kKeywords);
    addWords(n.external, kAscendC);
    addWords(n.external, kTiling);
    addWords(n.external, kOpProject);
    addWords(n.external, kMatmul);
    addWords(n.external, kTemplateArgs);
    addWords(n.external, kStd);
    addWords(n.reserved, kReserved);
    addWords(n.attributes, kAttributes);
    addWords(n.hostExternal, kHostStd);
    return n;
  }();
  return kNames;
}

bool isReservedIdentifier(const std::string& name) {
  return (name.size() >= 2 && name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')));
}

namespace {
const std::unordered_map<std::string, std::string>& hintTable();
}

bool isAlwaysRefused(const std::string& name) {
  return hintTable().count(name) > 0;
}

std::optional<std::string> refusalHint(const std::string& name) {
  const auto& kHints = hintTable();
  auto it = kHints.find(name);
  if (it != kHints.end()) return it->second;
  if (name == "kwb_sim" || name == "rt" || name == "R" || name == "g_block" || name == "fp16_detail")
    return std::string("is the emulator's internal runtime, not Ascend C; use the AscendC API");
  if (name.rfind("__builtin_", 0) == 0 || name.rfind("__sync_", 0) == 0 || name.rfind("__atomic_", 0) == 0)
    return std::string("is a compiler builtin; kernels use the AscendC API and the allowed std/math names");
  if (name.rfind("acl", 0) == 0)
    return std::string("is ACL runtime (host) API; the workbench owns the launch");
  return std::nullopt;
}

namespace {
const std::unordered_map<std::string, std::string>& hintTable() {
  static const std::unordered_map<std::string, std::string> kHints = [] {
    std::unordered_map<std::string, std::string> m;
    auto add = [&](const char* words, const std::string& why) {
      std::istringstream in(words);
      std::string w;
      while (in >> w) m[w] = why;
    };
    add("system popen pclose execl execlp execle execv execvp execvpe execve fexecve fork vfork clone "
        "posix_spawn "
        "posix_spawnp daemon ptrace kill raise signal sigaction",
        "starts processes or sends signals; a candidate may not run other programs");
    add("fopen fopen64 freopen fdopen open open64 openat creat unlink remove rename mkdir rmdir opendir "
        "truncate "
        "mmap mmap64 munmap mprotect dup dup2 pipe ioctl fwrite fread fputs puts fgets fprintf dprintf "
        "fscanf "
        "write read pwrite pread writev readv close lseek FILE stdout stderr stdin fflush putchar getchar",
        "accesses files or streams; kernels read and write only the GM tensors they are given (printf is the "
        "one allowed output)");
    add("socket connect bind listen accept send sendto recv recvfrom getaddrinfo",
        "uses the network; candidates have no network access");
    add("getenv secure_getenv setenv putenv unsetenv environ __environ chdir setuid setgid prctl setrlimit",
        "reads or changes the process environment");
    add("dlopen dlsym syscall", "loads code or makes raw system calls");
    add("exit _exit _Exit quick_exit atexit at_quick_exit abort longjmp setjmp",
        "ends or redirects the harness process; kernels return normally");
    add("malloc calloc realloc free aligned_alloc",
        "allocates host memory; kernels use TPipe/TQue/TBuf buffers and the GM tensors they are given");
    add("main ICPU_RUN_KF GmAlloc GmFree SetKernelMode KernelMode",
        "is host harness code: the workbench owns buffers, inputs and the launch");
    return m;
  }();
  return kHints;
}
}  // namespace

}  // namespace kwb

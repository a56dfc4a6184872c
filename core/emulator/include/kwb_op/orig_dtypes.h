// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: msopgen's kernel build defines ORIG_DTYPE_<NAME> as the tensor's ge::DataType name
// (ORIG_DTYPE_X=DT_FLOAT16), which kernels compare in `#if ORIG_DTYPE_X == DT_FLOAT16` as well as in
// C++; as there, the names are macros with ge::DataType's numbers. The operator-project kernel unit
// includes this after the tiling headers (core/toolchain/OpProjectForm.cpp), so the host unit keeps
// ge::DT_* as enumerators; kwb_op/ge_types.h declares them with these macros pushed aside.
#ifndef DT_FLOAT
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_BF16 27
#endif

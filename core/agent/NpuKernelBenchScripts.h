// SPDX-License-Identifier: MIT
#pragma once
// The two Python programs an NPUKernelBench import runs in the sandbox (docs/task-format.md,
// "Importing an NPUKernelBench task"). Both are preceded by assignments made with
// npuKernelBenchProgram: MODULE_FILE / MODULE_SOURCE (validation/module.py), PREPARE_FILE /
// PREPARE_SOURCE (validation/prepare_inputs.py) and ROWS (the test_cases.csv rows, already parsed and
// checked here); the describe script also OUTPUT_FILE, the reference script CASES (case name -> row).

#include <string>
#include <string_view>

namespace kwb {

// Loads both files with stand-ins for the NPU-only modules they import (torch_npu, kernel_gen_ops:
// only ModelNew, the candidate's binding, uses them), and for each row calls get_init_inputs(param) and
// get_inputs(param), runs Model(*init).forward(*inputs) and writes a JSON description of the arguments
// (tensors with dtype, shape and value range) and outputs (parseNpuKernelBenchDescription reads it as
// untrusted input).
std::string_view npuKernelBenchDescribeScript();

// The task's reference: reads the verifier's manifest (resources/tasks/include/kwb_reference.h),
// rebuilds the case's get_inputs(param), puts the case's input tensors in place of its tensors (cast to
// the dtypes get_inputs() made), runs Model(*get_init_inputs(param)) and writes float64 outputs.
std::string_view npuKernelBenchReferenceScript();

// The assignments named above, then `script`. `rowsJson` is a JSON array of objects of strings (one per
// row), `extraAssignments` further Python lines.
std::string npuKernelBenchProgram(const std::string& moduleSource, const std::string& prepareSource,
                                  const std::string& rowsJson, std::string_view script,
                                  const std::string& extraAssignments = {});

}  // namespace kwb

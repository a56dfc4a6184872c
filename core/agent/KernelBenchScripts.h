// SPDX-License-Identifier: MIT
#pragma once
// The two Python programs a KernelBench import runs in the sandbox (docs/task-format.md, "Importing a
// KernelBench problem"). Both expect PROBLEM_FILE and PROBLEM_SOURCE (the problem file's name and text)
// defined before them; kernelBenchDescribeScript() also OUTPUT_FILE and REQUEST.

#include <string>
#include <string_view>

namespace kwb {

// The fixed seed both scripts give torch before get_init_inputs(), get_inputs() and Model(...), so the
// reference builds the same module weights as the import saw.
inline constexpr int kKernelBenchSeed = 42;

// Loads the problem, calls get_init_inputs()/get_inputs(), runs forward() once while recording the
// torch functions it calls, runs forward() on each requested extra shape, and writes a JSON
// description (parseKernelBenchDescription reads it as untrusted input).
std::string_view kernelBenchDescribeScript();

// The task's reference: reads the verifier's manifest (resources/tasks/include/kwb_reference.h
// describes it), runs Model(*get_init_inputs()).forward on the case's inputs, writes float64 outputs.
std::string_view kernelBenchReferenceScript();

// PROBLEM_FILE / PROBLEM_SOURCE (and the extra names) as Python assignments, then `script`.
std::string kernelBenchProgram(const std::string& problemFile, const std::string& problemSource,
                               std::string_view script, const std::string& extraAssignments = {});

}  // namespace kwb

// SPDX-License-Identifier: MIT
#pragma once
// `kwb task import --from npukernelbench DIR`: the command (docs/task-format.md, "Importing an
// NPUKernelBench task").

#include <cstddef>
#include <optional>
#include <string>

namespace kwb::cli {

struct NpuKernelBenchCliOptions {
  std::size_t answer = 0;
  std::size_t maxCases = 64;
};

// `dtypeColumn` empty: the rows' dtypes choose the OpDef combination; `soc` empty keeps the default.
int importNpuKernelBenchTaskCommand(const std::string& dir, const NpuKernelBenchCliOptions& options,
                                    std::optional<std::size_t> dtypeColumn, const std::string& soc,
                                    const std::string& outArg);

}  // namespace kwb::cli

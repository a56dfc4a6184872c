#include "app/kwb/Cli.h"

namespace kwb::cli {
void addTaskCommand(CLI::App& app, Context& ctx) {}
}  // namespace kwb::cli

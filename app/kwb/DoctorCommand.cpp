#include "app/kwb/Cli.h"

namespace kwb::cli {
void addDoctorCommand(CLI::App& app, Context& ctx) {}
}  // namespace kwb::cli
